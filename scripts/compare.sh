#!/usr/bin/env bash
# One run of every performance comparison hooksup makes, one line each: what, hooksup's
# figure, the comparison's, and their ratio (hooksup / comparison).
#
#   beside claude   idle wake-ups per second: `hooksup demo` idle at its prompt, and the real
#                   Claude Code idle at its prompt when $HOOKSUP_TEST_CLAUDE names it (offline:
#                   its API is an unreachable loopback port; no request is made while it idles),
#                   else the demo's simulated agent, and tmux (scripts/idle.sh); and hooksup as
#                   `go install` builds it beside the release build
#   beside tmux     agent pane throughput end to end, 200×50: plain scrolling text, recorded
#                   Claude Code output and lines that wrap (each ending in a bare LF, so each
#                   starts where the last ended), through hooksup's pane and straight into a tmux pane
#                   (scripts/pane-bench.sh; where it is missing, tui/vterm/bench-tmux.sh, which
#                   times the emulator alone, and the line says so)
#   beside bare Go  hook round trips, exec to exit, p50 over ROUNDS calls each (default 300,
#                   interleaved): the injected client (hooksup-hook Stop, relaying to a
#                   supervisor that answers allow) against a bare Go program that reads stdin and
#                   makes the same socket call; the Stop hook `hooksup install` registers
#                   (hooksup-hook Stop --installed: no supervisor, so it loads the config, runs
#                   one check, `true`, keeps the session's counts and writes the verdict log)
#                   against the bare Go program that reads stdin and runs the same check the same
#                   way (/bin/sh -c true, output captured): one fork and exec of sh each
#                   (BenchmarkHookRoundTrip in cmd/hooksup)
#   start-up        the packages' init time (GODEBUG=inittrace=1, median of 5) of `hooksup log`,
#                   `hooksup --version` and `hooksup-hook --version` beside a bare Go hello world,
#                   and of `hooksup --version` as `go install` builds it beside the release build,
#                   whose exec-to-exit times (p50 of 51 runs each, interleaved) follow
#
# Everything is built as the release is (CGO_ENABLED=0, -trimpath, -ldflags "-s -w"), except the
# `go install` build: the README's install line builds from go.mod alone, with go's defaults, as
# `GOWORK=off go install ./cmd/...` does from the checkout. The machine's cores and load are
# printed first: the figures move with the load; the ratios less. The arguments pick sections
# (idle, pane, hooks, startup); none runs them all.
#
#   scripts/compare.sh                 ROUNDS=1000 PANE_RUNS=5 IDLE_SECS=20 scripts/compare.sh
#   scripts/compare.sh idle startup
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=${ROUNDS:-300}
pane_runs=${PANE_RUNS:-3}
idle_secs=${IDLE_SECS:-10}
sections=" ${*:-idle pane hooks startup} "
for s in $sections; do
	case $s in idle | pane | hooks | startup) ;; *) echo "compare: no section $s (idle, pane, hooks, startup)" >&2; exit 2 ;; esac
done
want() { [[ $sections == *" $1 "* ]]; }
flags=(-trimpath -ldflags "-s -w")

work=$(mktemp -d "${TMPDIR:-/tmp}/hooksup-compare.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The `go install` build: go.mod's graph alone (GOWORK=off), go's default flags and cgo setting.
GOWORK=off GOBIN="$work/install" go install ./cmd/...
export CGO_ENABLED=0
go build "${flags[@]}" -o "$work/hooksup" ./cmd/hooksup
go build "${flags[@]}" -o "$work/hooksup-hook" ./cmd/hooksup-hook
mkdir -p "$work/hello"
printf 'package main\n\nimport "os"\n\nfunc main() { os.Stdout.WriteString("hello\\n") }\n' >"$work/hello/main.go"
printf 'module hello\n\ngo 1.26\n' >"$work/hello/go.mod"
(cd "$work/hello" && GOWORK=off go build "${flags[@]}" -o "$work/hello-bin" .)

load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime | sed 's/.*load averages*: //'; }
cores=$(nproc 2>/dev/null || sysctl -n hw.ncpu)
echo "machine: $(uname -sm), $cores cores, load average at the start $(load); $(go version | cut -d' ' -f3)"

rows=()
row() { rows+=("$(printf '%-58s %16s %30s %7s' "$1" "$2" "$3" "$4")"); }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 == 0) print "n/a"; else printf "%.2f", a / b }'; }

# Idle wake-ups.
if want idle; then
	idle=$(HOOKSUP_BIN="$work/hooksup" scripts/idle.sh "$idle_secs")
	echo "$idle" | sed 's/^/  idle | /' >&2
	wake() { echo "$idle" | awk -v n="$1" '{ name = $1; if ($1 == "demo") name = "demo agent" } name == n { print $NF }'; }
	h=$(wake hooksup)
	if [ -n "$(wake claude)" ]; then
		c=$(wake claude) who="claude $("$HOOKSUP_TEST_CLAUDE" --version 2>/dev/null | cut -d' ' -f1) idle"
	else
		c=$(wake "demo agent") who="demo agent (no claude)"
	fi
	row "idle wake-ups/s: hooksup demo at a prompt" "$h" "$who $c" "$(ratio "$h" "$c")"
	row "idle wake-ups/s: beside tmux's server" "$h" "tmux $(wake tmux)" "$(ratio "$h" "$(wake tmux)")"
	installed=$(HOOKSUP_TEST_CLAUDE= HOOKSUP_BIN="$work/install/hooksup" scripts/idle.sh "$idle_secs")
	echo "$installed" | sed 's/^/  idle, go install build | /' >&2
	i=$(echo "$installed" | awk '$1 == "hooksup" { print $NF }')
	row "idle wake-ups/s: hooksup demo, go install build" "$i" "release build $h" "$(ratio "$i" "$h")"
