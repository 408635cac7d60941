package tui

import (
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/keymap"
	"github.com/hooksup/hooksup/internal/present"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/themes"
	"github.com/hooksup/hooksup/verdictlog"
)

// The preview's sizes: the wide layout with every pane, and the height at which a terminal
// narrower than PreviewWidth stacks the panes.
const (
	PreviewWidth        = wideMinWidth
	PreviewHeight       = 18
	PreviewNarrowHeight = stackMinRows
)

// Preview draws the TUI in theme t for `hooksup themes`: a w×h frame made by the code that
// draws every frame of the TUI, from sample events (a session at work, its verdicts, a failed
// check, a subagent, a question waiting), with the verdicts pane focused; then a legend of what
// that frame cannot show at once (the other agent states, check results, a warning and an
// error, the line claude's exit leaves), each drawn by the function the TUI draws it with.
// The result is in full colour: write it through a colorprofile.Writer to fit the terminal.
func Preview(t themes.Theme, agent string, w, h int) string {
	st := NewStyles(t)
	m := previewModel(st, agent, w, h)
	defer m.io.close()
	return m.render() + "\n" + previewLegend(st, agent, w)
}

// previewBlockCap is the sample session's agent's own limit on stops blocked in a row.
const previewBlockCap = 8

// previewModel is the TUI's model after the sample events, at w×h. Claude's terminal is made
// at the size of its pane, so no resize is pending when the frame is drawn.
func previewModel(st Styles, agent string, w, h int) model {
	cols, rows := previewAgentSize(w, h)
	a := newAgentIO(cols, rows, "", nil, nil)
	a.term.Write(sampleScreen)
	km, _ := keymap.Resolve("", nil)
	m := newModel(sampleSession{}, a, st, newAgentKeyMap(km, agent), "ask", true, previewBlockCap)
	m.setAgent(agent)
	m.header.plain = agent
	m.w, m.h = w, h
	for _, ev := range sampleEvents() {
		m.event(eventMsg{ev: ev, counts: sampleCounts})
	}
	m.focus = paneVerdicts
	m.now = sampleNow
	return m
}

// previewAgentSize is the size of claude's pane in the preview's frame of w×h, where the
// banner's height depends on the sample question.
func previewAgentSize(w, h int) (cols, rows int) {
	sized := model{w: w, h: h, keys: defaultKeyMap()}
	for _, ev := range sampleEvents() {
		if q, ok := ev.(session.QuestionAsked); ok {
			sized.questions = append(sized.questions, q.Question)
		}
	}
	return computeLayout(w, h, false, sized.bannerRowsFor(computeLayout(w, h, false, 0).kind)).agentInner()
}

// previewLegend shows, one labelled line each, the agent states, the check results, hooksup's
// own warnings and errors and the exit line, cut to w.
func previewLegend(st Styles, agent string, w int) string {
	label := func(s string) string { return st.Muted.Render(" " + s + strings.Repeat(" ", max(0, 8-len(s)))) }
	var states []string
	for _, s := range []session.AgentState{session.StateWorking, session.StateWaiting, session.StatePermission,
		session.StateInterrupted, session.StateExited} {
		states = append(states, stateLabel(st, s, false))
	}
	var checks []string
	for _, r := range sampleChecks() {
		p := checksPane{name: r.Name, command: r.Command, started: sampleNow.Add(-1200 * time.Millisecond)}
		if r.Duration == 0 {
			p.running = true
		} else {
			p.result = &r
		}
		checks = append(checks, p.head(st, sampleNow))
	}
	var notices []string
	for _, n := range []session.Notice{{Level: session.NoticeWarn, Text: "a warning"}, {Level: session.NoticeError, Text: "an error of hooksup's"}} {
		notices = append(notices, noticeLine(st, n, ansi.StringWidth(n.Text)+4))
	}
	lines := []string{
		label("agent") + strings.Join(states, "  "),
		label("checks") + strings.Join(checks, "   "),
		label("notices") + strings.Join(notices, " "),
		label("exit") + exitLine(st, present.AgentName(agent), 0, nil, true, 55),
	}
	for i, l := range lines {
		lines[i] = fit(l, w)
	}
	return strings.Join(lines, "\n")
}

