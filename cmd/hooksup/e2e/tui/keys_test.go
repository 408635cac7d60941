package tui

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
)

// Rebinding approve and deny changes every hint that names them — the decision banner, the
// status line after the prefix, the help — and the new key approves.
func TestReboundKeysInTmux(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	s.UserConfig("[keys]\nbindings = { approve = \"y\", deny = \"n\" }\n")
	env := append(append([]string{}, s.Env...), "HOOKSUP_DEMO_SPEED=0.3", "TERM=xterm-256color")
	tm := e2e.StartTmux(t, 150, 42, env, s.Project, e2e.HooksupBin, "demo")
	const wait = 20 * time.Second

	tm.WaitText(wait, "Allow Bash(go test ./...)?")
	tm.Text("y") // to the demo agent: no prefix
	scr := tm.WaitText(wait, "⚑ claude wants to stop", "y continue · n let it stop")
	banner := e2e.LineWith(scr, "let it stop")
	if strings.Contains(banner, "a continue") || strings.Contains(banner, "d let it stop") {
		t.Fatalf("the banner still names the default keys:\n%s", scr)
	}

	// The old key no longer approves.
	tm.Keys("C-]")
	scr = tm.WaitText(wait, "hooksup: y continue · n let it stop · e edit reason")
	if strings.Contains(e2e.LineWith(scr, "hooksup: "), "a continue") {
		t.Fatalf("the status line still names a:\n%s", scr)
	}
	tm.Keys("a")
	time.Sleep(500 * time.Millisecond)
	if scr = tm.Screen(); !strings.Contains(scr, "⚑ claude wants to stop") || strings.Contains(scr, "continued by you") {
		t.Fatalf("a still answered the question:\n%s", scr)
	}

	// The help lists the new keys (and, shown after it, proves the a was read).
	tm.Keys("C-]", "?")
	scr = tm.WaitText(wait, "every key goes to claude, except", "approve the forced continuation")
	if !regexp.MustCompile(`│\s+y\s+approve the forced continuation`).MatchString(scr) ||
		!regexp.MustCompile(`│\s+n\s+deny it: claude may stop`).MatchString(scr) {
		t.Fatalf("the help does not show y and n:\n%s", scr)
	}
	if regexp.MustCompile(`│\s+a\s+approve|│\s+d\s+deny`).MatchString(scr) {
		t.Fatalf("the help still shows a and d:\n%s", scr)
	}
	tm.Keys("C-]", "?")
	scr = tm.WaitFor("the help to close", wait, func(scr string) bool { return !strings.Contains(scr, "every key goes to claude") })
	if !strings.Contains(scr, "⚑ claude wants to stop") || strings.Contains(scr, "continued by you") {
		t.Fatalf("a still answered the question:\n%s", scr)
	}

	// y approves: claude continues with the checks' reason.
	tm.Keys("C-]", "y")
	tm.WaitText(wait, "continued by you", "Stop hook feedback", "let stop (checks passed)", "waiting for input")
	tm.Keys("C-]", "q")
	tm.WaitText(wait, "[exited 0]")
}

// Escape closes the help first, as Esc closes an overlay in lazygit and k9s: it is not sent to
// the agent, which is not interrupted; with the help closed, Escape interrupts as always.
func TestEscapeClosesTheHelpFirst(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	env := append(append([]string{}, s.Env...), "HOOKSUP_DEMO_SPEED=0.3", "TERM=xterm-256color")
	tm := e2e.StartTmux(t, 150, 42, env, s.Project, e2e.HooksupBin, "demo")
	const wait = 20 * time.Second
	tm.WaitText(wait, "Allow Bash(go test ./...)?")
	tm.Keys("C-]", "?")
	tm.WaitText(wait, "every key goes to claude, except")
	tm.Keys("Escape")
	tm.WaitFor("the help to close", wait, func(scr string) bool { return !strings.Contains(scr, "every key goes to claude") })
	// The agent still asks: had the Escape reached it, the turn would have ended and "y" would
	// be typed at its prompt instead of answering.
	tm.Text("y")
	scr := tm.WaitText(wait, "[y/n] yes", "⚑ claude wants to stop")
	if strings.Contains(scr, "Interrupted") || strings.Contains(scr, "interrupted") {
		t.Fatalf("Escape that closed the help also reached the agent:\n%s", scr)
	}
	tm.Keys("Escape")
	tm.WaitText(wait, "let stop (Escape)", "interrupted")
}

// In a terminal too small for the agent's pane with the question's banner (30×8), the screen
// says so, and that a question waits, instead of squeezing the agent's pane to nothing; made
// larger, the session is all there again.
func TestTooSmallTerminalSaysSo(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	env := append(append([]string{}, s.Env...), "HOOKSUP_DEMO_SPEED=0.3", "TERM=xterm-256color")
	tm := e2e.StartTmux(t, 150, 42, env, s.Project, e2e.HooksupBin, "demo")
	const wait = 20 * time.Second
	tm.WaitText(wait, "Allow Bash(go test ./...)?")
	tm.Text("y")
	tm.WaitText(wait, "⚑ claude wants to stop")
	tm.Resize(30, 8)
	scr := tm.WaitText(wait, "terminal too small (30×8)", "question waits")
	if strings.Contains(scr, "╭") {
		t.Fatalf("a squeezed pane is drawn in a terminal too small:\n%s", scr)
	}
	tm.Resize(150, 42)
	tm.WaitText(wait, "⚑ claude wants to stop", "╭─ verdicts")
}

// A misspelt action in [keys] is refused at start, naming the file, the line and the name.
func TestUnknownBindingIsRefused(t *testing.T) {
	t.Parallel()
	const bad = "mode = \"ask\"\n[keys]\nbindings = { aprove = \"y\" }\n"
	for _, c := range []struct {
		name string
		run  func(s *e2e.Sandbox) (file string, args []string)
	}{
		{"demo, user config", func(s *e2e.Sandbox) (string, []string) { return s.UserConfig(bad), []string{"demo"} }},
		{"claude, --config", func(s *e2e.Sandbox) (string, []string) {
			f := s.Config(bad)
			return f, []string{"--config", f, "claude", "-p", "hi"}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := e2e.NewSandbox(t)
			file, args := c.run(s)
			code, out := s.Hooksup(t, args...)
			want := file + `:3: keys.bindings.aprove: no such action (did you mean "approve"?)`
			if code == 0 || !strings.Contains(out, want) {
				t.Fatalf("exit %d, output %q; want an error with %q", code, out, want)
			}
		})
	}
}
