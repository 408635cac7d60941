package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	tea "github.com/hooksup/hooksup/third_party/bubbletea"

	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/verdictlog"
)

// What hostile outside text becomes as the panes draw it.
const (
	evilName       = "tests\x1b[2J\u202Egnp.exe"
	evilNameShown  = `tests\e[2J<U+202E>gnp.exe`
	evilCmd        = "sh x # \x1b]0;PWNED\a\r\u009b"
	evilCmdShown   = `sh x # \e]0;PWNED\a\r<U+009B>`
	evilOutput     = "OUT \x1b[7;5mbold\x1b[0m\t\u202Eevil\a END"
	evilOutShown   = `OUT bold    <U+202E>evil\a END`
	evilDir        = "/src/proj\x1b[2J\nx\u202E"
	evilDirShown   = `proj\e[2J\nx<U+202E>`
	evilAgentID    = "ag\x1b[2Jent-1"
	evilAgentShown = `ag\e[2Jent`
)

func TestPlainLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"--- FAIL: TestA (0.00s)", "--- FAIL: TestA (0.00s)"},
		{"\tlogin_test.go:9", "    login_test.go:9"},
		{evilOutput, evilOutShown},
		{"progress 10%\rdone", `progress 10%\rdone`}, // shown, never obeyed
		{"\x1b]0;PWNED\a\u009b2J \u2066iso\u2069", "<U+009B>2J <U+2066>iso<U+2069>"},
		{"bad \xff byte", "bad \uFFFD byte"},
	} {
		if got := plainLine(tc.in); got != tc.want {
			t.Errorf("plainLine(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// Every pane draws text from outside hooksup (a check's name, command and output, a reason, an
// agent's ids, a path, a host's answer) visibly: none of its controls reaches the terminal.
func TestPanesShowControlsVisibly(t *testing.T) {
	st := monoStyles(t)
	reason := "The check \"tests\" (`" + evilCmd + "`) failed (exit 1). Its output:\n" + evilOutput
	for _, tc := range []struct {
		name  string
		draw  func() string
		shows []string
	}{
		{"checks pane after a run", func() string {
			p := checksPane{name: evilName, command: evilCmd, result: &session.CheckResult{ExitCode: 1}, output: []byte(evilOutput + "\n")}
			return strings.Join(p.view(st, 120, 10, t0), "\n")
		}, []string{"✗ " + evilNameShown + " exit 1", "$ " + evilCmdShown, evilOutShown}},
		{"checks pane before a run", func() string {
			p := checksPane{agent: "claude", configured: []config.Check{{Name: evilName, Command: evilCmd}}, ignored: []string{evilDir}}
			return strings.Join(p.view(st, 200, 10, t0), "\n")
		}, []string{"○ " + evilNameShown + "  $ " + evilCmdShown, "⚠ /src/" + evilDirShown + " is not trusted"}},
		{"verdict line", func() string {
			return verdictLine(st, verdictlog.Verdict{Time: t0, Event: hooks.SubagentStop, AgentID: evilAgentID, Decision: hooks.Block,
				Source: verdictlog.Source("check:" + evilName), Reason: reason}, 200)
		}, []string{"Sub " + evilAgentShown, "check " + evilNameShown, evilCmdShown}},
		{"verdict detail", func() string {
			p := verdictsPane{agent: "claude", open: true, selected: -1, items: []verdictlog.Verdict{{Time: t0, Event: hooks.SubagentStop,
				AgentID: evilAgentID, AgentType: "Ex\u202Eplore", Decision: hooks.Block, Source: verdictlog.Source("check:" + evilName),
				Checks:     []verdictlog.CheckRecord{{Name: evilName, ExitCode: 1, Output: evilOutput, Error: "\x1b[2Jerr"}},
				Warning:    "warn\x1b[2J\nsecond\u202E",
				Reason:     reason,
				OtherHooks: []verdictlog.OtherHook{{Command: evilCmd, Outcome: hooks.OutcomeBlocked, Blocked: true, Reason: evilOutput}}}}}
			return strings.Join(p.detail(st, 200, 40), "\n")
		}, []string{"agent " + `ag\e[2Jent-1 (Ex<U+202E>plore)`, "✗ " + evilNameShown + " exit 1", `\e[2Jerr`, "│ " + evilOutShown,
			`warn\e[2J`, "second<U+202E>", "(`" + evilCmdShown + "`) failed", "blocked " + evilCmdShown}},
		{"header", func() string {
			h := header{agent: "claude", model: "opus\x1b]0;PWNED\a", sessionID: "\u202E1234567-0"}
			return h.view(st, 300)
		}, []string{`opus\e]0;PWNED\a`, "<U+202E>1234567"}},
		{"subagents pane", func() string {
			p := subagentsPane{agents: []session.Subagent{{ID: evilAgentID, Type: "Ex\u202Eplore", State: session.SubDone}}}
			return strings.Join(p.view(st, 120, 5), "\n")
		}, []string{evilAgentShown, "Ex<U+202E>plore"}},
		{"notice", func() string {
			return noticeLine(st, session.Notice{Level: session.NoticeWarn, Text: "cannot read " + evilDir}, 200)
		}, []string{"cannot read /src/" + evilDirShown}},
		{"exit summary", func() string {
			return strings.Join(tally{sessionID: "s\x1b[2J1", turns: 1}.lines("hooksup claude --resume"), "\n")
		}, []string{`hooksup claude --resume s\e[2J1`}},
		{"banner", func() string {
			m, _, _ := newTestModel(t, "mono")
			m.w, m.h, m.now = 160, 44, t0
			next, _ := m.Update(eventMsg{ev: session.QuestionAsked{At: session.At{Time: t0}, Question: session.Question{ID: 1,
				Event: hooks.SubagentStop, AgentID: evilAgentID, AgentType: "Ex\u202Eplore", Proposal: hooks.Block, Reason: reason,
				Asked: t0, Deadline: t0.Add(5 * time.Minute)}}})
			lines, _ := next.(model).bannerLines(160, 10, "5:00", true)
			return strings.Join(lines, "\n")
		}, []string{"subagent " + evilAgentShown + " (Ex<U+202E>plore) wants to stop", evilCmdShown, evilOutShown}},
		{"reason editor", func() string {
			m, _, _ := newTestModel(t, "mono")
			m.editor.start(1, reason, 160, 20)
			return strings.Join(m.editor.rows(), "\n")
		}, []string{evilCmdShown, "<U+202E>evil"}},
		{"agent pane's title", func() string {
			m, _, _ := newTestModel(t, "mono")
			next, _ := m.Update(tea.WindowSizeMsg{Width: 160, Height: 44})
			mm := next.(model)
			mm.header.title = "\x1b]0;PWNED\a\u202Etitle"
			return mm.render()
		}, []string{`\e]0;PWNED\a<U+202E>title`}},
		{"watch", func() string {
			f := fakeSessions()
			s := &f.lives[0].Snapshot
			s.Cwd, s.Agent, s.State, s.Mode, s.SessionID = evilDir, "cla\u202Eude", "stop\x1b[2Jping", "a\x1b[2Jsk", "\u202E1a2b3c4-0"
			q := &s.Pending[0]
			q.Event, q.AgentID, q.Source, q.Reason = "St\x1b[2Jop", evilAgentID, "check:"+evilName, reason
			f.lives[1].Err = hubErr("host devbox: gone \x1b]0;PWNED\a")
			f.lives[1].Host = "dev\u202Ebox"
			m := newTestWatch(t, f)
			m.Update(watchListed{lives: f.lives, at: watchNow})
			return m.View().Content
		}, []string{evilDirShown + " · cla<U+202E>ude · <U+202E>1a2b3 ", `stop\e[2Jping`, `a\e[2Jsk mode`, `⚑ St\e[2Jop of ` + evilAgentShown,
			"check " + evilNameShown, evilCmdShown, evilOutShown, "dev<U+202E>box", `gone \e]0;PWNED\a`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw := tc.draw()
			for _, bad := range []string{"\x1b[2J", "\x1b]0;", "PWNED\a", "\u202e", "\u009b", "\r", "\x1b[7;5m"} {
				if strings.Contains(raw, bad) {
					t.Errorf("draws %q:\n%q", bad, raw)
				}
			}
			scr := ansi.Strip(raw)
			for _, s := range tc.shows {
				if !strings.Contains(scr, s) {
					t.Errorf("lacks %q:\n%s", s, scr)
				}
			}
		})
	}
}

// hubErr is an error a host answered.
type hubErr string

func (e hubErr) Error() string { return string(e) }
