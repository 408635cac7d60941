#!/usr/bin/env bash
# Soak: `hooksup --mode auto demo` in a real tmux for DURATION (default 60m), a person's keys
# typed in a loop, so the simulated claude works, asks permission, runs a subagent, is blocked by
# the demo check and stops, over and over, under the TUI. Every SAMPLE seconds (default 30) it
# prints hooksup's RSS, threads and open file descriptors, and the hook calls and verdicts so
# far. At the end it compares the Stop/SubagentStop hook calls claude made (counted by a
# wrapper around hooksup-hook) with the verdict log's lines, and prints a summary.
#
# Memory: after WARMUP seconds (default 600) it records the RSS and has hooksup write a heap
# profile (HOOKSUP_PPROF_DIR makes hooksup write one on each SIGUSR1), and again at the end; the
# summary says whether the RSS stayed within 5 MB of the warm-up figure and prints the heap's top
# entries at the start, and the end's against the start (go tool pprof -top -base). The profiles
# are kept in the printed directory. Shorter than WARMUP, the first sample is the start.
#
#   scripts/soak.sh [DURATION]        e.g. scripts/soak.sh 30m    SAMPLE=5 scripts/soak.sh 2m
#
# Exit status 1 when a Stop/SubagentStop call has no verdict line (or the reverse), when a hook
# failed open, or when hooksup died.
set -euo pipefail
cd "$(dirname "$0")/.."

dur=${1:-60m}
sample=${SAMPLE:-30}
warmup=${WARMUP:-600}
speed=${HOOKSUP_DEMO_SPEED:-0.05}
case $dur in
*h) secs=$(( ${dur%h} * 3600 )) ;; *m) secs=$(( ${dur%m} * 60 )) ;; *s) secs=${dur%s} ;; *) secs=$dur ;;
esac
command -v tmux >/dev/null || { echo "soak: tmux is not installed" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/hooksup-soak.XXXXXX")
bin=$work/bin
pprofdir=$work/pprof
mkdir -p "$bin" "$work/home" "$work/state" "$work/config" "$work/run" "$pprofdir"
chmod 700 "$work/run"
go build -o "$bin/hooksup" ./cmd/hooksup
go build -o "$bin/hooksup-hook.real" ./cmd/hooksup-hook
# The hook client hooksup injects, wrapped to count what claude ran and what it got back.
cat >"$bin/hooksup-hook" <<EOF
#!/bin/sh
echo "\$1" >>"$work/started.log"
out=\$("$bin/hooksup-hook.real" "\$@"); rc=\$?
printf '%s' "\$out"
case \$out in *'"decision":"block"'*) d=block ;; '') d=allow ;; *) d=other ;; esac
echo "\$1 \$rc \$d" >>"$work/calls.log"
exit \$rc
EOF
chmod 755 "$bin/hooksup-hook"
: >"$work/calls.log"
: >"$work/started.log"

sock=soak$$
tm() { tmux -L "$sock" "$@"; }
cleanup() { tm kill-server 2>/dev/null || true; }
trap cleanup EXIT
tm -f /dev/null new-session -d -s main -x 160 -y 45 \
	"exec env HOME='$work/home' XDG_STATE_HOME='$work/state' XDG_CONFIG_HOME='$work/config' XDG_RUNTIME_DIR='$work/run' HOOKSUP_PPROF_DIR='$pprofdir' TERM=xterm-256color HOOKSUP_DEMO_SPEED=$speed '$bin/hooksup' --mode auto demo"
tm set-option -t main remain-on-exit on >/dev/null
sleep 2
pid=$(tm display-message -p -t main '#{pane_pid}')
state=$work/state/hooksup

