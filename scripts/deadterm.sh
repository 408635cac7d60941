#!/usr/bin/env bash
# Kills the terminal under each long-running hooksup command N times (default 20) and counts,
# per command, the kills that left processes behind: the command runs in tmux, whose server is
# then killed, started as a terminal starts a program (plain: SIGHUP reaches it) and under the
# two wrappers that keep the terminal's SIGHUP from it (setsid, or a session leader that ignores
# SIGHUP), the kills shared between the three. The commands: a session (hooksup demo),
# hooksup watch, hooksup log -f and hooksup web; CLAUDE=M adds M kills of a session of the real claude
# ($HOOKSUP_TEST_CLAUDE). COMMANDS picks some of them, e.g. COMMANDS="Watch LogFollow".
#
#   scripts/deadterm.sh [N]        e.g. scripts/deadterm.sh 20    CLAUDE=3 scripts/deadterm.sh
#
# Exit status 1 when any process survived, or when fewer kills ran than asked.
set -uo pipefail
cd "$(dirname "$0")/.."

n=${1:-20}
commands=${COMMANDS:-TheDemo Watch LogFollow Web}
wrappers=(setsid trap plain) # the remainder of N/3 goes to the wrappers first in this list
log=$(mktemp "${TMPDIR:-/tmp}/hooksup-deadterm.XXXXXX")
bin=$(mktemp -d "${TMPDIR:-/tmp}/hooksup-deadterm-bin.XXXXXX")
trap 'rm -rf "$bin"' EXIT
go test -c -o "$bin/hooksup.test" ./cmd/hooksup/ || exit 1

# kills TEST M: M kills of TEST's program, spread over the wrappers.
kills() {
	local test=$1 m=$2 i count
	for i in "${!wrappers[@]}"; do
		count=$((m / ${#wrappers[@]} + (i < m % ${#wrappers[@]} ? 1 : 0)))
		[ "$count" -gt 0 ] || continue
		# The test binary builds hooksup from its package directory.
		(cd cmd/hooksup && "$bin/hooksup.test" -test.run "^TestDeadTerminalEnds$test\$/^${wrappers[$i]}\$" \
			-test.count="$count" -test.v -test.timeout 60m) >>"$log" 2>&1
	done
}
for c in $commands; do
	kills "$c" "$n"
done
if [ "${CLAUDE:-0}" -gt 0 ]; then
	kills Claude "$CLAUDE"
fi

# Each kill logs "NAME: terminal killed: L of S processes left".
grep -o '[a-z -]*: terminal killed: [0-9]* of' "$log" | sed 's/^ *//' | awk -F': terminal killed: ' '
	{ split($2, f, " "); if (!($1 in kills)) order[n++] = $1; kills[$1]++; if (f[1] > 0) { leaks[$1]++; left[$1] += f[1] } }
	END {
		for (i = 0; i < n; i++) {
			c = order[i]
			printf "%-8s terminal kills: %d; kills that left processes behind: %d; processes left: %d\n", c, kills[c], leaks[c] + 0, left[c] + 0
			total += leaks[c]
		}
		exit total > 0
	}'
status=$?
want=$((n * $(wc -w <<<"$commands") + ${CLAUDE:-0}))
if [ "$(grep -c 'terminal killed:' "$log")" -ne "$want" ]; then
	echo "only $(grep -c 'terminal killed:' "$log") of the $want kills ran"
	status=1
fi
echo "(log: $log)"
exit "$status"
