package e2e

import (
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// NewRealClaudeTUI is a real-claude environment for tests in tmux: the tmux server cannot join
// the tests' network namespace, so the mock listens on the host's loopback (claude's other
// traffic is switched off all the same).
func NewRealClaudeTUI(t *testing.T, h mockapi.Handler) *RealClaude {
	t.Helper()
	rc := NewRealClaudeOpts(t, h)
	rc.Env.Setenv("TERM", "xterm-256color")
	return rc
}

// ClaudeTUI starts `hooksup --config CFG claude --permission-mode manual` in tmux.
func (rc *RealClaude) ClaudeTUI(cfg string, w, h int) *Tmux {
	rc.T.Helper()
	rc.Env.Setenv("HOOKSUP_CLAUDE_BIN", rc.Env.Claude)
	return StartTmux(rc.T, w, h, rc.Env.Environ(), rc.Env.WorkDir, HooksupBin, "--config", cfg, "claude", "--permission-mode", "manual")
}

// TypeIntoClaude types text into claude's input box until it shows there.
func TypeIntoClaude(t testing.TB, tm *Tmux, text string) {
	t.Helper()
	tm.TypeAfter("❯ ", text)
}