// The sample session.
var (
	sampleStart = time.Date(2026, 1, 15, 14, 2, 0, 0, time.Local)
	sampleNow   = sampleStart.Add(40 * time.Second)

	sampleCounts = session.Counts{SessionID: sampleSessionID, Verdicts: 4, Turn: 3, TurnContinuations: 1,
		MaxContinuations: 3, SessionContinuations: 2, SubagentContinuations: 1, MaxSteers: 3}

	// sampleScreen is what claude's pane shows.
	sampleScreen = []byte(strings.ReplaceAll(`> fix the failing parse test

`+"\x1b[1m"+`⏺`+"\x1b[m"+` Bash(go test ./parse/)
  ⎿  --- FAIL: TestParse (0.00s)
       parse_test.go:12: want 2, got 3

`+"\x1b[1m"+`⏺`+"\x1b[m"+` parse.go counted the trailing comma as a field.
  Fixed: fields stop at the last comma.
`, "\n", "\r\n"))
)

const (
	sampleSessionID = "4312ba3d-56cd-4b9f-8c76-66e8ea524739"
	sampleAgent     = "a1b2c3d4e5"
)

// sampleSession stands in for the supervisor: Preview only reads its counts.
type sampleSession struct{}

func (sampleSession) Events() <-chan session.Event              { return nil }
func (sampleSession) Resolve(int, hooks.Decision, string) error { return nil }
func (sampleSession) Interrupt()                                {}
func (sampleSession) Counts() session.Counts                    { return sampleCounts }
func (sampleSession) TerminalStatus(session.TerminalStatus)     {}
func (sampleSession) Typed(time.Time)                           {}

// sampleChecks are a check still running, one that passed and one that failed.
func sampleChecks() []session.CheckResult {
	return []session.CheckResult{
		{Name: "lint", Command: "golangci-lint run"},
		{Name: "vet", Command: "go vet ./...", Duration: 412 * time.Millisecond},
		{Name: "tests", Command: "go test ./...", ExitCode: 1, Duration: 2140 * time.Millisecond},
	}
}

// sampleEvents is a short session as the supervisor publishes it: claude at work, a subagent
// steered and done, three verdicts, the checks failing and a question waiting for the person.
func sampleEvents() []session.Event {
	at := func(s int) session.At { return session.At{Time: sampleStart.Add(time.Duration(s) * time.Second)} }
	input := &hooks.Input{HookEventName: hooks.SessionStart, SessionID: sampleSessionID, Model: "sonnet-4-5"}
	failed := session.CheckResult{Name: "tests", Command: "go test ./...", ExitCode: 1, Duration: 2140 * time.Millisecond,
		Output: []byte("--- FAIL: TestParse (0.00s)\n    parse_test.go:12: want 2, got 3\nFAIL\n")}
	reason := "The check \"tests\" failed (exit 1).\n--- FAIL: TestParse (0.00s)"
	return []session.Event{
		session.HookReceived{At: at(0), Input: input},
		session.StateChanged{At: at(1), State: session.StateWorking},
		session.VerdictDecided{At: at(4), Verdict: verdictlog.Verdict{Time: at(4).Time, Event: hooks.Stop,
			Decision: hooks.Allow, Source: verdictlog.CheckSource("tests"), MaxContinuations: 3}},
		session.VerdictDecided{At: at(9), Verdict: verdictlog.Verdict{Time: at(9).Time, Event: hooks.Stop,
			Decision: hooks.Halt, Source: verdictlog.SourceManual, Reason: "stopped by you", MaxContinuations: 3}},
		session.SubagentsChanged{At: at(12), Agents: []session.Subagent{
			{ID: "f0e1d2c3b4", Type: "Explore", State: session.SubDone},
			{ID: sampleAgent, Type: "general-purpose", State: session.SubSteered, Steers: 1}}},
		session.VerdictDecided{At: at(14), Verdict: verdictlog.Verdict{Time: at(14).Time, Event: hooks.SubagentStop,
			AgentID: sampleAgent, AgentType: "general-purpose", Decision: hooks.Block, Source: verdictlog.CheckSource("review"),
			Reason: "cite the files you read", Steers: 1, MaxSteers: 3}},
		session.StateChanged{At: at(30), State: session.StateStopping},
		session.CheckStarted{At: at(31), Run: 7, Name: failed.Name, Command: failed.Command},
		session.CheckOutput{At: at(33), Run: 7, Name: failed.Name, Chunk: failed.Output},
		session.CheckFinished{At: at(33), Run: 7, Result: failed},
		session.QuestionAsked{At: at(33), Question: session.Question{ID: 1, Event: hooks.Stop, Proposal: hooks.Block,
			Source: verdictlog.CheckSource("tests"), Reason: reason, Asked: at(33).Time, Deadline: at(33).Time.Add(5 * time.Minute)}},
	}
}
