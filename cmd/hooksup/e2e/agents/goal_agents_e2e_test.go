package agents

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
	"github.com/hooksup/hooksup/verdictlog"
)

// Goal mode headless with the real Codex, Gemini CLI, Copilot CLI and Qwen Code offline, each
// against its mock API: the shapes of the real claude's goal tests (tui/goal_e2e_test.go).

// goalAgent is one agent as the goal tests run it: its mock answering every turn request with
// a plain reply, the agent's environment, and the text each of its turn requests ends with
// (where a stop hook's reason reaches the model).
type goalAgent struct {
	name string
	// start makes the mock, answering n turn requests "reply 1" … "reply n", and the agent's
	// environment.
	start func(t *testing.T, n int) *goalEnv
	// prompt is the agent's arguments to run one prompt headless.
	prompt []string
}

type goalEnv struct {
	e2e.HooksupEnv
	home   string
	setenv func(key, value string)
	// turns is the text that ends each turn request the mock has had so far.
	turns func() []string
}

func replyTexts(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("reply %d", i+1)
	}
	return out
}

func chatReplies(n int) []mockapi.ChatReply {
	var rs []mockapi.ChatReply
	for _, s := range replyTexts(n) {
		rs = append(rs, mockapi.ChatText(s))
	}
	return rs
}

func chatTexts(srv *mockapi.ChatServer) func() []string {
	return func() []string {
		var out []string
		for _, r := range srv.Turns() {
			out = append(out, r.LastUserText())
		}
		return out
	}
}

var goalAgents = []goalAgent{
	{name: "codex", prompt: []string{"exec", "go"}, start: func(t *testing.T, n int) *goalEnv {
		var rs []mockapi.ResponsesReply
		for _, s := range replyTexts(n) {
			rs = append(rs, mockapi.OutputText(s))
		}
		rc := e2e.NewRealCodex(t, &mockapi.ResponsesScript{Replies: rs})
		// A stop hook's reason reaches Codex's model as a hook prompt.
		return &goalEnv{HooksupEnv: rc.HooksupEnv, home: rc.Env.Home, setenv: rc.Env.Setenv, turns: func() []string {
			var out []string
			for _, r := range rc.Srv.Model() {
				out = append(out, r.LastHookPrompt())
			}
			return out
		}}
	}},
	{name: "gemini", prompt: []string{"-p", "go"}, start: func(t *testing.T, n int) *goalEnv {
		var rs []mockapi.GeminiReply
		for _, s := range replyTexts(n) {
			rs = append(rs, mockapi.GeminiText(s))
		}
		rg := e2e.NewRealGemini(t, rs...)
		return &goalEnv{HooksupEnv: rg.HooksupEnv, home: rg.Env.Home, setenv: rg.Env.Setenv, turns: func() []string {
			var out []string
			for _, r := range rg.Srv.Turns() {
				out = append(out, r.LastUserText())
			}
			return out
		}}
	}},
	{name: "copilot", prompt: []string{"-p", "go"}, start: func(t *testing.T, n int) *goalEnv {
		srv := mockapi.NewChatServer(t, &mockapi.ChatScript{Replies: chatReplies(n)}, mockapi.WithNetNS(), mockapi.WithQuiet())
		env := mockapi.NewCopilotEnv(t, srv.URL, "")
		return &goalEnv{HooksupEnv: e2e.NewHooksupEnv(t, "hc", env.Home, env.Setenv, srv.Run, env.Command), home: env.Home, setenv: env.Setenv, turns: chatTexts(srv)}
	}},
	{name: "qwen", prompt: []string{"-p", "go"}, start: func(t *testing.T, n int) *goalEnv {
		rq := newRealQwen(t, chatReplies(n)...)
		return &goalEnv{HooksupEnv: rq.HooksupEnv, home: rq.env.Home, setenv: rq.env.Setenv, turns: chatTexts(rq.srv)}
	}},
}

// forEachGoalAgent runs scenario for every agent, each in a parallel subtest of its name.
func forEachGoalAgent(t *testing.T, scenario func(t *testing.T, a goalAgent)) {
	for _, a := range goalAgents {
		t.Run(a.name, func(t *testing.T) {
			t.Parallel()
			scenario(t, a)
		})
	}
}

// goalTimeout bounds one goal's run: up to 13 turns of an agent on node, the tests of every
// agent side by side on a loaded machine (qwen's 3 turns took 82 s so).
const goalTimeout = 4 * time.Minute

// goal runs hooksup in goal mode headless on the agent's one prompt: flags first.
func (ge *goalEnv) goal(a goalAgent, flags ...string) (mockapi.Result, time.Duration) {
	ge.T.Helper()
	ge.Timeout = goalTimeout
	start := time.Now()
	res := ge.Hooksup(append(append(flags, a.name), a.prompt...)...)
	return res, time.Since(start)
}

