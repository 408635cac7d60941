#!/usr/bin/env bash
# Kills the terminal under a running hooksup N times per wrapper (default 10, so 20 kills) and
# counts what survived: hooksup started by a wrapper that keeps the terminal's SIGHUP from it
# (setsid, or a session leader that ignores SIGHUP), in tmux, whose server is then killed.
# CLAUDE=M adds M kills per wrapper with the real claude ($HOOKSUP_TEST_CLAUDE) instead of the
# demo agent.
#
#   scripts/deadterm.sh [N]        e.g. scripts/deadterm.sh 10    CLAUDE=3 scripts/deadterm.sh
#
# Exit status 1 when any process survived.
set -uo pipefail
cd "$(dirname "$0")/.."

n=${1:-10}
log=$(mktemp "${TMPDIR:-/tmp}/hooksup-deadterm.XXXXXX")
go test -count="$n" -run '^TestDeadTerminalEndsTheDemo$' -v -timeout 60m ./cmd/hooksup/ >"$log" 2>&1
if [ "${CLAUDE:-0}" -gt 0 ]; then
	go test -count="$CLAUDE" -run '^TestDeadTerminalEndsClaude$' -v -timeout 60m ./cmd/hooksup/ >>"$log" 2>&1
fi
kills=$(grep -c 'terminal killed:' "$log")
left=$(grep -o 'terminal killed: [0-9]* of' "$log" | awk '{s += $3} END {print s + 0}')
runs_left=$(grep -o 'terminal killed: [0-9]* of' "$log" | awk '$3 > 0 {n++} END {print n + 0}')
echo "terminal kills: $kills; kills that left processes behind: $runs_left; processes left: $left (log: $log)"
[ "$left" -eq 0 ] && [ "$kills" -gt 0 ]
