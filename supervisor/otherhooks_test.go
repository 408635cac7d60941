package supervisor

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/transcript"
	"github.com/hooksup/hooksup/verdictlog"
)

const ownHook = "/opt/bin/hooksup-hook Stop"

// summaryLine is a stop_hook_summary as claude 2.1.330 writes it, with hooksup's own hook among
// the hooks that ran.
func summaryLine(at time.Time, inv, agentID string, infos []string, errs []string) []byte {
	var hookInfos []map[string]any
	for _, c := range append(infos, ownHook) {
		hookInfos = append(hookInfos, map[string]any{"command": c, "durationMs": 40})
	}
	line := map[string]any{"type": "system", "subtype": "stop_hook_summary", "hookInfos": hookInfos, "hookErrors": errs,
		"preventedContinuation": false, "stopReason": "", "toolUseID": inv, "timestamp": at.UTC().Format("2006-01-02T15:04:05.000Z")}
	if agentID != "" {
		line["agentId"] = agentID
	}
	b, _ := json.Marshal(line)
	return b
}

func parse(t *testing.T, lines ...[]byte) []transcript.Record {
	t.Helper()
	p := transcript.NewParser(transcript.Options{OwnHook: transcript.HookProgram("/opt/bin/hooksup-hook")})
	var out []transcript.Record
	for _, l := range lines {
		out = append(out, p.Feed(l))
	}
	return out
}

func TestOtherHooksAreTiedToTheirStop(t *testing.T) {
	t0 := time.Now().Truncate(time.Second)
	h := newStopHooks()
	v1 := verdictlog.Verdict{Time: t0, SessionID: "s", Event: hooks.Stop, Turn: 1, Stop: 1, Decision: hooks.Allow, Source: verdictlog.SourceChecks, MaxContinuations: 3}
	v2 := verdictlog.Verdict{Time: t0.Add(2 * time.Second), SessionID: "s", Event: hooks.Stop, Turn: 1, Stop: 2, Decision: hooks.Allow, Source: verdictlog.SourceChecks}
	recs := parse(t,
		summaryLine(t0.Add(100*time.Millisecond), "i1", "", []string{"/home/u/block.sh"}, []string{"[/home/u/block.sh]: update the changelog\n"}),
		summaryLine(t0.Add(2100*time.Millisecond), "i2", "", []string{"/home/u/block.sh"}, nil),
	)
	// The tail read both lines late, after both verdicts: each goes to its own stop.
	h.verdict(v1)
	h.verdict(v2)
	e1, latest, ok := h.summary("", recs[0], t0.Add(3*time.Second))
	if !ok || latest || e1.Stop != 1 {
		t.Fatalf("first summary: ok %v latest %v entry %+v", ok, latest, e1)
	}
	want := verdictlog.OtherHook{Command: "/home/u/block.sh", Outcome: hooks.OutcomeBlocked, Blocked: true, Reason: "update the changelog", DurationMS: 40}
	if len(e1.OtherHooks) != 1 || e1.OtherHooks[0] != want {
		t.Fatalf("first summary's hooks %+v, want %+v", e1.OtherHooks, want)
	}
	if e1.Event != verdictlog.EventOtherHooks || e1.Decision != hooks.Block || e1.Source != verdictlog.SourceOtherHooks || e1.SessionID != "s" || e1.Turn != 1 {
		t.Fatalf("entry %+v", e1)
	}
	e2, latest, ok := h.summary("", recs[1], t0.Add(3*time.Second))
	if !ok || !latest || e2.Stop != 2 || e2.Decision != hooks.Allow || e2.OtherHooks[0].Blocked {
		t.Fatalf("second summary: ok %v latest %v entry %+v", ok, latest, e2)
	}
	// A stop is told once.
	if _, _, ok := h.summary("", recs[1], t0.Add(3*time.Second)); ok {
		t.Fatal("the same stop was told twice")
	}
}

func TestOtherHooksNeedAnotherHookAndAVerdict(t *testing.T) {
	t0 := time.Now().Truncate(time.Second)
	h := newStopHooks()
	onlyOurs := parse(t, summaryLine(t0, "i1", "", nil, nil))[0]
	if len(onlyOurs.Hooks) != 0 {
		t.Fatalf("hooksup's own hook kept: %+v", onlyOurs.Hooks)
	}
	other := parse(t, summaryLine(t0.Add(time.Second), "i2", "", []string{"a.sh"}, nil))[0]
	if _, _, ok := h.summary("", other, t0); ok {
		t.Fatal("tied to a stop hooksup never decided")
	}
	h.verdict(verdictlog.Verdict{Time: t0.Add(5 * time.Second), Event: hooks.Stop, Stop: 1})
	if _, _, ok := h.summary("", other, t0); ok {
		t.Fatal("tied to a stop decided after the summary was written")
	}
}

