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

// settingsArgRE is a --settings flag in claude's resume command: hooksup's own file.
var settingsArgRE = regexp.MustCompile(`(^| )--settings(?: |=)\S+`)

// rewriteResumeHint turns the resume command on claude's last screen into hooksup's: claude's
// would start claude without supervision (and name hooksup's settings file, removed by then);
// `hooksup claude --resume ID` brings the session back under hooksup. It reports whether it
// found one.
func rewriteResumeHint(t *vterm.Terminal) bool {
	lines := strings.Split(t.Text(), "\n")
	cols, _ := t.Size()
	for i := range lines {
		// A command longer than the pane wraps onto the next rows.
		joined, n := lines[i], 1
		for n < 4 && i+n < len(lines) && len(lines[i+n-1]) >= cols {
			joined += lines[i+n]
			n++
		}
		m := resumeHintRE.FindStringSubmatch(strings.TrimSpace(joined))
		if m == nil {
			continue
		}
		var b strings.Builder
		for r := range n {
			fmt.Fprintf(&b, "\x1b[%d;1H\x1b[2K", i+r+1)
		}
		fmt.Fprintf(&b, "\x1b[%d;1H%s", i+1, ResumeCommand(strings.TrimSpace(settingsArgRE.ReplaceAllString(m[1], ""))))
		_, _ = t.Write([]byte(b.String()))
		return true
	}
	return false
}

// ResumeCommand is the command that resumes a session under hooksup, for claude's arguments
// that resume it (e.g. "--resume ID", "--permission-mode manual --continue").
func ResumeCommand(how string) string { return "hooksup claude " + how }
