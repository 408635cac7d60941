#!/usr/bin/env bash
# Agent pane throughput, end to end: an agent's bytes in, the screen the outer terminal shows.
# Three streams (tui/vterm's benchmark streams, ~16 MB each): plain scrolling text, the recorded
# Claude Code sessions of tui/vterm/testdata repeated, and 86-character lines each ending in a
# bare LF, so that each starts in the column where the last ended and rows wrap (the fake claude's
# terminal is raw: no CR is added). Each goes, in a detached 200×50 tmux
# session, once straight into the tmux pane (`cat`), and once through hooksup's agent pane (a fake
# claude that cats it, run by `hooksup claude`, whose TUI fills the same tmux pane). A run ends
# when the stream and a marker line after it have been written and tmux's screen shows the
# marker, so whatever hooksup has not drawn yet counts. Start-up (tmux's, hooksup's and the fake
# claude's) is subtracted: the same run on an empty stream. Best of RUNS (default 3) each, the
# tmux and hooksup runs interleaved so that the machine's load weighs on both alike.
#
#   scripts/pane-bench.sh [RUNS]            HOOKSUP_BIN=path/to/hooksup scripts/pane-bench.sh
#
# It prints one line per stream (plain, claude, wrapped):
#   plain   hooksup X MB/s, tmux Y MB/s, ratio X/Y
# hooksup's pane is narrower than the tmux window: its side panes take the rest.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${1:-3}
command -v tmux >/dev/null || { echo "pane-bench: tmux is not installed" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/hooksup-pane.XXXXXX")
mkdir -p "$work/home" "$work/state" "$work/config" "$work/run" "$work/proj"
chmod 700 "$work/run"
sock=pane$$
serial=0
cleanup() {
	for i in $(seq 1 "$serial"); do tmux -L "$sock-$i" kill-server 2>/dev/null || true; done
	rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$sock"-* 2>/dev/null || true
	rm -rf "$work" 2>/dev/null || true
}
trap cleanup EXIT

bin=${HOOKSUP_BIN:-}
if [ -z "$bin" ]; then
	bin=$work/hooksup
	go build -o "$bin" ./cmd/hooksup
fi
go test -count=1 -run '^TestDumpBenchStreams$' ./tui/vterm/ -args -vterm.dump="$work" >/dev/null

# The fake claude: answers --version as a supported claude; otherwise, like claude, puts its
# terminal in raw mode and reads what the terminal sends (the recorded sessions ask the terminal
# questions: echoed answers would add output of their own, and could scroll the marker away),
# writes the stream, leaves any alternate screen or scroll region, writes the marker, and
# signals the script.
marker=PANE-BENCH-END
cat >"$work/claude" <<EOF
#!/bin/sh
case "\$1" in --version) echo "2.1.330 (Claude Code)"; exit 0 ;; esac
stty raw -echo
cat >/dev/null &
cat "\$BENCH_STREAM"
printf '\033[?1049l\033[r\033[m\r\n$marker\r\n'
tmux -L "\$BENCH_SOCK" wait-for -S done
exec sleep 600
EOF
chmod +x "$work/claude"

now() { date +%s%N; }

# run_once WHO FILE: nanoseconds from starting the session to tmux's screen showing the marker.
# Each run has a tmux server of its own (one shutting down must not take the next run's session).
run_once() {
	local who=$1 file=$2 s start tries=0 cmd screen
	serial=$((serial + 1))
	s=$sock-$serial
	cmd="cd '$work/proj' && exec env HOME='$work/home' XDG_STATE_HOME='$work/state' XDG_CONFIG_HOME='$work/config' XDG_RUNTIME_DIR='$work/run' TERM=xterm-256color BENCH_STREAM='$file' BENCH_SOCK='$s'"
	if [ "$who" = hooksup ]; then
		cmd="$cmd '$bin' --claude-bin '$work/claude' claude"
	else
		cmd="$cmd '$work/claude'"
	fi
	start=$(now)
	tmux -L "$s" -f /dev/null new-session -d -x 200 -y 50 "$cmd"
	if ! tmux -L "$s" wait-for done; then
		echo "pane-bench: $who's session on $(basename "$file") ended early" >&2
		exit 1
	fi
	while :; do
		screen=$(tmux -L "$s" capture-pane -p) || { echo "pane-bench: $who's tmux server went away" >&2; exit 1; }
		case $screen in *"$marker"*) break ;; esac
		tries=$((tries + 1))
		if [ "$tries" -gt 24000 ]; then # two minutes
			printf 'pane-bench: %s never showed the end of %s; screen:\n%s\n' "$who" "$(basename "$file")" "$screen" >&2
			exit 1
		fi
		sleep 0.005
	done
	echo $(($(now) - start))
	tmux -L "$s" kill-server 2>/dev/null || true
}

# best NAME: the best of $runs for tmux and for hooksup on NAME.stream, the two interleaved so
# that a change in the machine's load hits both alike; sets best_tmux and best_hooksup.
best() {
	local who ns i
	best_tmux=0 best_hooksup=0
	for i in $(seq 1 "$runs"); do
		for who in tmux hooksup; do
			run_once "$who" "$work/$1.stream" >"$work/ns"
			ns=$(cat "$work/ns")
			local var=best_$who
			if [ "${!var}" -eq 0 ] || [ "$ns" -lt "${!var}" ]; then printf -v "$var" %s "$ns"; fi
		done
	done
}

best empty
declare -A empty=([tmux]=$best_tmux [hooksup]=$best_hooksup)

for name in plain claude wrapped; do
	file=$work/$name.stream
	bytes=$(stat -c %s "$file" 2>/dev/null || stat -f %z "$file")
	best "$name"
	declare -A mbs
	for who in tmux hooksup; do
		var=best_$who
		net=$((${!var} - empty[$who]))
		if [ "$net" -le 0 ]; then
			echo "pane-bench: $who's $name run was no slower than its start-up; is the machine busy?" >&2
			exit 1
		fi
		mbs[$who]=$(awk -v b="$bytes" -v n="$net" 'BEGIN { printf "%.1f", b / 1e6 / (n / 1e9) }')
	done
	printf '%-7s hooksup %s MB/s, tmux %s MB/s, ratio %s\n' "$name" "${mbs[hooksup]}" "${mbs[tmux]}" \
		"$(awk -v h="${mbs[hooksup]}" -v t="${mbs[tmux]}" 'BEGIN { printf "%.2f", h / t }')"
done
