#!/usr/bin/env bash
# Idle wake-ups: how often hooksup wakes up while nothing happens, beside what it shows and what
# shows it. `hooksup demo` runs in a real tmux at 200×50 and is left idle at claude's prompt (no
# agent output, no check running, no question pending); then, for SECS seconds (default 10), the
# script sums the context switches (voluntary + involuntary) of every thread of each process:
#
#   hooksup        the TUI, the supervisor, the pty reader, the socket server
#   demo agent     the simulated claude in hooksup's pane, idle at its prompt
#   claude         the real Claude Code idle at its prompt, in a tmux window of its own, when
#                  $HOOKSUP_TEST_CLAUDE names it (offline: its API is an unreachable loopback port)
#   tmux           the tmux server showing all of it
#
#   scripts/idle.sh [SECS]            HOOKSUP_BIN=path/to/hooksup scripts/idle.sh
#
# A context switch is a thread waking up: unlike CPU time, the count hardly depends on how
# loaded the machine is. Every process is measured over the same window.
set -euo pipefail
cd "$(dirname "$0")/.."

secs=${1:-10}
settle=${SETTLE:-5}
command -v tmux >/dev/null || { echo "idle: tmux is not installed" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/hooksup-idle.XXXXXX")
mkdir -p "$work/home" "$work/state" "$work/config" "$work/run" "$work/proj" "$work/tmp"
chmod 700 "$work/run"
bin=${HOOKSUP_BIN:-}
if [ -z "$bin" ]; then
	bin=$work/hooksup
	go build -o "$bin" ./cmd/hooksup
fi

sock=idle$$
tm() { tmux -L "$sock" "$@"; }
cleanup() {
	tm kill-server 2>/dev/null || true
	sleep 0.5
	rm -rf "$work" 2>/dev/null || true
}
trap cleanup EXIT
envs="HOME='$work/home' XDG_STATE_HOME='$work/state' XDG_CONFIG_HOME='$work/config' XDG_RUNTIME_DIR='$work/run' TERM=xterm-256color"
hooksup=$(tm -f /dev/null new-session -d -P -F '#{pane_pid}' -s main -x 200 -y 50 "exec env $envs '$bin' demo")

claude=
if [ -n "${HOOKSUP_TEST_CLAUDE:-}" ]; then
	# claude's interactive start needs onboarding done, the key approved and the folder trusted.
	key=sk-ant-idle-0123456789abcdefghijklmnop
	printf '{"hasCompletedOnboarding": true, "customApiKeyResponses": {"approved": ["%s"], "rejected": []}, "projects": {"%s": {"hasTrustDialogAccepted": true}}}\n' \
		"${key: -20}" "$work/proj" >"$work/home/.claude.json"
	claude=$(tm new-window -d -P -F '#{pane_pid}' -t main: -c "$work/proj" \
		"exec env $envs TMPDIR='$work/tmp' CLAUDE_CODE_TMPDIR='$work/tmp' ANTHROPIC_API_KEY=$key ANTHROPIC_BASE_URL=http://127.0.0.1:9 DISABLE_AUTOUPDATER=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_TELEMETRY=1 DISABLE_ERROR_REPORTING=1 CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL=1 '$HOOKSUP_TEST_CLAUDE'")
fi

# hooksup is idle once its screen stops changing: the demo agent has typed its prompt and waits.
prev=
for _ in $(seq 1 60); do
	sleep 1
	cur=$(tm capture-pane -p -t main:0)
	if [ -n "$prev" ] && [ "$cur" = "$prev" ]; then
		break
	fi
	prev=$cur
done
sleep "$settle"

agent=$(pgrep -P "$hooksup" | head -n1 || true)
server=$(tm display-message -p '#{pid}')
if [ -n "$claude" ] && ! kill -0 "$claude" 2>/dev/null; then
	echo "idle: claude exited at start; left out" >&2
	claude=
fi

# snapshot PID: "TID SWITCHES" for every thread of PID.
snapshot() {
	local f
	for f in /proc/"$1"/task/*/status; do
		awk -v f="$f" '/^(voluntary|nonvoluntary)_ctxt_switches:/ {s += $2} END {split(f, p, "/"); print p[5], s + 0}' "$f" 2>/dev/null || true
	done
}
threads() { ls /proc/"$1"/task 2>/dev/null | wc -l; }

names=(hooksup "demo agent" tmux)
pids=("$hooksup" "$agent" "$server")
if [ -n "$claude" ]; then
	names+=(claude)
	pids+=("$claude")
fi
for i in "${!pids[@]}"; do snapshot "${pids[$i]}" >"$work/before.$i"; done
sleep "$secs"
for i in "${!pids[@]}"; do snapshot "${pids[$i]}" >"$work/after.$i"; done
# A thread that ended during the window is left out (its last count cannot be read); one that
# started counts from zero. hooksup's threads (the Go runtime's) do not end.
printf '%-12s %8s %14s\n' process threads wake-ups/s
for i in "${!pids[@]}"; do
	awk -v n="${names[$i]}" -v s="$secs" -v t="$(threads "${pids[$i]}")" '
		NR == FNR {b[$1] = $2; next}
		{d += $2 - b[$1]}
		END {printf "%-12s %8d %14.1f\n", n, t, d / s}' "$work/before.$i" "$work/after.$i"
done
if [ -n "${SHOW:-}" ]; then
	tm capture-pane -p -t main:0
	[ -z "$claude" ] || tm capture-pane -p -t main:1
fi
