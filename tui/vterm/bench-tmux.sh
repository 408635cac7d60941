#!/usr/bin/env bash
# bench-tmux.sh — tmux's throughput on the streams of BenchmarkWrite, beside
# ours.
#
# For each stream (plain scrolling text, recorded Claude Code output
# repeated, and lines that wrap, each ending in a bare LF), it times a
# detached 200×50 tmux session that cats the file into its raw terminal (no
# CR added to a LF, no echo) and signals when done, subtracts the time of
# the same run on an empty file (tmux start-up), and reports MB/s; then it
# runs the Go benchmarks and prints both side by side.
#
# Usage: tui/vterm/bench-tmux.sh [runs]   (best of `runs`, default 3)
set -euo pipefail

runs=${1:-3}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
sock="hooksup-bench-$$"
cleanup() {
	rm -rf "$tmp"
}
trap cleanup EXIT

command -v tmux >/dev/null || { echo "tmux not found" >&2; exit 1; }

cd "$root"
go test -count=1 -run '^TestDumpBenchStreams$' ./tui/vterm/ -args -vterm.dump="$tmp" >/dev/null

# run_ns FILE: nanoseconds for tmux to take in FILE, best of $runs. Each run
# has its own server socket, so a server still shutting down from the
# previous run cannot be reused by mistake; a run whose wait fails is
# retried.
run_ns() {
	local file=$1 best=0 start end ns i=0 ok=0 s
	while [ "$ok" -lt "$runs" ]; do
		i=$((i + 1))
		if [ "$i" -gt $((runs * 3)) ]; then
			echo "tmux runs keep failing" >&2
			exit 1
		fi
		s="$sock-$i"
		start=$(date +%s%N)
		# The pane stays alive after signalling, so the server cannot exit
		# under the waiting client; it is killed once the wait returns.
		tmux -L "$s" -f /dev/null new-session -d -x 200 -y 50 \
			"stty raw -echo; cat '$file'; tmux -L '$s' wait-for -S done; exec sleep 60"
		if ! tmux -L "$s" wait-for done; then
			tmux -L "$s" kill-server 2>/dev/null || true
			continue
		fi
		end=$(date +%s%N)
		tmux -L "$s" kill-server 2>/dev/null || true
		ok=$((ok + 1))
		ns=$((end - start))
		if [ "$best" -eq 0 ] || [ "$ns" -lt "$best" ]; then best=$ns; fi
	done
	echo "$best"
}

empty=$(run_ns "$tmp/empty.stream")

declare -A tmux_mbs
for name in plain claude wrapped; do
	file="$tmp/$name.stream"
	bytes=$(stat -c %s "$file")
	ns=$(run_ns "$file")
	net=$((ns - empty))
	if [ "$net" -le 0 ]; then
		tmux_mbs[$name]="n/a" # drowned in noise: is the machine busy?
	else
		tmux_mbs[$name]=$(awk -v b="$bytes" -v n="$net" 'BEGIN { printf "%.1f", b / 1e6 / (n / 1e9) }')
	fi
	printf 'tmux %-6s %6.1f MB in %5d ms (start-up %d ms subtracted): %s MB/s\n' \
		"$name" "$(awk -v b="$bytes" 'BEGIN { print b / 1e6 }')" $((ns / 1000000)) $((empty / 1000000)) "${tmux_mbs[$name]}"
done

bench=$(go test -count=1 -run '^$' -bench '^(BenchmarkWrite|BenchmarkXVT|BenchmarkRender)$' -benchtime=2s ./tui/vterm/)
echo "$bench" | grep -E '^Benchmark'

ours() { # ours BENCH-NAME-PREFIX: MB/s column of that benchmark
	echo "$bench" | awk -v n="$1" '$1 ~ "^"n"(-[0-9]+)?$" { for (i = 1; i <= NF; i++) if ($(i+1) == "MB/s") print $i }'
}

echo
printf '%-8s %14s %14s %14s\n' stream 'vterm MB/s' 'x/vt MB/s' 'tmux MB/s'
for name in plain claude wrapped; do
	printf '%-8s %14s %14s %14s\n' "$name" "$(ours "BenchmarkWrite/$name")" "$(ours "BenchmarkXVT/$name")" "${tmux_mbs[$name]}"
done
frame=$(echo "$bench" | awk '$1 ~ /^BenchmarkRender\/screen/ { for (i = 1; i <= NF; i++) if ($(i+1) == "ns/op") printf "%.3f", $i / 1e6 }')
echo "Render ${frame} ms per full 200x50 frame"
