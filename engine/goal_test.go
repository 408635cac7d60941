package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/verdictlog"
)

// Two outputs of a failure that differ only in times and counts are the same failure.
func TestGoalNormalizeOutput(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"--- FAIL: TestAdd (0.01s)\nFAIL\tpkg\t0.123s", "--- FAIL: TestAdd (1.52s)\nFAIL\tpkg\t12ms", true},
		{"3 failed, 12 passed in 4.20s", "3 failed, 13 passed in 0.9s", true},
		{"2025-03-04T10:11:12Z error: boom", "2025-03-05T01:02:03Z error: boom", true},
		{"took 1m2.5s", "took 750µs", true},
		{"goroutine 17 [running]:\n0xc000123abc", "goroutine 9 [running]:\n0xc0004f00", true},
		{"trailing spaces  \n\n", "trailing spaces", true},
		{"--- FAIL: TestAdd", "--- FAIL: TestSub", false},
		{"expected sum, got nothing", "expected sum, got something", false},
	} {
		if got := normalizeOutput(tc.a) == normalizeOutput(tc.b); got != tc.same {
			t.Errorf("%q vs %q: same %v, want %v (%q, %q)", tc.a, tc.b, got, tc.same, normalizeOutput(tc.a), normalizeOutput(tc.b))
		}
	}
}

// goalEngine is an engine in goal mode, auto, with checks.
func goalEngine(t *testing.T, g Goal, checks ...config.Check) (*Engine, *recorder) {
	t.Helper()
	r := &recorder{}
	if g.MaxTurns == 0 {
		g.GoalConfig = config.Defaults().Goal
		g.MaxTurns = config.DefaultGoalTurns
	}
	if g.DoneTimeout.D == 0 {
		g.DoneTimeout = config.Defaults().Goal.DoneTimeout
	}
	return New(Options{Config: cfgWith(config.ModeAuto, checks...), ProjectDir: t.TempDir(), Emit: r.emit, Record: r.record, Goal: &g}), r
}

// counting is a done command that fails until its nth run, printing which run it is.
func counting(t *testing.T, n int) string {
	f := filepath.Join(t.TempDir(), "runs")
	return fmt.Sprintf(`echo x >> %[1]s; runs=$(wc -l < %[1]s); echo "run $runs: 2 of 5 scenarios fail"; test $runs -ge %[2]d`, f, n)
}

// The done command decides once the checks pass: not reached, the agent continues with the goal
// restated, the done command's tail and the turn; reached, it may stop.
func TestGoalDoneReachedOnThirdRun(t *testing.T) {
	g := Goal{Text: "make the e2e suite pass\nall of it", GoalConfig: config.Defaults().Goal}
	g.Done = counting(t, 3)
	e, r := goalEngine(t, g, check("ok", "true"))
	var got []hooks.Answer
	for range 3 {
		got = append(got, e.Decide(context.Background(), stopIn(len(got) > 0)))
	}
	if got[0].Decision != hooks.Block || got[1].Decision != hooks.Block || got[2].Decision != hooks.Allow {
		t.Fatalf("answers %+v", got)
	}
	for i, a := range got[:2] {
		for _, want := range []string{fmt.Sprintf("turn %d of 20", i+1), "> make the e2e suite pass\n> all of it",
			fmt.Sprintf("run %d: 2 of 5 scenarios fail", i+1), "not instructions from hooksup", "failed (exit 1)"} {
			if !strings.Contains(a.Reason, want) {
				t.Errorf("reason %d lacks %q:\n%s", i, want, a.Reason)
			}
		}
	}
	vs, _ := r.waitVerdicts(t, 3)
	for i, v := range vs {
		if v.Goal == nil || v.Source != verdictlog.SourceGoal || v.Goal.Done == nil || v.Goal.MaxTurns != 20 || !strings.HasPrefix(v.Goal.Text, "make the e2e") {
			t.Fatalf("verdict %d: %+v goal %+v", i, v, v.Goal)
		}
	}
	if vs[0].Goal.Turn != 1 || vs[1].Goal.Turn != 2 || vs[0].Goal.End != "" || vs[2].Goal.End != verdictlog.GoalReached || vs[2].Goal.Done.ExitCode != 0 {
		t.Fatalf("goals %+v %+v %+v", vs[0].Goal, vs[1].Goal, vs[2].Goal)
	}
	// The goal is over: a later stop (a new prompt in a pane) is an ordinary one.
	e.Decide(context.Background(), stopIn(false))
	if vs, _ = r.waitVerdicts(t, 4); vs[3].Goal != nil || vs[3].Source != verdictlog.SourceChecks {
		t.Fatalf("after the goal: %+v", vs[3])
	}
}

