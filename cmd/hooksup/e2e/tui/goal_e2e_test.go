package tui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
	"github.com/hooksup/hooksup/verdictlog"
)

// Goal mode with the real claude, headless, on its default settings: the done command says
// when the goal is reached. Until its third run it fails, and claude continues with the goal
// restated; then the goal is reached after exactly three requests, and hooksup exits 0.
func TestGoalDoneReachedAfterThreeRequests(t *testing.T) {
	t.Parallel()
	rc := e2e.NewRealClaude(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("one"), mockapi.Text("two"), mockapi.Text("three"), mockapi.Text("four")}})
	runs := filepath.Join(rc.Env.Home, "runs")
	done := fmt.Sprintf(`echo x >> %[1]s; n=$(wc -l < %[1]s); echo "scenario $n of 3 still fails"; test $n -ge 3`, runs)
	res := rc.Hooksup("--goal", "make the e2e suite pass", "--done", done, "claude", "-p", "go")
	if res.ExitCode != 0 || res.Stdout != "three\n" {
		t.Fatalf("exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	main := rc.Srv.Main()
	if len(main) != 3 {
		t.Fatalf("%d model requests, want 3; stderr %q", len(main), res.Stderr)
	}
	for i, r := range main[1:] {
		fb := e2e.StopFeedback(t, r)
		for _, want := range []string{"> make the e2e suite pass", fmt.Sprintf("Goal turn %d of 20", i+1), fmt.Sprintf("scenario %d of 3 still fails", i+1)} {
			if !strings.Contains(fb, want) {
				t.Errorf("continuation %d lacks %q:\n%s", i+1, want, fb)
			}
		}
	}
	if !strings.Contains(res.Stderr, "hooksup: the goal is reached after 2 turns\n") {
		t.Errorf("stderr %q", res.Stderr)
	}
	vs := rc.VerdictsJSON()
	if got := e2e.Decisions(vs); got != "Stop:block/goal Stop:block/goal Stop:allow/goal" {
		t.Fatalf("verdicts %s", got)
	}
	if g := vs[2].Goal; g == nil || g.End != verdictlog.GoalReached || g.Turn != 2 || g.Done == nil || g.Done.ExitCode != 0 || vs[1].Goal.Turn != 2 || vs[1].Goal.Done.ExitCode != 1 {
		t.Fatalf("goal records %+v %+v", vs[1].Goal, vs[2].Goal)
	}
}

// --max-turns 2 and a done command that never passes: two goal turns, then the budget ends the
// goal; three requests, exit 3, the budget named on stderr and in the log.
func TestGoalTurnBudgetExits3(t *testing.T) {
	t.Parallel()
	rc := e2e.NewRealClaude(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("one"), mockapi.Text("two"), mockapi.Text("three"), mockapi.Text("four")}})
	runs := filepath.Join(rc.Env.Home, "runs")
	done := fmt.Sprintf(`echo x >> %[1]s; echo "check $(wc -l < %[1]s | tr 0-9 a-j) fails"; exit 1`, runs)
	res := rc.Hooksup("--goal", "ship it", "--done", done, "--max-turns", "2", "claude", "-p", "go")
	if res.ExitCode != 3 {
		t.Fatalf("exit %d, want 3; stderr %q", res.ExitCode, res.Stderr)
	}
	if n := len(rc.Srv.Main()); n != 3 {
		t.Fatalf("%d model requests, want 3", n)
	}
	if !strings.Contains(res.Stderr, "hooksup: the goal was not reached: its budget of turns (2) ran out; left undone: the done command still fails (exit 1)") {
		t.Errorf("stderr %q", res.Stderr)
	}
	vs := rc.VerdictsJSON()
	if got := e2e.Decisions(vs); got != "Stop:block/goal Stop:block/goal Stop:allow/goal" {
		t.Fatalf("verdicts %s", got)
	}
	if g := vs[2].Goal; g.End != verdictlog.GoalBudget || g.Budget != verdictlog.BudgetTurns || g.Turn != 2 || g.MaxTurns != 2 {
		t.Fatalf("end %+v", g)
	}
	// hooksup log says each goal turn and the end.
	log := rc.Hooksup("log")
	for _, want := range []string{"Stop → block: continued (goal) goal turn 1/2", "Stop → block: continued (goal) goal turn 2/2",
		"Stop → allow: let stop (goal) goal turn 2/2 — hooksup: the goal ended: its budget of turns (2) ran out"} {
		if !strings.Contains(log.Stdout, want) {
			t.Errorf("hooksup log lacks %q:\n%s", want, log.Stdout)
		}
	}
}

