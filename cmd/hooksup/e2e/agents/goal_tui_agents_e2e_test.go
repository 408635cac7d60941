package agents

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
	"github.com/hooksup/hooksup/verdictlog"
)

// Goal mode in hooksup's TUI with the real Codex, Gemini CLI, Copilot CLI and Qwen Code offline,
// each against its mock API: the goal's next turn that hooksup types into the agent's prompt
// reaches the model (tui/goal_cap_tui_e2e_test.go and goal_resume_e2e_test.go with claude).

// goalTUIWait bounds each wait of these tests: an agent on node, several side by side.
const goalTUIWait = 90 * time.Second

// neverDone is a done command that never passes and says something new each run (its count in
// letters, under home): no progress never ends the goal.
func neverDone(home string) string {
	runs := filepath.Join(home, "runs")
	return fmt.Sprintf(`echo x >> %[1]s; echo "check $(wc -l < %[1]s | tr 0-9 a-j) fails"; exit 1`, runs)
}

// waitTurns waits until turns (the text of each turn request the mock has had) has n.
func waitTurns(t *testing.T, tm *e2e.Tmux, n int, turns func() []string) []string {
	t.Helper()
	deadline := time.Now().Add(goalTUIWait)
	for {
		got := turns()
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d turn requests, want %d; screen:\n%s", len(got), n, tm.Screen())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// capTyped checks that the turn hooksup typed after the agent's cap ended the goal's turn is
// the goal's, that the verdict log has the cap's end (never a pass), and that the screen shows
// the typed turn.
func capTyped(t *testing.T, tm *e2e.Tmux, h *e2e.HooksupEnv, typed, product string, turn, maxTurns int) {
	t.Helper()
	for _, want := range []string{fmt.Sprintf("Goal turn %d of %d (typed by hooksup: your own limit on stop hooks ended the last turn)", turn, maxTurns),
		`"ship the release"`, "still undone: the done command still fails (exit 1)"} {
		if !strings.Contains(typed, want) {
			t.Errorf("the typed turn's request lacks %q:\n%s", want, typed)
		}
	}
	var capped *verdictlog.Verdict
	for _, v := range h.Verdicts() {
		if v.Event == verdictlog.EventCapped {
			capped = &v
		}
	}
	if capped == nil || capped.Goal == nil || capped.Goal.CappedBy != product || capped.Goal.End != "" || capped.Decision == "block" {
		t.Fatalf("no Capped entry by %s in the verdict log: %s", product, e2e.Decisions(h.Verdicts()))
	}
	t.Logf("%s: the typed turn's request within %s of the Capped entry", product, time.Since(capped.Time).Round(time.Millisecond))
	tm.WaitText(goalTUIWait, fmt.Sprintf("Goal turn %d of %d (typed by hooksup", turn, maxTurns))
}

// Qwen Code's own cap on blocked stops, set to 3 by the person (2 continuations), ends a goal's
// turn in the TUI: qwen waits at its prompt, no hook says so, and hooksup records the cap's end
// and types the goal's next turn, which reaches the model.
func TestGoalQwenCapTUITypesNextTurn(t *testing.T) {
	t.Parallel()
	rq := newRealQwenTUI(t, chatReplies(8)...)
	rq.env.Setenv("QWEN_CODE_STOP_HOOK_BLOCK_CAP", "3")
	tm := e2e.StartTmux(t, 160, 45, rq.env.Environ(), rq.env.WorkDir, e2e.HooksupBin, "--debug", "--config", rq.Config(`mode = "auto"`),
		"--goal", "ship the release", "--done", neverDone(rq.env.Home), "--max-turns", "4", "qwen")
	tm.WaitText(goalTUIWait, "hooksup qwen", "Type your message")
	start := time.Now()
	promptQwen(t, tm, rq, "go")
	// The prompt and two continuations; the third block is the cap's end. Then hooksup's typed
	// turn is the fourth request.
	turns := waitTurns(t, tm, 4, chatTexts(rq.srv))
	t.Logf("qwen: the typed turn's request %s after the prompt", time.Since(start).Round(time.Millisecond))
	capTyped(t, tm, &rq.HooksupEnv, turns[3], "Qwen Code", 3, 4)
	tm.WaitText(goalTUIWait, `goal ended: its budget of turns (4) ran out "ship the release"`)
	if n := len(rq.srv.Turns()); n != 5 {
		t.Errorf("%d turn requests, want 5: the typed turn and one more continuation", n)
	}
}

// Copilot CLI's own cap on blocked stops (8 continuations, no setting) ends a goal's turn in
// the TUI: the 9th block ends it, copilot waits at its prompt, and hooksup records the cap's end
// and types the goal's next turn, which reaches the model.
func TestGoalCopilotCapTUITypesNextTurn(t *testing.T) {
	t.Parallel()
	e2e.RequireTmux(t)
	srv := mockapi.NewChatServer(t, &mockapi.ChatScript{Replies: chatReplies(14)}, mockapi.WithQuiet())
	env := mockapi.NewCopilotEnv(t, srv.URL, "")
	env.Setenv("TERM", "xterm-256color")
	env.Setenv("HOOKSUP_COPILOT_BIN", env.Copilot)
	rc := &realCopilot{HooksupEnv: e2e.NewHooksupEnv(t, "hc", env.Home, env.Setenv, srv.Run, env.Command), Srv: srv, Env: env}
	tm := e2e.StartTmux(t, 160, 45, env.Environ(), env.WorkDir, e2e.HooksupBin, "--debug", "--config", rc.Config(`mode = "auto"`),
		"--goal", "ship the release", "--done", neverDone(env.Home), "--max-turns", "10", "copilot")
	tm.WaitText(goalTUIWait, "Do you trust the files in this folder?", "❯ 1. Yes")
	tm.Keys("Enter")
	tm.WaitText(goalTUIWait, "hooksup copilot")
	start := time.Now()
	promptCopilot(t, tm, rc, "go")
	// The prompt and eight continuations; the ninth block is the cap's end. Then hooksup's
	// typed turn is the tenth request.
	turns := waitTurns(t, tm, 10, chatTexts(srv))
	t.Logf("copilot: the typed turn's request %s after the prompt", time.Since(start).Round(time.Millisecond))
	capTyped(t, tm, &rc.HooksupEnv, turns[9], "GitHub Copilot CLI", 9, 10)
	tm.WaitText(goalTUIWait, `goal ended: its budget of turns (10) ran out "ship the release"`)
	if n := len(srv.Turns()); n != 11 {
		t.Errorf("%d turn requests, want 11: the typed turn and one more continuation", n)
	}
}

// resumeTyped resumes the session's goal, out of its budget of 1 turn, with 2 from another
// terminal, and checks that the turn hooksup types reaches the model (the n-th request) and
// that the goal ends at its new budget.
func resumeTyped(t *testing.T, tm *e2e.Tmux, runDir string, turns func() []string) {
	t.Helper()
	tm.WaitText(goalTUIWait, `goal ended: its budget of turns (1) ran out "ship the release"`)
	if n := len(turns()); n != 2 {
		t.Fatalf("%d turn requests before the resume, want 2", n)
	}
	out, errText, code := e2e.HubShell(t, runDir, "goal", "resume", "work", "--max-turns", "2")
	if code != 0 || !strings.Contains(out, "resumed the goal of session") {
		t.Fatalf("goal resume: exit %d %q %q", code, out, errText)
	}
	start := time.Now()
	typed := waitTurns(t, tm, 3, turns)[2]
	t.Logf("the resumed turn's request %s after the resume", time.Since(start).Round(time.Millisecond))
	for _, want := range []string{"Goal turn 2 of 2 (typed by hooksup: the person resumed the goal with a larger budget)", `"ship the release"`} {
		if !strings.Contains(typed, want) {
			t.Errorf("the resumed turn's request lacks %q:\n%s", want, typed)
		}
	}
	tm.WaitText(goalTUIWait, `goal ended: its budget of turns (2) ran out "ship the release"`)
	if n := len(turns()); n != 3 {
		t.Errorf("%d turn requests, want 3", n)
	}
}

// A goal out of budget in gemini's TUI session, resumed from another terminal: hooksup types
// its next turn into gemini's prompt (its placeholder shown there: empty), and the model reads
// it.
func TestGoalGeminiResumeTUI(t *testing.T) {
	t.Parallel()
	var rs []mockapi.GeminiReply
	for _, s := range replyTexts(6) {
		rs = append(rs, mockapi.GeminiText(s))
	}
	rg := newRealGeminiTUI(t, rs...)
	tm := e2e.StartTmux(t, 160, 45, rg.Env.Environ(), rg.Env.WorkDir, e2e.HooksupBin, "--debug", "--config", rg.Config(`mode = "auto"`),
		"--goal", "ship the release", "--done", neverDone(rg.Env.Home), "--max-turns", "1", "gemini")
	tm.WaitText(goalTUIWait, "hooksup gemini", "Type your message")
	promptGemini(t, tm, rg, "go")
	resumeTyped(t, tm, rg.Run, func() []string {
		var out []string
		for _, r := range rg.Srv.Turns() {
			out = append(out, r.LastUserText())
		}
		return out
	})
}

// The same with codex, whose empty composer shows a placeholder of its own.
func TestGoalCodexResumeTUI(t *testing.T) {
	t.Parallel()
	var rs []mockapi.ResponsesReply
	for _, s := range replyTexts(6) {
		rs = append(rs, mockapi.OutputText(s))
	}
	rc := newRealCodexTUI(t, &mockapi.ResponsesScript{Replies: rs})
	tm := e2e.StartTmux(t, 160, 45, rc.Env.Environ(), rc.Env.WorkDir, e2e.HooksupBin, "--debug", "--config", rc.Config(`mode = "auto"`),
		"--goal", "ship the release", "--done", neverDone(rc.Env.Home), "--max-turns", "1", "codex")
	tm.WaitText(goalTUIWait, "hooksup codex", "Ask Codex to do anything")
	typeIntoCodex(t, tm, "go")
	tm.Keys("Enter")
	resumeTyped(t, tm, rc.Run, func() []string {
		var out []string
		for _, r := range rc.Srv.Model() {
			// The goal's continuation reaches codex's model as a hook prompt; the typed turn, as
			// the person's.
			out = append(out, r.LastHookPrompt()+r.LastInputText("user"))
		}
		return out
	})
}

// Escape ends a goal in codex's TUI session as in claude's: pressed while the done command runs,
// the command is killed, the goal ends halted, and codex makes no further request.
func TestGoalCodexEscapeEndsGoal(t *testing.T) {
	t.Parallel()
	rc := newRealCodexTUI(t, &mockapi.ResponsesScript{Replies: []mockapi.ResponsesReply{mockapi.OutputText("reply 1"), mockapi.OutputText("reply 2")}})
	started := filepath.Join(rc.Env.Home, "started")
	tm := e2e.StartTmux(t, 160, 45, rc.Env.Environ(), rc.Env.WorkDir, e2e.HooksupBin, "--debug", "--config", rc.Config(`mode = "auto"`),
		"--goal", "ship the release", "--done", fmt.Sprintf("touch %s; sleep 120; exit 1", started), "codex")
	tm.WaitText(goalTUIWait, "hooksup codex", "Ask Codex to do anything")
	typeIntoCodex(t, tm, "go")
	tm.Keys("Enter")
	deadline := time.Now().Add(goalTUIWait)
	for {
		if _, err := os.Stat(started); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the done command never ran; screen:\n%s", tm.Screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
	pressed := time.Now()
	tm.Keys("Escape")
	tm.WaitText(goalTUIWait, `goal ended: halted "ship the release"`)
	t.Logf("Escape to the goal's end in the header: %s", time.Since(pressed).Round(time.Millisecond))
	var last verdictlog.Verdict
	for _, v := range rc.Verdicts() {
		if v.Goal != nil {
			last = v
		}
	}
	if last.Goal == nil || last.Goal.End != verdictlog.GoalHalted || last.Source != verdictlog.SourceEscape {
		t.Fatalf("the goal's last verdict %+v goal %+v", last, last.Goal)
	}
	if n := len(rc.Srv.Model()); n != 1 {
		t.Errorf("%d requests, want 1: none after Escape", n)
	}
}
