package tui

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/hooksup/hooksup/tui/vterm"
)

// resumeHintRE is the command claude prints as it exits, to resume its session: plain claude
// with some of the flags it was started with (e.g. --permission-mode, or the --settings file).
var resumeHintRE = regexp.MustCompile(`^claude ((?:\S+ )*?(?:--resume \S+|--continue))$`)

// codexResumeRE is a line of what Codex 0.169.0 prints as it exits, naming its own resume
// command: "  codex resume ID" (after "To continue this session, run:"), "Or run codex resume
// and select TITLE.", and older Codex's "To continue this session, run codex resume ID".
var codexResumeRE = regexp.MustCompile(`^(\s*|.*\brun )codex (resume\b.*)$`)

// settingsArgRE is a --settings flag in claude's resume command: hooksup's own file.
var settingsArgRE = regexp.MustCompile(`(^| )--settings(?: |=)\S+`)

// rewriteResumeHint turns the resume command on claude's last screen into hooksup's: claude's
// would start claude without supervision (and name hooksup's settings file, removed by then);
// `hooksup claude --resume ID` brings the session back under hooksup. Codex's exit line gets
// `hooksup codex resume ID` the same way. It reports whether it found one.
func rewriteResumeHint(t *vterm.Terminal) bool {
	found := false
	lines := strings.Split(t.Text(), "\n")
	cols, _ := t.Size()
	for i := range lines {
		// A command longer than the pane wraps onto the next rows.
		joined, n := lines[i], 1
		for n < 4 && i+n < len(lines) && len(lines[i+n-1]) >= cols {
			joined += lines[i+n]
			n++
		}
		if m := codexResumeRE.FindStringSubmatch(strings.TrimRight(lines[i], " ")); m != nil {
			// Codex's lines are short and there may be two: each is rewritten in place.
			fmt.Fprintf(t, "\x1b[%d;1H\x1b[2K%shooksup codex %s", i+1, m[1], m[2])
			found = true
			continue
		}
		m := resumeHintRE.FindStringSubmatch(strings.TrimSpace(joined))
		if m == nil {
			continue
		}
		line := ResumeCommand(strings.TrimSpace(settingsArgRE.ReplaceAllString(m[1], "")))
		var b strings.Builder
		for r := range n {
			fmt.Fprintf(&b, "\x1b[%d;1H\x1b[2K", i+r+1)
		}
		fmt.Fprintf(&b, "\x1b[%d;1H%s", i+1, line)
		_, _ = t.Write([]byte(b.String()))
		return true
	}
	return found
}

// ResumeCommand is the command that resumes a session under hooksup, for claude's arguments
// that resume it (e.g. "--resume ID", "--permission-mode manual --continue").
func ResumeCommand(how string) string { return "hooksup claude " + how }