// The same failing check with the same output but for its times, stop after stop: the goal
// ends for no progress within four requests, exit 3.
func TestGoalNoProgressExits3(t *testing.T) {
	t.Parallel()
	rc := e2e.NewRealClaude(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("one"), mockapi.Text("two"), mockapi.Text("three"), mockapi.Text("four"), mockapi.Text("five")}})
	cfg := rc.Config("[[stop.checks]]\nname = \"tests\"\ncommand = 'echo \"--- FAIL: TestAdd ($(date +%N)s)\"; exit 1'\n")
	res := rc.Hooksup("--config", cfg, "--goal", "fix TestAdd", "claude", "-p", "go")
	if res.ExitCode != 3 {
		t.Fatalf("exit %d, want 3; stderr %q", res.ExitCode, res.Stderr)
	}
	if n := len(rc.Srv.Main()); n > 4 {
		t.Fatalf("%d model requests, want at most 4", n)
	}
	if !strings.Contains(res.Stderr, "hooksup: the goal was not reached: no progress: the check tests failing with the same output, 3 stops in a row") {
		t.Errorf("stderr %q", res.Stderr)
	}
	vs := rc.VerdictsJSON()
	last := vs[len(vs)-1]
	if last.Goal == nil || last.Goal.End != verdictlog.GoalNoProgress || !strings.Contains(last.Goal.Repeated, "the check tests") {
		t.Fatalf("last %+v goal %+v", last, last.Goal)
	}
}

// A goal of 12 turns outlasts claude's own cap of 8 blocked stops in a row: hooksup raises the
// cap at launch, so its budget decides: 13 requests (not the 9 claude's cap would allow), exit
// 3 naming the budget.
func TestGoalRaisesClaudeCap(t *testing.T) {
	t.Parallel()
	rc := e2e.NewRealClaude(t, &mockapi.Script{Main: e2e.Texts(16)})
	res := rc.Hooksup("--goal", "ship it", "--done", e2e.ChangingFailure(rc), "--max-turns", "12", "claude", "-p", "go")
	if n := len(rc.Srv.Main()); n != 13 {
		t.Fatalf("%d model requests, want 13; exit %d stderr %q", n, res.ExitCode, res.Stderr)
	}
	if res.ExitCode != 3 || !strings.Contains(res.Stderr, "hooksup: the goal was not reached: its budget of turns (12) ran out") {
		t.Fatalf("exit %d, want 3; stderr %q", res.ExitCode, res.Stderr)
	}
}

// The person's own CLAUDE_CODE_STOP_HOOK_BLOCK_CAP=3 stays theirs: claude's cap ends the turn
// after 4 requests, and hooksup records the goal's end as capped, never a pass: in the log and
// on stderr, exit 3.
func TestGoalClaudeCapEndsGoalCapped(t *testing.T) {
	t.Parallel()
	rc := e2e.NewRealClaude(t, &mockapi.Script{Main: e2e.Texts(8)})
	rc.Env.Setenv("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP", "3")
	res := rc.Hooksup("--goal", "ship it", "--done", e2e.ChangingFailure(rc), "--max-turns", "12", "claude", "-p", "go")
	if n := len(rc.Srv.Main()); n != 4 {
		t.Fatalf("%d model requests, want 4; stderr %q", n, res.Stderr)
	}
	if res.ExitCode != 3 || !strings.Contains(res.Stderr, "hooksup: the goal was not reached: Claude Code's own cap on blocked stops ended its turn; left undone: the done command still fails (exit 1)\n") {
		t.Fatalf("exit %d, want 3; stderr %q", res.ExitCode, res.Stderr)
	}
	vs := rc.VerdictsJSON()
	last := vs[len(vs)-1]
	if last.Event != verdictlog.EventCapped || last.Goal == nil || last.Goal.End != verdictlog.GoalCapped || last.Goal.Turn != 3 {
		t.Fatalf("last %+v goal %+v", last, last.Goal)
	}
}