// A failing check is a goal turn as any forced continuation: its reason, with the goal and the
// turn after it; max_continuations does not cut the goal short, its budget of turns does, and
// the end says what is left undone.
func TestGoalTurnBudget(t *testing.T) {
	f := filepath.Join(t.TempDir(), "n")
	// A different failure at each stop: no progress has nothing to say.
	failing := check("tests", fmt.Sprintf(`echo x >> %[1]s; echo "--- FAIL: Test$(wc -l < %[1]s | tr 0-9 a-j)"; exit 1`, f))
	g := Goal{Text: "fix the tests", GoalConfig: config.Defaults().Goal}
	g.MaxTurns = 4
	e, r := goalEngine(t, g, failing)
	e.cfg.Stop.MaxContinuations = 1
	var got []hooks.Answer
	for range 5 {
		got = append(got, e.Decide(context.Background(), stopIn(len(got) > 0)))
	}
	for i, a := range got[:4] {
		if a.Decision != hooks.Block || !strings.Contains(a.Reason, `The check "tests"`) || !strings.Contains(a.Reason, fmt.Sprintf("turn %d of 4", i+1)) ||
			!strings.Contains(a.Reason, "> fix the tests") {
			t.Fatalf("answer %d: %+v", i, a)
		}
	}
	if got[4].Decision != hooks.Allow {
		t.Fatalf("after 4 turns: %+v", got[4])
	}
	vs, _ := r.waitVerdicts(t, 5)
	end := vs[4].Goal
	if vs[4].Source != verdictlog.SourceGoal || end == nil || end.End != verdictlog.GoalBudget || end.Budget != verdictlog.BudgetTurns || end.Turn != 4 ||
		!strings.Contains(end.Undone, "the check tests still fails") {
		t.Fatalf("end %+v %+v", vs[4], end)
	}
	if vs[3].Source != verdictlog.CheckSource("tests") || vs[3].Goal.Turn != 4 {
		t.Fatalf("turn 4: %+v %+v", vs[3], vs[3].Goal)
	}
}

// The same failure, times and counts aside, three stops in a row ends the goal: no progress,
// naming what repeated. The done command's alike.
func TestGoalNoProgress(t *testing.T) {
	f := filepath.Join(t.TempDir(), "n")
	same := check("tests", fmt.Sprintf(`echo x >> %s; echo "--- FAIL: TestAdd ($(date +%%N)s)"; exit 1`, f))
	e, r := goalEngine(t, Goal{Text: "fix it"}, same)
	for i := range 3 {
		a := e.Decide(context.Background(), stopIn(i > 0))
		if want := map[bool]hooks.Decision{true: hooks.Allow, false: hooks.Block}[i == 2]; a.Decision != want {
			t.Fatalf("stop %d: %+v", i+1, a)
		}
	}
	vs, _ := r.waitVerdicts(t, 3)
	if g := vs[2].Goal; g.End != verdictlog.GoalNoProgress || !strings.Contains(g.Repeated, "the check tests") || !strings.Contains(g.Repeated, "3 stops in a row") {
		t.Fatalf("end %+v", g)
	}

	g := Goal{Text: "ship it", GoalConfig: config.Defaults().Goal}
	g.Done = `echo "1 of 3 scenarios fail after 0.5s"; exit 1`
	e, r = goalEngine(t, g)
	for i := range 3 {
		e.Decide(context.Background(), stopIn(i > 0))
	}
	vs, _ = r.waitVerdicts(t, 3)
	if g := vs[2].Goal; g.End != verdictlog.GoalNoProgress || !strings.Contains(g.Repeated, "the done command") || vs[2].Decision != hooks.Allow {
		t.Fatalf("end %+v", g)
	}
}

