#!/usr/bin/env bash
# bench.sh: figures for package transcript on a synthetic Claude Code transcript.
#
# It writes a transcript of SIZE (default 100M) as <tmp>/projects/-proj/<id>.jsonl, runs the Go
# parser benchmark and the tail-latency benchmark over it, then times package transcript's
# parser (transcript/internal/cmd/parsetranscript) and, when npm is available, ccusage@20.0.24
# offline on the same file with /usr/bin/time -v (best of RUNS runs, default 3), prints a
# side-by-side table and checks that the token totals agree with each other and with the
# generator's.
#
#   bash transcript/bench.sh            # SIZE=20M RUNS=1 bash transcript/bench.sh for a quick run
set -euo pipefail

cd "$(dirname "$0")/.."
size=${SIZE:-100M}
runs=${RUNS:-3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/transcript-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
id=11111111-2222-4333-8444-555555555555
file=$tmp/projects/-proj/$id.jsonl

go build -o "$tmp/gentranscript" ./transcript/internal/cmd/gentranscript
go build -o "$tmp/parsetranscript" ./transcript/internal/cmd/parsetranscript
"$tmp/gentranscript" -size "$size" -seed 1 -out "$file" >"$tmp/expected.json"
bytes=$(wc -c <"$file")
echo "transcript: $file ($((bytes / 1048576)) MiB, $(wc -l <"$file") lines)"

echo
echo "== go test -bench (parser over that file; tail latency over 1000 appends)"
TRANSCRIPT_BENCH_FILE=$file go test -run '^$' -bench 'BenchmarkParse$' -benchtime 5x ./transcript/ | grep '^Benchmark'
go test -run '^$' -bench 'BenchmarkTailLatency$' -benchtime 1000x ./transcript/ | grep '^Benchmark'

# timed NAME OUT CMD...: runs CMD RUNS times under /usr/bin/time -v, stdout to OUT; sets
# wall_NAME (best seconds) and rss_NAME (largest max RSS, MiB).
timed() {
	local name=$1 out=$2 best="" rss=0 i w r
	shift 2
	for ((i = 0; i < runs; i++)); do
		if [[ -x /usr/bin/time ]]; then
			/usr/bin/time -v "$@" >"$out" 2>"$tmp/$name.time"
			w=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (j = 1; j <= n; j++) s = s * 60 + p[j]; print s}' "$tmp/$name.time")
			r=$(awk -F': ' '/Maximum resident set size/ {printf "%.1f", $2 / 1024}' "$tmp/$name.time")
		else # no GNU time: wall time only
			local t0 t1
			t0=$(date +%s.%N)
			"$@" >"$out"
			t1=$(date +%s.%N)
			w=$(echo "$t1 - $t0" | bc)
			r=0
		fi
		if [[ -z $best ]] || awk -v a="$w" -v b="$best" 'BEGIN {exit !(a < b)}'; then best=$w; fi
		if awk -v a="$r" -v b="$rss" 'BEGIN {exit !(a > b)}'; then rss=$r; fi
	done
	printf -v "wall_$name" '%s' "$best"
	printf -v "rss_$name" '%s' "$rss"
}

# totals FILE: "input output cache_creation cache_read" from a JSON file of ours or the
# generator's (the first usage object in it is the total).
totals() {
	local k out=""
	for k in input_tokens output_tokens cache_creation_tokens cache_read_tokens; do
		out+="$(grep -m1 "\"$k\"" "$1" | tr -dc '0-9') "
	done
	echo "${out% }"
}

timed go "$tmp/ours.json" "$tmp/parsetranscript" "$file"
expected=$(totals "$tmp/expected.json")
ours=$(totals "$tmp/ours.json")

have_ccusage=no
if command -v npm >/dev/null 2>&1 && command -v node >/dev/null 2>&1; then
	mkdir -p "$tmp/npm"
	if (cd "$tmp/npm" && npm install --no-audit --no-fund --loglevel=error ccusage@20.0.24 >/dev/null 2>&1); then
		have_ccusage=yes
		CLAUDE_CONFIG_DIR=$tmp timed ccusage "$tmp/ccusage.json" \
			"$tmp/npm/node_modules/.bin/ccusage" claude daily --json --offline -z UTC
		theirs=$(node -e 'const t = JSON.parse(require("fs").readFileSync(process.argv[1])).totals;
			console.log([t.inputTokens, t.outputTokens, t.cacheCreationTokens, t.cacheReadTokens].join(" "))' "$tmp/ccusage.json")
	else
		echo "npm install ccusage@20.0.24 failed: skipping ccusage" >&2
	fi
else
	echo "npm/node not found: skipping ccusage" >&2
fi

echo
echo "== $((bytes / 1048576)) MiB transcript, best of $runs runs (max RSS from /usr/bin/time -v)"
row() { printf '%-22s %9s %12s %12s %12s %14s %14s\n' "$@"; }
row tool wall_s max_rss_MiB input output cache_create cache_read
row "expected (generator)" - - $expected
row "transcript (Go)" "$wall_go" "$rss_go" $ours
if [[ $have_ccusage == yes ]]; then
	row "ccusage 20.0.24" "$wall_ccusage" "$rss_ccusage" $theirs
fi
echo
status=0
if [[ $ours == "$expected" ]]; then echo "transcript totals match the generator's: yes"; else echo "transcript totals match the generator's: NO" && status=1; fi
if [[ $have_ccusage == yes ]]; then
	if [[ $ours == "$theirs" ]]; then echo "transcript and ccusage totals agree: yes"; else echo "transcript and ccusage totals agree: NO" && status=1; fi
fi
exit $status