fi

# Pane throughput.
if ! want pane; then
	:
elif [ -x scripts/pane-bench.sh ]; then
	pane=$(HOOKSUP_BIN="$work/hooksup" scripts/pane-bench.sh "$pane_runs")
	for s in plain claude wrapped; do
		line=$(echo "$pane" | awk -v s="$s" '$1 == s')
		h=$(echo "$line" | sed -n 's/.*hooksup \([0-9.]*\) MB\/s.*/\1/p')
		t=$(echo "$line" | sed -n 's/.*tmux \([0-9.]*\) MB\/s.*/\1/p')
		what="pane MB/s end to end: plain scrolling text"
		[ "$s" = claude ] && what="pane MB/s end to end: recorded Claude Code output"
		[ "$s" = wrapped ] && what="pane MB/s end to end: wrapping lines (bare LF)"
		row "$what" "$h" "tmux $t" "$(ratio "$h" "$t")"
	done
else
	pane=$(tui/vterm/bench-tmux.sh "$pane_runs")
	for s in plain claude wrapped; do
		line=$(echo "$pane" | awk -v s="$s" '$1 == s && NF == 4')
		row "pane MB/s, emulator alone (no end-to-end script): $s" "$(echo "$line" | awk '{print $2}')" "tmux $(echo "$line" | awk '{print $4}')" \
			"$(ratio "$(echo "$line" | awk '{print $2}')" "$(echo "$line" | awk '{print $4}')")"
	done
fi

# Hook round trips.
if want hooks; then
	bench=$(go test -count=1 -run '^$' -bench '^BenchmarkHookRoundTrip$' -benchtime "${rounds}x" ./cmd/hooksup/)
	echo "$bench" | awk '/^hook round trip over/ { out = "" } { out = out $0 "\n" } END { printf "%s", out }' |
		sed -n '/^client/,/^installed.*socket/p' | sed 's/^/  hooks | /' >&2
	# The benchmark prints its table after the 1-call warm-up and after the real run: the last counts.
	p50() { # p50 NAME: the p50 column of the row whose client column is NAME
		echo "$bench" | awk -v n="$1" '{ c = substr($0, 1, 26); sub(/ +$/, "", c) } c == n { v = $(NF - 1) } END { print v }'
	}
	ms() { echo "$1" | awk '{ v = $1; if (v ~ /µs$/) { sub(/µs$/, "", v); v /= 1000 } else if (v ~ /ms$/) sub(/ms$/, "", v); else if (v ~ /s$/) { sub(/s$/, "", v); v *= 1000 }; printf "%.2f", v }'; }
	inj=$(ms "$(p50 'hooksup-hook Stop')") bare=$(ms "$(p50 'bare Go client')")
	inst=$(ms "$(p50 'installed Stop hook')") barec=$(ms "$(p50 'bare Go client + check')")
	whole=$(ms "$(p50 'hooksup hook Stop')")
	row "Stop hook round trip p50 ms: injected hooksup-hook" "$inj" "bare Go client $bare" "$(ratio "$inj" "$bare")"
	row "Stop hook round trip p50 ms: hooksup hook (whole binary)" "$whole" "bare Go client $bare" "$(ratio "$whole" "$bare")"
	row "installed Stop hook p50 ms, one check (true)" "$inst" "bare Go client + check $barec" "$(ratio "$inst" "$barec")"
fi

# Start-up: the packages' init.
init_ms() { # median over 5 runs of the summed init clock of "$@"
	for _ in 1 2 3 4 5; do
		{ GODEBUG=inittrace=1 "$@" 2>&1 >/dev/null || true; } | awk '$1 == "init" { s += $5 } END { printf "%.3f\n", s }'
	done | sort -n | sed -n 3p
}
if want startup; then
	mkdir -p "$work/home"
	hello=$(init_ms "$work/hello-bin")
	for cmd in "hooksup log" "hooksup --version" "hooksup-hook --version"; do
		read -r bin args <<<"$cmd"
		# shellcheck disable=SC2086 # args is one word or none
		v=$(HOME="$work/home" XDG_STATE_HOME="$work/home/state" init_ms "$work/$bin" $args)
		row "start-up, packages' init ms: $cmd" "$v" "Go hello world $hello" "$(ratio "$v" "$hello")"
		if [ "$cmd" = "hooksup --version" ]; then release=$v; fi
	done
	i=$(init_ms "$work/install/hooksup" --version)
	row "start-up, packages' init ms: go install's hooksup --version" "$i" "release build $release" "$(ratio "$i" "$release")"
	# Exec to exit, timed by the shell's clock (no fork of its own): the go install build links
	# libc dynamically where cgo is on, as go's default has it with a C compiler present.
	if [ -n "${EPOCHREALTIME:-}" ]; then
		for _ in $(seq 51); do
			for b in install/hooksup hooksup; do
				s=$EPOCHREALTIME
				"$work/$b" --version >/dev/null
				e=$EPOCHREALTIME
				echo "$b ${s/[.,]/} ${e/[.,]/}"
			done
		done >"$work/exec"
		p50x() { awk -v b="$1" '$1 == b { print ($3 - $2) / 1000 }' "$work/exec" | sort -n | sed -n 26p; }
		i=$(p50x install/hooksup) r=$(p50x hooksup)
		row "start-up, exec to exit p50 ms: go install's --version" "$i" "release build $r" "$(ratio "$i" "$r")"
	fi
fi

echo "load average at the end $(load)"
printf '%-58s %16s %30s %7s\n' what hooksup comparison ratio
printf '%s\n' "${rows[@]}"