// The time and token budgets end a goal at the first stop past them.
func TestGoalTimeAndTokenBudgets(t *testing.T) {
	var mu sync.Mutex
	clock := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	now := func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	advance := func(d time.Duration) { mu.Lock(); clock = clock.Add(d); mu.Unlock() }
	g := Goal{Text: "t", GoalConfig: config.Defaults().Goal}
	g.Done, g.MaxTime = "date +%N; exit 1", config.Duration{D: time.Hour}
	r := &recorder{}
	e := New(Options{Config: cfgWith(config.ModeAuto), ProjectDir: t.TempDir(), Emit: r.emit, Record: r.record, Goal: &g, Now: now})
	if a := e.Decide(context.Background(), stopIn(false)); a.Decision != hooks.Block {
		t.Fatalf("%+v", a)
	}
	advance(61 * time.Minute)
	if a := e.Decide(context.Background(), stopIn(true)); a.Decision != hooks.Allow {
		t.Fatalf("%+v", a)
	}
	vs, _ := r.waitVerdicts(t, 2)
	if end := vs[1].Goal; end.End != verdictlog.GoalBudget || end.Budget != verdictlog.BudgetTime || end.MaxTimeMS != 3600000 || end.ElapsedMS < 3600000 ||
		!strings.Contains(end.Undone, "the done command still fails") {
		t.Fatalf("end %+v", end)
	}

	g.MaxTime, g.MaxTokens = config.Duration{}, 1000
	var tokens int64 = 400
	r = &recorder{}
	e = New(Options{Config: cfgWith(config.ModeAuto), ProjectDir: t.TempDir(), Emit: r.emit, Record: r.record, Goal: &g,
		Transcript: func(context.Context, *hooks.Input) *verdictlog.Observation {
			mu.Lock()
			defer mu.Unlock()
			return &verdictlog.Observation{InputTokens: tokens, CacheRead: tokens, OutputTokens: 10}
		}})
	e.Decide(context.Background(), stopIn(false))
	mu.Lock()
	tokens = 600
	mu.Unlock()
	e.Decide(context.Background(), stopIn(true))
	vs, _ = r.waitVerdicts(t, 2)
	if vs[0].Decision != hooks.Block || vs[0].Goal.Tokens != 810 || vs[1].Decision != hooks.Allow || vs[1].Goal.Budget != verdictlog.BudgetTokens || vs[1].Goal.Tokens != 1210 {
		t.Fatalf("%+v %+v", vs[0].Goal, vs[1].Goal)
	}
}

// Escape ends the goal at once: halted.
func TestGoalEscapeHalts(t *testing.T) {
	g := Goal{Text: "t", GoalConfig: config.Defaults().Goal}
	g.Done = "exit 1"
	e, r := goalEngine(t, g)
	e.Decide(context.Background(), stopIn(false))
	e.Interrupt()
	if a := e.Decide(context.Background(), stopIn(true)); a.Decision != hooks.Allow {
		t.Fatalf("%+v", a)
	}
	vs, _ := r.waitVerdicts(t, 3)
	last := vs[len(vs)-1]
	if last.Source != verdictlog.SourceEscape || last.Goal == nil || last.Goal.End != verdictlog.GoalHalted {
		t.Fatalf("%+v %+v", last, last.Goal)
	}
}

