package tui

import (
	"github.com/hooksup/hooksup/agent/claude"
	"github.com/hooksup/hooksup/agent/codex"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/tui/vterm"
)

func TestRewriteResumeHint(t *testing.T) {
	const id = "ee954bc8-e403-4010-b337-e4b569446491"
	for name, hint := range map[string]string{
		"plain":         "claude --resume " + id,
		"with a flag":   "claude --permission-mode manual --resume " + id,
		"with settings": "claude --settings /run/user/0/hooksup/0123456789abcdef.settings.json --resume " + id,
		"wrapped":       "claude --settings /run/user/0/hooksup/0123456789abcdef0123456789abcdef/0123456789abcdef0123456789abcdef/0123456789abcdef0123456789abcdef.settings.json --resume " + id,
	} {
		t.Run(name, func(t *testing.T) {
			term := vterm.New(100, 10, vterm.Options{})
			defer term.Close()
			term.Write([]byte("bye\r\nResume this session with:\r\n" + hint + "\r\n"))
			if !rewriteResumeHint(term, claude.Agent{}.ResumeHint) {
				t.Fatalf("not found in:\n%s", term.Text())
			}
			got := term.Text()
			want := "hooksup claude --resume " + id
			if strings.Contains(hint, "manual") {
				want = "hooksup claude --permission-mode manual --resume " + id
			}
			if !strings.Contains(got, "Resume this session with:\n"+want+"\n") || strings.Contains(got, "settings") || strings.Count(got, id[:8]) != 1 {
				t.Fatalf("screen:\n%s", got)
			}
		})
	}
	term := vterm.New(40, 5, vterm.Options{})
	defer term.Close()
	term.Write([]byte("run: claude --resume x in a sentence\r\n"))
	if rewriteResumeHint(term, claude.Agent{}.ResumeHint) {
		t.Fatal("rewrote a line that is not claude's resume command")
	}
}

// Codex's exit lines name `codex resume`, which would resume without hooksup: they become
// `hooksup codex resume`.
func TestRewriteCodexResumeHint(t *testing.T) {
	const id = "01a208dc-8f9c-7193-8458-9d4435e9e247"
	for name, tc := range map[string]struct{ printed, want string }{
		"0.169.0": {
			"To continue this session, run:\r\n  codex resume " + id + "\r\nOr run codex resume and select Fix the tests.\r\n",
			"To continue this session, run:\n  hooksup codex resume " + id + "\nOr run hooksup codex resume and select Fix the tests.\n",
		},
		"one line": {
			"To continue this session, run codex resume " + id + "\r\n",
			"\nTo continue this session, run hooksup codex resume " + id + "\n",
		},
	} {
		t.Run(name, func(t *testing.T) {
			term := vterm.New(100, 10, vterm.Options{})
			defer term.Close()
			term.Write([]byte("Token usage: total=3,690 input=600 (+ 3,000 cached) output=90\r\n" + tc.printed))
			if !rewriteResumeHint(term, codex.Agent{}.ResumeHint) {
				t.Fatalf("not found in:\n%s", term.Text())
			}
			if got := term.Text(); !strings.Contains(got, tc.want) || strings.Count(got, id[:8]) != 1 {
				t.Fatalf("screen:\n%s", got)
			}
		})
	}
}

// Each agent's resume command is rewritten on its own screen only: a `codex resume` line on
// claude's last screen (claude's own output, a file it showed) is left as it is, and so is a
// claude one on Codex's.
func TestRewriteResumeHintIsTheAgents(t *testing.T) {
	const id = "01a208dc-8f9c-7193-8458-9d4435e9e247"
	for name, tc := range map[string]struct {
		hint    func(string) (string, bool)
		printed string
	}{
		"codex's on claude's": {claude.Agent{}.ResumeHint, "To continue this session, run:\r\n  codex resume " + id + "\r\nOr run codex resume and select Fix.\r\n"},
		"claude's on codex's": {codex.Agent{}.ResumeHint, "Resume this session with:\r\nclaude --resume " + id + "\r\n"},
		"no agent":            {nil, "To continue this session, run:\r\n  codex resume " + id + "\r\n"},
	} {
		t.Run(name, func(t *testing.T) {
			term := vterm.New(100, 10, vterm.Options{})
			defer term.Close()
			term.Write([]byte(tc.printed))
			before := term.Text()
			if rewriteResumeHint(term, tc.hint) {
				t.Fatalf("rewrote another agent's resume command:\n%s", term.Text())
			}
			if got := term.Text(); got != before || strings.Contains(got, "hooksup") {
				t.Fatalf("screen changed:\n%s", got)
			}
		})
	}
}
