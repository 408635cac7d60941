package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/verdictlog"
)

// A test check's count is read from its runner's summary; go test without -v counts its
// packages, with -v its tests.
func TestRanTests(t *testing.T) {
	for out, want := range map[string]string{
		"Ran 14 tests in 0.010s":                                 "14 tests",
		"Ran 1 test in 0.010s":                                   "1 test",
		"ok  \texample.com/a\t0.01s\nok  \texample.com/b\t0.02s": "tests in 2 Go packages",
		"=== RUN   TestA\n--- PASS: TestA (0.00s)\n=== RUN   TestB\n--- PASS: TestB (0.00s)\nok  \texample.com/a\t0.01s": "2 tests",
	} {
		got, ok := ranTests(out)
		if !ok || got.what != want {
			t.Errorf("ranTests(%q) = %+v %v, want %q", out, got, ok, want)
		}
	}
	if _, ok := ranTests("all good"); ok {
		t.Error("an output with no runner's summary was counted")
	}
}

// A count that fell below the goal's start is named with both counts; one that held or grew,
// or a check that did not run at this stop, is not.
func TestFewerTests(t *testing.T) {
	g := &goalRun{tests: map[string]testsRun{"unit": {14, "14 tests"}, "e2e": {3, "3 tests"}}, testNames: []string{"unit", "e2e"}}
	if got := g.fewerTests(map[string]testsRun{"unit": {14, "14 tests"}, "e2e": {4, "4 tests"}}); got != "" {
		t.Errorf("no fall: %q", got)
	}
	if got := g.fewerTests(map[string]testsRun{"unit": {12, "12 tests"}}); got != "the check unit ran 12 tests, 14 tests at the goal's start" {
		t.Errorf("fall: %q", got)
	}
	if got := g.fewerTests(map[string]testsRun{"e2e": {0, "no tests hooksup can count"}}); got != "the check e2e ran no tests hooksup can count, 3 tests at the goal's start" {
		t.Errorf("summary gone: %q", got)
	}
}