status_of() { awk -v k="$1:" '$1 == k {print $2}' "/proc/$pid/status" 2>/dev/null; }
calls() { grep -cE "^$1 " "$work/calls.log" || true; }
stops() { grep -cE '^(Stop|SubagentStop) ' "$work/calls.log" || true; }
verdicts() { cat "$state"/sessions/*/verdicts.jsonl 2>/dev/null | wc -l; }

echo "soak: hooksup pid $pid, $dur, sampling every ${sample}s, demo speed $speed; work dir $work"
printf '%8s %10s %8s %6s %8s %9s %8s %8s\n' ELAPSED RSS_KB THREADS FDS CALLS STOPCALLS VERDICTS BLOCKS
rss_first='' rss_max=0 fds_first='' fds_max=0 thr_first='' thr_max=0 rss=0 fds=0 thr=0
sample_row() {
	rss=$(status_of VmRSS) thr=$(status_of Threads)
	fds=$(ls "/proc/$pid/fd" 2>/dev/null | wc -l)
	[[ -z $rss_first ]] && rss_first=$rss fds_first=$fds thr_first=$thr
	(( rss > rss_max )) && rss_max=$rss
	(( fds > fds_max )) && fds_max=$fds
	(( thr > thr_max )) && thr_max=$thr
	printf '%8s %10s %8s %6s %8s %9s %8s %8s\n' "$1s" "$rss" "$thr" "$fds" "$(wc -l <"$work/calls.log")" "$(stops)" "$(verdicts)" "$(grep -c ' block$' "$work/calls.log" || true)"
}

# heap_profile NAME: hooksup writes its next heap profile, kept as $pprofdir/NAME.pprof.
nprof=0
heap_profile() {
	nprof=$((nprof + 1))
	local f=$pprofdir/heap-$pid-$nprof.pprof
	kill -USR1 "$pid" 2>/dev/null || return 0
	for _ in $(seq 100); do [[ -s $f ]] && break; sleep 0.2; done
	if [[ -s $f ]]; then mv "$f" "$pprofdir/$1.pprof"; else echo "soak: no heap profile $f"; fi
}

(( warmup < secs )) || warmup=0
start=$(date +%s)
next=$start
died=0 rss_warm='' warm_at=0
while (( $(date +%s) - start < secs )); do
	if ! kill -0 "$pid" 2>/dev/null; then died=1; echo "soak: hooksup died"; break; fi
	now=$(date +%s)
	if [[ -z $rss_warm ]] && (( now - start >= warmup )); then
		rss_warm=$(status_of VmRSS) warm_at=$((now - start))
		heap_profile start
		echo "soak: warmed up after ${warm_at}s: RSS $rss_warm kB, heap profile $pprofdir/start.pprof"
	fi
	if (( now >= next )); then
		sample_row $((now - start))
		next=$((next + sample))
	fi
	# A person at the keyboard: answer the permission prompt, or type the next prompt.
	tm send-keys -t main y Enter
	sleep 1
done

# No more keys: let the last turn finish (no hook call under way, none started for 6s), then
# quit. A stop still under way at the quit would be cut short by claude's own shutdown.
quiet=0 last=-1
for _ in $(seq 120); do
	n=$(wc -l <"$work/started.log")
	if [[ $n == "$last" && $n == "$(wc -l <"$work/calls.log")" ]]; then quiet=$((quiet + 1)); else quiet=0; fi
	last=$n
	(( quiet >= 6 )) && break
	sleep 1
done
if (( ! died )); then
	sample_row $(( $(date +%s) - start ))
	heap_profile end
fi
tm send-keys -t main C-] q
for _ in $(seq 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done

stopcalls=$(stops) nverdicts=$(verdicts)
failopen=$(grep -c '(allowed)' "$state/hooksup.log" 2>/dev/null || true)
echo
echo "summary over $dur:"
printf '  %-34s start %s  end %s  max %s\n' "hooksup RSS (kB)" "$rss_first" "$rss" "$rss_max"
printf '  %-34s start %s  end %s  max %s\n' "hooksup threads" "$thr_first" "$thr" "$thr_max"
printf '  %-34s start %s  end %s  max %s\n' "hooksup open fds" "$fds_first" "$fds" "$fds_max"
printf '  %-34s %s (Stop %s, SubagentStop %s; blocked %s)\n' "Stop+SubagentStop hook calls" "$stopcalls" "$(calls Stop)" "$(calls SubagentStop)" "$(grep -c ' block$' "$work/calls.log" || true)"
printf '  %-34s %s\n' "verdict log lines" "$nverdicts"
printf '  %-34s %s (started %s)\n' "all hook calls" "$(wc -l <"$work/calls.log")" "$(wc -l <"$work/started.log")"
printf '  %-34s %s\n' "hooks that failed open" "$failopen"
printf '  %-34s %s\n' "non-zero hook exits" "$(awk '$2 != 0' "$work/calls.log" | wc -l)"
if [[ -n $rss_warm ]] && (( ! died )); then
	growth=$((rss - rss_warm))
	flat=no; (( growth <= 5120 && growth >= -5120 )) && flat=yes
	printf '  %-34s %s kB at %ss, %s kB at the end\n' "hooksup RSS after warm-up" "$rss_warm" "$warm_at" "$rss"
	awk -v m=$((warm_at / 60)) -v f=$flat -v g=$growth 'BEGIN { printf "RSS flat within 5 MB after %s min: %s (%+.1f MB)\n", m, f, g / 1024 }'
fi
if [[ -s $pprofdir/start.pprof && -s $pprofdir/end.pprof ]]; then
	echo
	echo "heap at the start (in use after ${warm_at}s):"
	go tool pprof -top -nodecount=15 -sample_index=inuse_space "$pprofdir/start.pprof" 2>/dev/null | sed -n '/^Showing\|flat%/,$p'
	echo
	echo "heap at the end against the start (go tool pprof -top -base start.pprof end.pprof):"
	go tool pprof -top -nodecount=15 -sample_index=inuse_space -base "$pprofdir/start.pprof" "$pprofdir/end.pprof" 2>/dev/null | sed -n '/^Showing\|flat%/,$p'
	echo "profiles: $pprofdir"
fi
ok=1
[[ $stopcalls == "$nverdicts" ]] || { echo "soak: $stopcalls stop calls but $nverdicts verdicts"; ok=0; }
[[ $failopen == 0 ]] || { echo "soak: $failopen hooks failed open (see $state/hooksup.log)"; ok=0; }
(( died == 0 )) || ok=0
if (( ok )); then
	find "$work" -mindepth 1 -maxdepth 1 ! -name pprof -exec rm -rf {} +
	echo "soak: ok"
	exit 0
fi
echo "soak: FAILED; kept $work"
exit 1
