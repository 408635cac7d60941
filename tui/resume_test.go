package tui

import (
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
			if !rewriteResumeHint(term) {
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
	if rewriteResumeHint(term) {
		t.Fatal("rewrote a line that is not claude's resume command")
	}
}
