#!/usr/bin/env bash
# Soak: `hooksup --mode auto demo` in a real tmux for DURATION (default 30m), a person's keys
# typed in a loop, so the simulated claude works, asks permission, runs a subagent, is blocked by
# the demo check and stops, over and over, under the TUI. Every SAMPLE seconds (default 30) it
# prints hooksup's RSS, threads and open file descriptors, and the hook calls and verdicts so
# far. At the end it compares the Stop/SubagentStop hook calls claude made (counted by a
# wrapper around hooksup-hook) with the verdict log's lines, and prints a summary.
#
#   scripts/soak.sh [DURATION]        e.g. scripts/soak.sh 30m    SAMPLE=5 scripts/soak.sh 2m
#
# Exit status 1 when a Stop/SubagentStop call has no verdict line (or the reverse), when a hook
# failed open, or when hooksup died.
set -euo pipefail
cd "$(dirname "$0")/.."

dur=${1:-30m}
sample=${SAMPLE:-30}
speed=${HOOKSUP_DEMO_SPEED:-0.05}
case $dur in
*h) secs=$(( ${dur%h} * 3600 )) ;; *m) secs=$(( ${dur%m} * 60 )) ;; *s) secs=${dur%s} ;; *) secs=$dur ;;
esac
command -v tmux >/dev/null || { echo "soak: tmux is not installed" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/hooksup-soak.XXXXXX")
bin=$work/bin
mkdir -p "$bin" "$work/home" "$work/state" "$work/config" "$work/run"
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
	"exec env HOME='$work/home' XDG_STATE_HOME='$work/state' XDG_CONFIG_HOME='$work/config' XDG_RUNTIME_DIR='$work/run' TERM=xterm-256color HOOKSUP_DEMO_SPEED=$speed '$bin/hooksup' --mode auto demo"
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

start=$(date +%s)
next=$start
died=0
while (( $(date +%s) - start < secs )); do
	if ! kill -0 "$pid" 2>/dev/null; then died=1; echo "soak: hooksup died"; break; fi
	now=$(date +%s)
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
(( died )) || sample_row $(( $(date +%s) - start ))
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
ok=1
[[ $stopcalls == "$nverdicts" ]] || { echo "soak: $stopcalls stop calls but $nverdicts verdicts"; ok=0; }
[[ $failopen == 0 ]] || { echo "soak: $failopen hooks failed open (see $state/hooksup.log)"; ok=0; }
(( died == 0 )) || ok=0
(( ok )) && { rm -rf "$work"; echo "soak: ok"; exit 0; }
echo "soak: FAILED; kept $work"
exit 1
