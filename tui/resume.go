package tui

import (
	"fmt"
	"strings"

	"github.com/hooksup/hooksup/tui/vterm"
)

// rewriteResumeHint turns the resume commands on the agent's last screen into hooksup's, as the
// agent's hint rewrites them (agent.Agent.ResumeHint): the agent's own would resume the session
// without supervision (claude's would also name hooksup's settings file, removed by then). A
// command longer than the pane wraps onto the next rows: up to four rows are tried joined. It
// reports whether it found one; a nil hint rewrites nothing.
func rewriteResumeHint(t *vterm.Terminal, hint func(string) (string, bool)) bool {
	if hint == nil {
		return false
	}
	found := false
	lines := strings.Split(t.Text(), "\n")
	cols, _ := t.Size()
	for i := 0; i < len(lines); i++ {
		joined, n := lines[i], 1
		for n < 4 && i+n < len(lines) && len(lines[i+n-1]) >= cols {
			joined += lines[i+n]
			n++
		}
		line, ok := hint(joined)
		if !ok && n > 1 {
			line, ok = hint(lines[i])
			n = 1
		}
		if !ok {
			continue
		}
		var b strings.Builder
		for r := range n {
			fmt.Fprintf(&b, "\x1b[%d;1H\x1b[2K", i+r+1)
		}
		fmt.Fprintf(&b, "\x1b[%d;1H%s", i+1, line)
		_, _ = t.Write([]byte(b.String()))
		found = true
		i += n - 1
	}
	return found
}
