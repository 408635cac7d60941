#!/usr/bin/env bash
# Runs every fuzz target of the repository for DURATION each and prints, per target, the
# executions, the new interesting inputs and any crasher (written by go under
# <package>/testdata/fuzz/<FuzzName>/: commit it, it then runs in `go test` as a regression case).
#
#   scripts/fuzz.sh [DURATION] [TARGET-REGEXP]     e.g. scripts/fuzz.sh 10m   scripts/fuzz.sh 30s Wire
#
# JOBS=N runs N targets at a time (default 1), each with nproc/N fuzz workers. MINIMIZE bounds
# the time spent shrinking each new input (default 10s; go's own default, 60s, stalls targets
# whose seeds are long).
# Exit status: 1 when any target found a failure.
set -uo pipefail
cd "$(dirname "$0")/.."

dur=${1:-1m}
filter=${2:-.}
jobs=${JOBS:-1}
workers=$(( $(nproc) / jobs ))
(( workers < 1 )) && workers=1
logdir=$(mktemp -d "${TMPDIR:-/tmp}/hooksup-fuzz.XXXXXX")

# package dir and target name of every fuzz target
mapfile -t targets < <(grep -rhoP --include='*_test.go' -l '^func Fuzz\w+\(f \*testing\.F\)' . |
	while read -r file; do
		grep -oP '^func \KFuzz\w+(?=\(f \*testing\.F\))' "$file" | sed "s|^|$(dirname "$file") |"
	done | sort | grep -E -- "$filter")
if (( ${#targets[@]} == 0 )); then
	echo "no fuzz target matches $filter" >&2
	exit 2
fi

echo "fuzzing ${#targets[@]} targets for $dur each, $jobs at a time with $workers workers; logs in $logdir"
run_one() {
	local pkg=$1 name=$2 log="$logdir/$2.log"
	go test -timeout 0 -run '^$' -fuzz "^$name\$" -fuzztime "$dur" -fuzzminimizetime "${MINIMIZE:-10s}" -parallel "$workers" "$pkg" >"$log" 2>&1
	echo $? >"$log.rc"
}
running=0
for t in "${targets[@]}"; do
	read -r pkg name <<<"$t"
	run_one "$pkg" "$name" &
	running=$((running + 1))
	if (( running >= jobs )); then
		wait -n
		running=$((running - 1))
	fi
done
wait

status=0
printf '\n%-18s %-14s %14s %12s %10s  %s\n' TARGET PACKAGE EXECS AVG_EXECS/S NEW FINDINGS
for t in "${targets[@]}"; do
	read -r pkg name <<<"$t"
	log="$logdir/$name.log"
	rc=$(cat "$log.rc" 2>/dev/null || echo '?')
	last=$(grep -E '^fuzz: elapsed: ' "$log" | tail -1)
	execs=$(sed -nE 's/.*execs: ([0-9]+) .*/\1/p' <<<"$last")
	# the average over the run (the last line's own rate is for its last few seconds)
	rate=$(sed -nE 's/^fuzz: elapsed: ([0-9hms]+),.*/\1/p' <<<"$last" |
		awk -v n="${execs:-0}" '{ s = 0; t = $1
			if (match(t, /[0-9]+h/)) s += substr(t, RSTART, RLENGTH - 1) * 3600
			if (match(t, /[0-9]+m/)) s += substr(t, RSTART, RLENGTH - 1) * 60
			if (match(t, /[0-9]+s/)) s += substr(t, RSTART, RLENGTH - 1)
			if (s > 0) printf "%d", n / s }')
	new=$(sed -nE 's/.*new interesting: ([0-9]+).*/\1/p' <<<"$last")
	finding=none
	if [[ $rc != 0 ]]; then
		status=1
		finding=$(grep -m1 -oE 'Failing input written to \S+|panic: .*|--- FAIL.*' "$log" || echo "exit $rc, see $log")
	fi
	printf '%-18s %-14s %14s %12s %10s  %s\n' "$name" "${pkg#./}" "${execs:-?}" "${rate:-?}" "${new:-?}" "$finding"
done
exit $status