// A done command that passes on its third run: the agent continues twice with the goal
// restated and the done command's words, and the goal is reached after exactly three turn
// requests, exit 0.
func TestGoalAgentsDoneReachedAfterThreeRequests(t *testing.T) {
	t.Parallel()
	forEachGoalAgent(t, func(t *testing.T, a goalAgent) {
		ge := a.start(t, 5)
		runs := filepath.Join(ge.home, "runs")
		done := fmt.Sprintf(`echo x >> %[1]s; n=$(wc -l < %[1]s); echo "scenario $n of 3 still fails"; test $n -ge 3`, runs)
		res, took := ge.goal(a, "--goal", "make the e2e suite pass", "--done", done)
		turns := ge.turns()
		t.Logf("%s: %d turn requests, exit %d, %s", a.name, len(turns), res.ExitCode, took.Round(time.Millisecond))
		if res.ExitCode != 0 || len(turns) != 3 {
			t.Fatalf("exit %d after %d turn requests, want 0 after 3\nstdout %q\nstderr %s", res.ExitCode, len(turns), res.Stdout, res.Stderr)
		}
		for i, text := range turns[1:] {
			for _, want := range []string{"> make the e2e suite pass", fmt.Sprintf("Goal turn %d of 20", i+1), fmt.Sprintf("scenario %d of 3 still fails", i+1)} {
				if !strings.Contains(text, want) {
					t.Errorf("continuation %d lacks %q:\n%s", i+1, want, text)
				}
			}
		}
		if !strings.Contains(res.Stderr, "hooksup: the goal is reached after 2 turns\n") {
			t.Errorf("stderr %q", res.Stderr)
		}
		vs := ge.Verdicts()
		if got := e2e.Decisions(vs); got != "Stop:block/goal Stop:block/goal Stop:allow/goal" {
			t.Fatalf("verdicts %s\nstderr %s", got, res.Stderr)
		}
		if g := vs[2].Goal; g == nil || g.End != verdictlog.GoalReached || g.Turn != 2 || g.Done == nil || g.Done.ExitCode != 0 {
			t.Fatalf("the goal's last record %+v", g)
		}
		t.Logf("%s: tokens at the stops %d, %d, %d", a.name, vs[0].Goal.Tokens, vs[1].Goal.Tokens, vs[2].Goal.Tokens)
	})
}

// --max-turns 2 and a done command that never passes: two goal turns, then the budget ends the
// goal; three turn requests, exit 3, the budget named on stderr and in the log.
func TestGoalAgentsTurnBudgetExits3(t *testing.T) {
	t.Parallel()
	forEachGoalAgent(t, func(t *testing.T, a goalAgent) {
		ge := a.start(t, 5)
		runs := filepath.Join(ge.home, "runs")
		done := fmt.Sprintf(`echo x >> %[1]s; echo "check $(wc -l < %[1]s | tr 0-9 a-j) fails"; exit 1`, runs)
		res, took := ge.goal(a, "--goal", "ship it", "--done", done, "--max-turns", "2")
		turns := ge.turns()
		t.Logf("%s: %d turn requests, exit %d, %s", a.name, len(turns), res.ExitCode, took.Round(time.Millisecond))
		if res.ExitCode != 3 || len(turns) != 3 {
			t.Fatalf("exit %d after %d turn requests, want 3 after 3\nstderr %s", res.ExitCode, len(turns), res.Stderr)
		}
		for i, text := range turns[1:] {
			if want := fmt.Sprintf("Goal turn %d of 2", i+1); !strings.Contains(text, "> ship it") || !strings.Contains(text, want) {
				t.Errorf("continuation %d lacks the goal or %q:\n%s", i+1, want, text)
			}
		}
		if !strings.Contains(res.Stderr, "hooksup: the goal was not reached: its budget of turns (2) ran out; left undone: the done command still fails (exit 1)") {
			t.Errorf("stderr %q", res.Stderr)
		}
		vs := ge.Verdicts()
		if got := e2e.Decisions(vs); got != "Stop:block/goal Stop:block/goal Stop:allow/goal" {
			t.Fatalf("verdicts %s\nstderr %s", got, res.Stderr)
		}
		if g := vs[2].Goal; g == nil || g.End != verdictlog.GoalBudget || g.Budget != verdictlog.BudgetTurns || g.Turn != 2 || g.MaxTurns != 2 {
			t.Fatalf("the goal's last record %+v", g)
		}
	})
}

