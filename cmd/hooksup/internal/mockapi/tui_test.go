package mockapi

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

// screen collects a pty's output and answers claude's DA1 probe (claude
// waits for it at start-up).
type screen struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

var ansiRE = regexp.MustCompile(`\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][0-9A-B]|\x1b[=>78]`)

func (s *screen) text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return ansiRE.ReplaceAllString(s.buf.String(), "")
}

// squash drops all white space: claude moves the cursor instead of
// printing spaces, so they vanish once escape sequences are stripped.
func squash(s string) string {
	return strings.Join(strings.Fields(s), "")
}

// waitFor waits until substr (white space ignored) is on the screen.
func (s *screen) waitFor(ctx context.Context, substr string) bool {
	for {
		if strings.Contains(squash(s.text()), squash(substr)) {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// The seeded ~/.claude.json gets the interactive TUI straight to its prompt
// (no onboarding, API-key or trust dialog); a session-title side request
// gets a harmless reply and does not consume the script.
func TestClaudeTUISeeded(t *testing.T) {
	srv := NewServer(t, &Script{Main: []Reply{Text("tui reply from the mock"), Text("WRONG: a second main reply")}}, WithNetNS())
	env := NewEnv(t, srv.URL, "")
	// Let claude make its non-essential requests (session title) too.
	env.Unsetenv("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC")
	ctx, cancel := context.WithTimeout(t.Context(), claudeTimeout)
	defer cancel()

	ptm, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	defer ptm.Close()
	if err := pty.Setsize(ptm, &pty.Winsize{Rows: 40, Cols: 120}); err != nil {
		t.Fatal(err)
	}
	cmd := env.ClaudeCommand(ctx, "--permission-mode", "manual")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	err = srv.Start(cmd)
	tty.Close()
	if err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	defer func() {
		cancel() // kills claude's process group
		<-waited
	}()

	var scr screen
	go func() {
		buf := make([]byte, 32<<10)
		for {
			n, err := ptm.Read(buf)
			if n > 0 {
				scr.mu.Lock()
				if bytes.Contains(buf[:n], []byte("\x1b[c")) {
					ptm.Write([]byte("\x1b[?62;22c"))
				}
				scr.buf.Write(buf[:n])
				scr.mu.Unlock()
			}
			if err != nil {
				return
			}
		}
	}()

	const prompt = "please say hello to the mock server"
	if !scr.waitFor(ctx, "❯") {
		t.Fatalf("no prompt on screen:\n%s", scr.text())
	}
	time.Sleep(300 * time.Millisecond)
	ptm.Write([]byte(prompt))
	if !scr.waitFor(ctx, prompt) {
		t.Fatalf("typed text not echoed:\n%s", scr.text())
	}
	ptm.Write([]byte("\r"))
	if !scr.waitFor(ctx, "tui reply from the mock") {
		t.Fatalf("reply not shown:\n%s", scr.text())
	}
	if strings.Contains(squash(scr.text()), "Doyoutrust") {
		t.Errorf("a trust dialog was shown:\n%s", scr.text())
	}
	// The title request is made alongside the first turn.
	reqs, err := srv.Wait(ctx, func(rs []Request) bool { return len(Filter(rs, KindSide)) > 0 && len(Filter(rs, KindMain)) > 0 })
	if err != nil {
		t.Fatalf("no side request seen: %v", err)
	}
	main := Filter(reqs, KindMain)
	if len(main) != 1 || main[0].Reply == nil || main[0].Reply.Text != "tui reply from the mock" {
		t.Fatalf("main requests: %d", len(main))
	}
	for _, r := range Filter(reqs, KindSide) {
		t.Logf("side request #%d (%s), model %s, reply %q", r.Seq, r.SideReason, r.Model, r.Reply.Text)
		if len(r.Tools) != 0 || !strings.Contains(r.LastUserText(), prompt) {
			t.Errorf("side request #%d: tools %v, last user %q", r.Seq, r.ToolNames(), r.LastUserText())
		}
	}
	if main[0].Header.Get("User-Agent") == "" || !strings.Contains(main[0].Header.Get("User-Agent"), "cli") {
		t.Errorf("user agent %q", main[0].Header.Get("User-Agent"))
	}
}