// Protected files: a glob without a slash matches a base name at any depth, one with a slash a
// path from the root; a change, a deletion, a new file that matches are named, others not; a
// configuration file's change is named as such.
func TestGuardChanged(t *testing.T) {
	dir := t.TempDir()
	write := func(p, s string) {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a/x_test.go", "1")
	write("a/x.go", "1")
	write("tests/t.py", "1")
	write(".hooksup.toml", "mode = \"auto\"\n")
	ctx := context.Background()
	g := takeGuard(ctx, dir, []string{"*_test.go", "tests/*.py"}, []string{filepath.Join(dir, ".hooksup.toml"), filepath.Join(dir, ".hooksup.local.toml")}, nil)
	if what, _ := g.changed(ctx); what != "" {
		t.Fatalf("unchanged: %q", what)
	}
	write("a/x.go", "2")
	if what, _ := g.changed(ctx); what != "" {
		t.Fatalf("an unprotected file: %q", what)
	}
	write("a/x_test.go", "22")
	os.Remove(filepath.Join(dir, "tests/t.py"))
	write("b/y_test.go", "1")
	what, next := g.changed(ctx)
	if what != "a/x_test.go, b/y_test.go (created), tests/t.py (deleted)" {
		t.Fatalf("changes: %q", what)
	}
	if w, _ := next.changed(ctx); w != "" {
		t.Fatalf("the new start: %q", w)
	}
	write(".hooksup.local.toml", "mode = \"observe\"\n")
	if what, _ := next.changed(ctx); what != "the configuration .hooksup.local.toml" {
		t.Fatalf("configuration: %q", what)
	}
}

// With a person to ask, an edit to a protected file pauses the goal with a question, whatever
// the mode: continuing takes the files as they are as the goal's new start (the goal goes on,
// the next stop asks nothing); letting it stop ends the goal paused.
func TestGoalPausedAsks(t *testing.T) {
	for _, cont := range []bool{true, false} {
		e, r, asked := askEngine(t, config.ModeAuto, time.Minute)
		dir := e.projectDir
		if err := os.WriteFile(filepath.Join(dir, "a_test.go"), []byte("1"), 0o644); err != nil {
			t.Fatal(err)
		}
		g := Goal{Text: "ship it", GoalConfig: config.Defaults().Goal}
		g.Done, g.Protect = "exit 1", []string{"*_test.go"}
		e.goal = &goalRun{Goal: g, started: time.Now()}
		e.StartGoal(context.Background())
		if err := os.WriteFile(filepath.Join(dir, "a_test.go"), []byte("2"), 0o644); err != nil {
			t.Fatal(err)
		}
		ans := decideAsync(e, stopIn(false))
		q := <-asked
		if q.Proposal != hooks.Allow || !strings.Contains(q.Warning, "the goal is paused: the agent changed what the goal protects: a_test.go") {
			t.Fatalf("question %+v", q)
		}
		if cont {
			e.Resolve(q.ID, hooks.Block, "")
			if a := <-ans; a.Decision != hooks.Block || !strings.Contains(a.Reason, "> ship it") {
				t.Fatalf("continued: %+v", a)
			}
			if a := e.Decide(context.Background(), stopIn(true)); a.Decision != hooks.Block {
				t.Fatalf("the next stop: %+v", a)
			}
			vs, _ := r.waitVerdicts(t, 2)
			if vs[1].Goal == nil || vs[1].Goal.Turn != 2 || vs[1].Goal.End != "" {
				t.Fatalf("the goal after the pause: %+v", vs[1].Goal)
			}
			continue
		}
		e.Resolve(q.ID, hooks.Allow, "")
		if a := <-ans; a.Decision != hooks.Allow {
			t.Fatalf("let stop: %+v", a)
		}
		vs, _ := r.waitVerdicts(t, 1)
		if g := vs[0].Goal; g == nil || g.End != verdictlog.GoalPaused || g.Paused != "a_test.go" {
			t.Fatalf("paused: %+v", g)
		}
	}
}

// With a person to ask, no progress is a question: continuing with a hint makes the agent
// continue with it and the goal go on, its count of repeats started again; letting it stop ends
// the goal for no progress.
func TestGoalNoProgressAsks(t *testing.T) {
	for _, cont := range []bool{true, false} {
		e, r, asked := askEngine(t, config.ModeAuto, time.Minute, check("tests", "echo '--- FAIL: TestAdd'; exit 1"))
		g := Goal{Text: "fix TestAdd", GoalConfig: config.Defaults().Goal}
		e.goal = &goalRun{Goal: g, started: time.Now()}
		for i := range 2 {
			if a := e.Decide(context.Background(), stopIn(i > 0)); a.Decision != hooks.Block {
				t.Fatalf("stop %d: %+v", i, a)
			}
		}
		ans := decideAsync(e, stopIn(true))
		q := <-asked
		if !strings.Contains(q.Warning, "no progress: the check tests failing with the same output, 3 stops in a row") {
			t.Fatalf("question %+v", q)
		}
		if !cont {
			e.Resolve(q.ID, hooks.Allow, "")
			<-ans
			vs, _ := r.waitVerdicts(t, 3)
			if g := vs[2].Goal; g == nil || g.End != verdictlog.GoalNoProgress {
				t.Fatalf("let stop: %+v", g)
			}
			continue
		}
		e.Resolve(q.ID, hooks.Block, "try the other branch of Add")
		if a := <-ans; a.Decision != hooks.Block || !strings.Contains(a.Reason, "try the other branch of Add") || !strings.Contains(a.Reason, "> fix TestAdd") {
			t.Fatalf("continued: %+v", a)
		}
		// The count starts again: the next two stops with the same failure ask nothing.
		for i := range 2 {
			if a := e.Decide(context.Background(), stopIn(true)); a.Decision != hooks.Block {
				t.Fatalf("stop %d after the hint: %+v", i, a)
			}
		}
		vs, _ := r.waitVerdicts(t, 5)
		if g := vs[2].Goal; g == nil || g.End != "" || g.Turn != 3 {
			t.Fatalf("the goal after the hint: %+v", g)
		}
	}
}
