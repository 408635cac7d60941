package mockapi

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

// screen collects a pty's output (startPTY).
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

// startPTY starts cmd with start on a new 120×40 pty, its controlling terminal, and returns the
// pty's master side and the screen collecting its output. Whenever the output holds a probe of
// answers ({probe, reply} pairs), the reply is written back: the terminal's answer the program
// waits for at start-up. cancel must end cmd (its context's); when the test ends, cmd is ended
// and waited for, then the pty closed. It skips the test without a pty.
func startPTY(t *testing.T, cancel context.CancelFunc, start func(*exec.Cmd) error, cmd *exec.Cmd, answers [][2]string) (*os.File, *screen) {
	t.Helper()
	ptm, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	t.Cleanup(func() { ptm.Close() })
	if err := pty.Setsize(ptm, &pty.Winsize{Rows: 40, Cols: 120}); err != nil {
		t.Fatal(err)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	err = start(cmd)
	tty.Close()
	if err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	t.Cleanup(func() {
		cancel() // kills the process group
		<-waited
	})
	scr := &screen{}
	go func() {
		buf := make([]byte, 32<<10)
		for {
			n, err := ptm.Read(buf)
			if n > 0 {
				scr.mu.Lock()
				for _, a := range answers {
					if bytes.Contains(buf[:n], []byte(a[0])) {
						ptm.Write([]byte(a[1]))
					}
				}
				scr.buf.Write(buf[:n])
				scr.mu.Unlock()
			}
			if err != nil {
				return
			}
		}
	}()
	return ptm, scr
}

// submit waits for ready on the screen, types prompt until it is echoed (an agent drops keys
// typed while it is still starting: the line is cleared and typed again, up to ten times), then
// presses Enter and waits for reply.
func (s *screen) submit(t *testing.T, ctx context.Context, ptm *os.File, ready, prompt, reply string) {
	t.Helper()
	if !s.waitFor(ctx, ready) {
		t.Fatalf("no prompt on screen:\n%s", s.text())
	}
	for try := 0; ; try++ {
		ptm.Write([]byte(prompt))
		echo, cancel := context.WithTimeout(ctx, 3*time.Second)
		echoed := s.waitFor(echo, prompt)
		cancel()
		if echoed {
			break
		}
		if try == 9 || ctx.Err() != nil {
			t.Fatalf("typed text not echoed:\n%s", s.text())
		}
		ptm.Write([]byte("\x15")) // ctrl+u: clear whatever arrived
	}
	ptm.Write([]byte("\r"))
	if !s.waitFor(ctx, reply) {
		t.Fatalf("reply not shown:\n%s", s.text())
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

	// claude waits for the answer to its DA1 probe at start-up.
	ptm, scr := startPTY(t, cancel, srv.Start, env.ClaudeCommand(ctx, "--permission-mode", "manual"), [][2]string{{"\x1b[c", "\x1b[?62;22c"}})
	const prompt = "please say hello to the mock server"
	scr.submit(t, ctx, ptm, "❯", prompt, "tui reply from the mock")
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