// --max-tokens 1 and a done command that never passes: the agent's transcript gives the
// session's tokens, and once hooksup has read them the budget ends the goal, exit 3, the budget
// named with the count reached.
func TestGoalAgentsTokenBudgetExits3(t *testing.T) {
	t.Parallel()
	forEachGoalAgent(t, func(t *testing.T, a goalAgent) {
		ge := a.start(t, 5)
		res, took := ge.goal(a, "--goal", "ship it", "--done", ge.changingFailure(), "--max-tokens", "1")
		turns := ge.turns()
		vs := ge.Verdicts()
		if len(vs) == 0 {
			t.Fatalf("no verdicts; exit %d stderr %s", res.ExitCode, res.Stderr)
		}
		g := vs[len(vs)-1].Goal
		t.Logf("%s: %d turn requests, exit %d, %s, goal %+v", a.name, len(turns), res.ExitCode, took.Round(time.Millisecond), g)
		if res.ExitCode != 3 || !strings.Contains(res.Stderr, "hooksup: the goal was not reached: its budget of tokens (1) ran out, at ") {
			t.Fatalf("exit %d, want 3; stderr %s", res.ExitCode, res.Stderr)
		}
		if g == nil || g.End != verdictlog.GoalBudget || g.Budget != verdictlog.BudgetTokens || g.Tokens <= 0 || len(turns) > 3 {
			t.Fatalf("%d turn requests, the goal's last record %+v", len(turns), g)
		}
	})
}

// changingFailure is a done command that never passes and says something new each run (its
// count in letters): no progress never ends the goal.
func (ge *goalEnv) changingFailure() string {
	runs := filepath.Join(ge.home, "runs")
	return fmt.Sprintf(`echo x >> %[1]s; echo "check $(wc -l < %[1]s | tr 0-9 a-j) fails"; exit 1`, runs)
}

func goalAgentNamed(name string) goalAgent {
	for _, a := range goalAgents {
		if a.name == name {
			return a
		}
	}
	panic(name)
}

// A goal of 12 turns outlasts qwen's own cap of 8 blocked stops in a row (7 continuations):
// hooksup raises the cap at launch, so its budget decides: 13 turn requests, exit 3 naming the
// budget.
func TestGoalRaisesQwenCap(t *testing.T) {
	t.Parallel()
	a := goalAgentNamed("qwen")
	ge := a.start(t, 16)
	res, took := ge.goal(a, "--goal", "ship it", "--done", ge.changingFailure(), "--max-turns", "12")
	n := len(ge.turns())
	t.Logf("qwen: %d turn requests, exit %d, %s", n, res.ExitCode, took.Round(time.Millisecond))
	if n != 13 || res.ExitCode != 3 || !strings.Contains(res.Stderr, "hooksup: the goal was not reached: its budget of turns (12) ran out") {
		t.Fatalf("%d turn requests, want 13; exit %d, want 3; stderr %s", n, res.ExitCode, res.Stderr)
	}
}

// An agent's own cap on blocked stops that hooksup does not raise ends the goal capped, never
// a pass: Copilot CLI's (8 continuations, no setting), and qwen's when the person set it
// (QWEN_CODE_STOP_HOOK_BLOCK_CAP=3: 2 continuations). Neither writes the cap's end where
// hooksup reads; the agent exits after a block one past its cap, which hooksup records as the
// cap's end: in the log (an entry of event Capped) and on stderr, exit 3.
func TestGoalAgentCapEndsGoalCapped(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		agent, product string
		env            []string
		conts          int // the continuations the cap lets through
	}{
		{"copilot", "GitHub Copilot CLI", nil, 8},
		{"qwen", "Qwen Code", []string{"QWEN_CODE_STOP_HOOK_BLOCK_CAP", "3"}, 2},
	} {
		t.Run(c.agent, func(t *testing.T) {
			t.Parallel()
			a := goalAgentNamed(c.agent)
			ge := a.start(t, 16)
			if c.env != nil {
				ge.setenv(c.env[0], c.env[1])
			}
			res, took := ge.goal(a, "--goal", "ship it", "--done", ge.changingFailure(), "--max-turns", "12")
			n := len(ge.turns())
			t.Logf("%s: %d turn requests, exit %d, %s", c.agent, n, res.ExitCode, took.Round(time.Millisecond))
			if n != c.conts+1 {
				t.Fatalf("%d turn requests, want %d; stderr %s", n, c.conts+1, res.Stderr)
			}
			if res.ExitCode != 3 || !strings.Contains(res.Stderr, "hooksup: the goal was not reached: "+c.product+"'s own cap on blocked stops ended its turn; left undone: the done command still fails (exit 1)\n") {
				t.Fatalf("exit %d, want 3; stderr %s", res.ExitCode, res.Stderr)
			}
			vs := ge.Verdicts()
			last := vs[len(vs)-1]
			if last.Event != verdictlog.EventCapped || last.Goal == nil || last.Goal.End != verdictlog.GoalCapped || last.Goal.Turn != c.conts || last.Goal.CappedBy != c.product {
				t.Fatalf("last %+v goal %+v", last, last.Goal)
			}
		})
	}
}