func TestOtherSubagentHooksGoToTheirAgent(t *testing.T) {
	t0 := time.Now().Truncate(time.Second)
	h := newStopHooks()
	h.verdict(verdictlog.Verdict{Time: t0, Event: hooks.SubagentStop, AgentID: "a1", Stop: 1})
	h.verdict(verdictlog.Verdict{Time: t0, Event: hooks.SubagentStop, AgentID: "a2", Stop: 2})
	h.verdict(verdictlog.Verdict{Time: t0, Event: hooks.Stop, Stop: 3})
	rec := parse(t, summaryLine(t0.Add(time.Second), "i1", "a1", []string{"sub.sh"}, []string{"[sub.sh]: cite sources"}))[0]
	e, _, ok := h.summary("a1", rec, t0.Add(time.Second))
	if !ok || e.Stop != 1 || e.AgentID != "a1" || e.Decision != hooks.Block {
		t.Fatalf("ok %v entry %+v", ok, e)
	}
}

// A session running subagent after subagent keeps the verdicts of the latest ones only, and
// still ties a summary to the stop it belongs to.
func TestOtherHooksKeepRecentAgentsOnly(t *testing.T) {
	t0 := time.Now().Truncate(time.Second)
	h := newStopHooks()
	const n = 10 * maxRecentAgents
	for i := 1; i <= n; i++ {
		h.verdict(verdictlog.Verdict{Time: t0, Event: hooks.SubagentStop, AgentID: fmt.Sprintf("a%d", i), Stop: 2 * i})
		h.verdict(verdictlog.Verdict{Time: t0, Event: hooks.Stop, Stop: 2*i + 1})
	}
	if len(h.recent) > maxRecentAgents || len(h.agents) != len(h.recent) {
		t.Errorf("%d agents remembered (%d in order), want at most %d", len(h.recent), len(h.agents), maxRecentAgents)
	}
	if len(h.recent[""]) != maxRecentStops {
		t.Errorf("the main agent, decided last, has %d verdicts remembered, want %d", len(h.recent[""]), maxRecentStops)
	}
	last := fmt.Sprintf("a%d", n)
	rec := parse(t, summaryLine(t0.Add(time.Second), "i1", last, []string{"sub.sh"}, nil))[0]
	if e, _, ok := h.summary(last, rec, t0.Add(time.Second)); !ok || e.Stop != 2*n {
		t.Fatalf("the latest subagent's summary: ok %v entry %+v", ok, e)
	}
	for i := 1; i < n; i++ {
		rec := parse(t, summaryLine(t0.Add(time.Second), "i1", fmt.Sprintf("a%d", i), []string{"sub.sh"}, nil))[0]
		h.summary(fmt.Sprintf("a%d", i), rec, t0.Add(time.Second))
	}
	if len(h.told) > maxRecentAgents*maxRecentStops {
		t.Errorf("%d stops marked told, want at most %d", len(h.told), maxRecentAgents*maxRecentStops)
	}
}

func TestOtherHooksSayPlainText(t *testing.T) {
	o := otherHook(session.HookOutcome{Command: "/home/u/x.sh", Outcome: hooks.OutcomeBlocked, ExitCode: 2,
		Message: "\x1b[31mFAILED\x1b[0m: update the changelog\n"})
	if o.Reason != "FAILED: update the changelog" || o.ExitCode == nil || *o.ExitCode != 2 {
		t.Fatalf("%+v", o)
	}
}

func TestAnotherHooksBlockMeansClaudeWorksOn(t *testing.T) {
	var got []session.StateChanged
	st := newStateTracker(func(e session.Event) { got = append(got, e.(session.StateChanged)) }, nil)
	st.verdict(verdictlog.Verdict{Event: hooks.Stop, Decision: hooks.Allow, Source: verdictlog.SourceChecks})
	st.otherHookBlocked()
	if s := st.get(); s != session.StateWorking {
		t.Fatalf("state %s after another hook blocked, want working", s)
	}
	st.set(session.StatePermission, "PermissionRequest Bash", fromHook)
	st.otherHookBlocked()
	if s := st.get(); s != session.StatePermission {
		t.Fatalf("a late block hid a newer state: %s", s)
	}
	if len(got) != 3 || got[1].Reason != "Stop blocked by another hook" {
		t.Fatalf("changes %+v", got)
	}
}