// In manual mode the person has the say on a goal's stop: letting it stop where the done command
// passed is the goal reached; letting it stop where it failed is the goal halted.
func TestGoalManualMode(t *testing.T) {
	f := filepath.Join(t.TempDir(), "pass")
	for _, tc := range []struct {
		passes bool
		want   verdictlog.GoalEnd
	}{{true, verdictlog.GoalReached}, {false, verdictlog.GoalHalted}} {
		e, r, asked := askEngine(t, config.ModeManual, time.Minute)
		g := Goal{Text: "t", GoalConfig: config.Defaults().Goal}
		g.Done = "test -f " + f
		e.goal = &goalRun{Goal: g, started: time.Now()}
		if tc.passes {
			if err := os.WriteFile(f, nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		ans := decideAsync(e, stopIn(false))
		e.Resolve((<-asked).ID, hooks.Allow, "")
		<-ans
		vs, _ := r.waitVerdicts(t, 1)
		if vs[0].Goal == nil || vs[0].Goal.End != tc.want {
			t.Errorf("done passes %v: %+v", tc.passes, vs[0].Goal)
		}
		os.Remove(f)
	}
}

// The agent's own cap ends a turn hooksup had it continue: the goal ends capped, never reached,
// its last turn not counted, logged as such; later stops are ordinary ones.
func TestGoalCapped(t *testing.T) {
	f := filepath.Join(t.TempDir(), "n")
	e, r := goalEngine(t, Goal{Text: "ship it"}, check("tests", fmt.Sprintf(`echo x >> %[1]s; echo "--- FAIL: Test$(wc -l < %[1]s | tr 0-9 a-j)"; exit 1`, f)))
	for i := range 3 {
		if a := e.Decide(context.Background(), stopIn(i > 0)); a.Decision != hooks.Block {
			t.Fatalf("stop %d: %+v", i, a)
		}
	}
	e.Capped("Claude Code")
	vs, _ := r.waitVerdicts(t, 4)
	c := vs[3]
	if c.Event != verdictlog.EventCapped || c.Decision != hooks.Allow || c.Source != verdictlog.SourceAgentCap || c.Goal == nil ||
		c.Goal.End != verdictlog.GoalCapped || c.Goal.Turn != 2 || !strings.Contains(c.Goal.Undone, "the check tests still fails") {
		t.Fatalf("capped %+v goal %+v", c, c.Goal)
	}
	rec, _ := e.GoalState()
	if rec.End != verdictlog.GoalCapped || !strings.Contains(GoalWhy(&rec, rec.End), "Claude Code's own cap on blocked stops ended its turn") {
		t.Fatalf("state %+v: %s", rec, GoalWhy(&rec, rec.End))
	}
	e.Capped("Claude Code") // once ended, a cap says nothing more
	if vs, _ := r.snapshot(); len(vs) != 4 {
		t.Fatalf("%d verdicts", len(vs))
	}
}

// An agent that writes its cap's end nowhere hooksup reads exits after one block more than its
// cap lets through: the goal ends capped at that exit. Within the cap, or with no cap, an exit
// after a block is no cap's doing.
func TestGoalCappedAtExit(t *testing.T) {
	for _, tc := range []struct {
		conts  int
		capped bool
	}{{2, true}, {3, false}, {0, false}} {
		f := filepath.Join(t.TempDir(), "n")
		g := Goal{Text: "ship it", GoalConfig: config.Defaults().Goal}
		g.Done = fmt.Sprintf(`echo x >> %[1]s; echo "run $(wc -l < %[1]s | tr 0-9 a-j)"; exit 1`, f)
		e, r := goalEngine(t, g, check("ok", "true"))
		for i := range 3 {
			if a := e.Decide(context.Background(), stopIn(i > 0)); a.Decision != hooks.Block {
				t.Fatalf("stop %d: %+v", i, a)
			}
		}
		e.CappedAtExit("Qwen Code", tc.conts)
		rec, _ := e.GoalState()
		if got := rec.End == verdictlog.GoalCapped; got != tc.capped {
			t.Fatalf("cap of %d continuations, 3 blocks: capped %v, want %v (%+v)", tc.conts, got, tc.capped, rec)
		}
		if !tc.capped {
			continue
		}
		vs, _ := r.waitVerdicts(t, 4)
		if c := vs[3]; c.Event != verdictlog.EventCapped || c.Goal.Turn != 2 || c.Goal.CappedBy != "Qwen Code" {
			t.Fatalf("capped %+v goal %+v", c, c.Goal)
		}
	}
}

// In the TUI, an agent whose cap's end hooksup cannot read ends a turn whose stop was blocked one
// past what its cap honours: the goal goes on, the cap's end logged (never a pass) and the goal's
// next turn handed to the front end to type. Within the cap, with no cap, or headless, a block
// is no cap's end.
func TestGoalCappedByCount(t *testing.T) {
	for _, tc := range []struct {
		conts       int
		interactive bool
		capped      bool
	}{{2, true, true}, {3, true, false}, {0, true, false}, {2, false, false}} {
		f := filepath.Join(t.TempDir(), "n")
		g := Goal{Text: "ship it", GoalConfig: config.Defaults().Goal}
		g.Done = fmt.Sprintf(`echo x >> %[1]s; echo "run $(wc -l < %[1]s | tr 0-9 a-j)"; exit 1`, f)
		e, r := goalEngine(t, g, check("ok", "true"))
		e.interactive = tc.interactive
		for i := range 3 {
			if a := e.Decide(context.Background(), stopIn(i > 0)); a.Decision != hooks.Block {
				t.Fatalf("stop %d: %+v", i, a)
			}
		}
		if got := e.CappedByCount("GitHub Copilot CLI", tc.conts); got != tc.capped {
			t.Fatalf("cap of %d continuations, 3 blocks, interactive %v: capped %v, want %v", tc.conts, tc.interactive, got, tc.capped)
		}
		if !tc.capped {
			continue
		}
		vs, evs := r.waitVerdicts(t, 4)
		c := vs[3]
		if c.Event != verdictlog.EventCapped || c.Decision != hooks.Allow || c.Goal.Turn != 3 || c.Goal.End != "" || c.Goal.CappedBy != "GitHub Copilot CLI" {
			t.Fatalf("capped %+v goal %+v", c, c.Goal)
		}
		var typed string
		for _, ev := range evs {
			if g, ok := ev.(session.GoalTurnTyped); ok {
				typed = g.Text
			}
		}
		if !strings.HasPrefix(typed, "Goal turn 3 of 20 (typed by hooksup: your own limit on stop hooks ended the last turn)") {
			t.Fatalf("typed %q", typed)
		}
		if rec, _ := e.GoalState(); rec.End != "" {
			t.Fatalf("the goal ended: %+v", rec)
		}
	}
}
