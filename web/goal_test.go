package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/hub"
	"github.com/hooksup/hooksup/internal/pushtest"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/verdictlog"
)

// goalVerdict is a VerdictDecided of a main agent's stop in goal mode, at turn, ended end.
func goalVerdict(t *testing.T, turn int, end verdictlog.GoalEnd) hub.Event {
	t.Helper()
	v := session.VerdictDecided{Verdict: verdictlog.Verdict{Event: "Stop", Decision: "allow",
		Reason: "FAIL: TestSecret", Goal: &verdictlog.Goal{Text: "ship the secret release", Turn: turn, MaxTurns: 3, End: end,
			Budget: map[bool]string{true: verdictlog.BudgetTurns}[end == verdictlog.GoalBudget]}}}
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return hub.Event{Type: hub.EventVerdictDecided, Time: time.Now(), Data: data}
}

// A goal's end that a person wants to hear of is pushed: reached, and out of budget, each once,
// as kind done naming the end, and nothing of the goal's text or the reason; a goal turn that
// goes on and a goal halted (by the person) are not pushed.
func TestAGoalsEndIsPushed(t *testing.T) {
	f := newFakeHub()
	ts, _ := newTestServerWith(t, f, Options{})
	svc := newPushService(t)
	sub := newSubscriber(t, svc, "/a")
	subscribe(t, ts, testToken, sub)
	f.events <- goalVerdict(t, 1, "")
	f.events <- goalVerdict(t, 2, verdictlog.GoalHalted)
	f.events <- goalVerdict(t, 2, verdictlog.GoalReached)
	f.events <- goalVerdict(t, 2, verdictlog.GoalReached) // a stream followed again replays it
	f.events <- goalVerdict(t, 3, verdictlog.GoalBudget)
	pushes, ok := svc.Wait(5*time.Second, func(ps []pushtest.Push) bool { return len(ps) >= 2 })
	if !ok {
		t.Fatalf("pushes within 5 s: %d, want 2", len(pushes))
	}
	var got []string
	for _, p := range pushes {
		plain, err := sub.Decrypt(p.Body)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(plain))
	}
	// Both ends, in either order (each push is sent on its own).
	want := map[string]bool{`{"id":"h1","kind":"done","goal":"reached"}`: true, `{"id":"h1","kind":"done","goal":"budget"}`: true}
	for _, g := range got {
		if !want[g] {
			t.Errorf("payload %s, want one of %v", g, want)
		}
		delete(want, g)
		if strings.Contains(g, "secret") {
			t.Errorf("the goal's text or reason in a push: %s", g)
		}
	}
	if len(want) != 0 {
		t.Errorf("not pushed: %v (got %q)", want, got)
	}
	// One more end makes a third push: the halted goal and the replay made none.
	f.events <- goalVerdict(t, 4, verdictlog.GoalNoProgress)
	if ps, ok := svc.Wait(5*time.Second, func(ps []pushtest.Push) bool { return len(ps) >= 3 }); !ok || len(ps) != 3 {
		t.Fatalf("pushes: %d, want 3", len(ps))
	}
}

// ResumeGoal records a goal resumed, on the fake's sessions.
func (f *fakeHub) ResumeGoal(l hub.Live, b session.GoalBudget) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.resolved = append(f.resolved, fmt.Sprintf("%s goal resume %d %v %d", hostID(l), b.MaxTurns, b.MaxTime, b.MaxTokens))
	return nil
}

// The goal's resume from the page: its card's words say the goal and whether it resumes; POST
// /api/sessions/{id}/goal/resume needs the credential and the page's origin, refuses a body that
// gives no larger budget and a session whose goal does not resume, and resumes one out of budget.
func TestGoalResumeAPI(t *testing.T) {
	f := newFakeHub()
	f.live[1].Snapshot.Goal = &verdictlog.Goal{Text: "<b>ship</b>", Turn: 2, MaxTurns: 2, End: verdictlog.GoalBudget, Budget: verdictlog.BudgetTurns,
		Done: &verdictlog.CheckRecord{Name: "done", ExitCode: 1, Output: "\x1b[31mFAIL TestLogin\x1b[0m\nmore"}}
	f.live[0].Snapshot.Goal = &verdictlog.Goal{Text: "under way", Turn: 1, MaxTurns: 20, ElapsedMS: 4 * 60_000, MaxTimeMS: 3 * 3600_000}
	ts, _ := newTestServerWith(t, f, Options{})
	_, body := do(t, ts, req{method: "GET", path: "/api/sessions", header: auth(testToken)})
	var ss []Session
	if err := json.Unmarshal([]byte(body), &ss); err != nil {
		t.Fatal(err)
	}
	if w := ss[0].GoalWords; w == nil || *w != (GoalWords{Text: "under way", Turn: "goal turn 1/20", Time: "4m/3h"}) {
		t.Errorf("a goal under way: %+v", w)
	}
	if w := ss[1].GoalWords; w == nil || *w != (GoalWords{Text: "<b>ship</b>", End: "goal ended: its budget of turns (2) ran out",
		Failed: "done exit 1: FAIL TestLogin", Resumable: true}) {
		t.Errorf("a goal out of budget: %+v", w)
	}
	resume := func(id, body string, header map[string]string) (int, string) {
		resp, got := do(t, ts, req{method: "POST", path: "/api/sessions/" + id + "/goal/resume", body: body, header: header})
		return resp.StatusCode, got
	}
	for _, c := range []struct {
		id, body string
		header   map[string]string
		status   int
		says     string
	}{
		{"h2", `{"max_turns":5}`, nil, http.StatusUnauthorized, ""},
		{"h2", `{"max_turns":5}`, map[string]string{"Authorization": "Bearer " + testToken, "Origin": "http://evil.example"}, http.StatusForbidden, "origin"},
		{"h2", `{}`, auth(testToken), http.StatusBadRequest, "larger budget"},
		{"h2", `{"max_turns":-1}`, auth(testToken), http.StatusBadRequest, "more than 0"},
		{"h2", `{"max_time":"soon"}`, auth(testToken), http.StatusBadRequest, "not a duration"},
		{"h2", `{"max_turns":5,"command":"rm"}`, auth(testToken), http.StatusBadRequest, "max_turns"},
		{"h1", `{"max_turns":5}`, auth(testToken), http.StatusConflict, "is under way"},
		{"nope", `{"max_turns":5}`, auth(testToken), http.StatusNotFound, "no session"},
	} {
		if status, got := resume(c.id, c.body, c.header); status != c.status || !strings.Contains(got, c.says) {
			t.Errorf("%s %s: %d %s, want %d naming %q", c.id, c.body, status, got, c.status, c.says)
		}
	}
	if a := f.answers(); len(a) != 0 {
		t.Fatalf("resumed on a refused request: %q", a)
	}
	if status, got := resume("bbbbbbbb-2222", `{"max_turns":5,"max_time":"5h"}`, auth(testToken)); status != 200 || !strings.Contains(got, "resumed the goal of session bbbbbbbb") {
		t.Fatalf("resume: %d %s", status, got)
	}
	if a := f.answers(); len(a) != 1 || a[0] != "h2 goal resume 5 5h0m0s 0" {
		t.Fatalf("resumed: %q", a)
	}
}
