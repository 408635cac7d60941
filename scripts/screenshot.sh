#!/usr/bin/env bash
# The README's picture, docs/demo.png: `hooksup demo` in a real tmux at 150×30, left where a
# question waits on you (the banner, the failed check's output, the verdicts so far, the
# subagent), captured with its colours and drawn by charmbracelet/freeze.
#
#   scripts/screenshot.sh [OUT.png]            HOOKSUP_BIN=path/to/hooksup scripts/screenshot.sh
#
# The demo runs with a configuration, state and runtime directory of its own, in UTC and the
# dark theme, so nothing of yours shows. freeze comes from the Go module proxy (go run, nothing to
# install) and draws with the font it carries, JetBrains Mono NL: it runs with an empty PATH, so
# it never hands the drawing to an rsvg-convert of the machine, whose fonts vary (and which
# draws the text proportionally). Three glyphs the screen shows are missing from that font
# (⚑ ✻ ⎿); they are drawn as the nearest ones it has (▶ ✶ └).
set -euo pipefail
cd "$(dirname "$0")/.."

out=${1:-docs/demo.png}
cols=150 rows=30 font=14 pad=20
freeze=github.com/charmbracelet/freeze@v0.2.2
command -v tmux >/dev/null || { echo "screenshot: tmux is not installed" >&2; exit 2; }
go=$(command -v go) || { echo "screenshot: go is not installed" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/hooksup-shot.XXXXXX")
mkdir -p "$work/home" "$work/state" "$work/config" "$work/run" "$work/nopath"
chmod 700 "$work/run"
sock=shot$$
tm() { tmux -L "$sock" "$@"; }
cleanup() {
	tm kill-server 2>/dev/null || true
	rm -rf "$work" 2>/dev/null || true
}
trap cleanup EXIT

bin=${HOOKSUP_BIN:-}
if [ -z "$bin" ]; then
	bin=$work/hooksup
	"$go" build -o "$bin" ./cmd/hooksup
fi

# waitfor TEXT...: until the screen shows every TEXT, for a minute at most.
waitfor() {
	local scr all t
	for _ in $(seq 1 600); do
		scr=$(tm capture-pane -p -t main)
		all=1
		for t in "$@"; do
			case "$scr" in *"$t"*) ;; *) all= ;; esac
		done
		[ -z "$all" ] || return 0
		sleep 0.1
	done
	printf 'screenshot: the demo never showed %s; its screen:\n%s\n' "$*" "$scr" >&2
	exit 1
}

tm -f /dev/null new-session -d -s main -x "$cols" -y "$rows" \
	"exec env -i PATH=/usr/bin:/bin HOME='$work/home' XDG_STATE_HOME='$work/state' XDG_CONFIG_HOME='$work/config' XDG_RUNTIME_DIR='$work/run' TERM=xterm-256color COLORTERM=truecolor TZ=UTC HOOKSUP_DEMO_SPEED=0.5 '$bin' --theme dark demo"
# The demo agent asks to run the tests; allowed, it works on and stops, and the demo's check,
# which fails on a turn's first stop, proposes a continuation that waits on you.
waitfor "Allow Bash("
tm send-keys -t main -l y
waitfor "claude wants to stop" "--- FAIL: TestVerboseFlag" "let stop (no checks)"

# Row by row, so that each row starts with its own colours (a whole capture carries them over
# from the row above, and freeze starts each row afresh); two spaces end each row, as freeze's
# backgrounds end a little short of its text.
ansi=$work/screen.ansi
for ((r = 0; r < rows; r++)); do
	tm capture-pane -e -p -t main -S "$r" -E "$r" | sed -e 's/⚑/▶/g; s/✻/✶/g; s/⎿/└/g; s/$/  /'
done >"$ansi"

# freeze's cell is 0.6 of the font size wide and 1.2 high; the window's title bar takes 18 more.
width=$((cols * font * 3 / 5 + 2 * pad))
height=$((rows * font * 6 / 5 + 2 * pad + 18))
PATH=$work/nopath "$go" run "$freeze" --window --padding "$pad" --font.size "$font" \
	--font.family "JetBrains Mono NL" --width "$width" --height "$height" --output "$out" <"$ansi" >/dev/null
echo "screenshot: $out ($(wc -c <"$out") bytes)"
