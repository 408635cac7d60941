package agents

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
	"github.com/hooksup/hooksup/supervisor"
)

// End-to-end tests with the real Codex CLI (HOOKSUP_TEST_CODEX) offline, against the mock
// Responses API in a throwaway HOME and CODEX_HOME.

// No checks and a model request that fails: codex exec's stdout and exit status are plain
// codex's, and hooksup leaves no hook file in CODEX_HOME.
func TestCodexNoChecksModelError(t *testing.T) {
	t.Parallel()
	reply := mockapi.ResponsesFailure(400, "invalid_request_error", "the mock refuses")
	plain := e2e.NewRealCodex(t, &mockapi.ResponsesScript{Replies: []mockapi.ResponsesReply{reply}})
	pres := plain.Codex("exec", "what is the answer?")
	rc := e2e.NewRealCodex(t, &mockapi.ResponsesScript{Replies: []mockapi.ResponsesReply{reply}})
	res := rc.Hooksup("--config", rc.Config(`mode = "auto"`), "codex", "exec", "what is the answer?")
	t.Logf("plain codex: exit %d stdout %q; hooksup codex: exit %d stdout %q\nstderr: %s", pres.ExitCode, pres.Stdout, res.ExitCode, res.Stdout, res.Stderr)
	if res.ExitCode != pres.ExitCode || res.Stdout != pres.Stdout || res.ExitCode == 0 {
		t.Fatalf("hooksup codex exec: exit %d stdout %q; plain codex exec: exit %d stdout %q",
			res.ExitCode, res.Stdout, pres.ExitCode, pres.Stdout)
	}
	if len(rc.Srv.Model()) != len(plain.Srv.Model()) {
		t.Fatalf("%d model requests under hooksup, %d plain", len(rc.Srv.Model()), len(plain.Srv.Model()))
	}
	if files := rc.HooksFiles(); len(files) > 0 {
		t.Fatalf("hooksup left hook files in CODEX_HOME: %v", files)
	}
}

// newRealCodexTUI is a real-Codex environment for tests in tmux: the tmux server cannot join
// the tests' network namespace, so the mock listens on the host's loopback.
func newRealCodexTUI(t *testing.T, h mockapi.ResponsesHandler) *e2e.RealCodex {
	t.Helper()
	e2e.RequireTmux(t)
	rc := e2e.NewRealCodexOpts(t, h)
	rc.Env.Setenv("TERM", "xterm-256color")
	rc.Env.Setenv("HOOKSUP_CODEX_BIN", rc.Env.Codex)
	return rc
}

// typeIntoCodex types text into Codex's composer until it shows there.
func typeIntoCodex(t testing.TB, tm *e2e.Tmux, text string) {
	t.Helper()
	tm.TypeAfter("› ", text)
}

// (d) The TUI in ask mode: the check's proposal waits as a question on screen; Escape reaches
// Codex, which stops its turn, and the verdict is allow by Escape with no further request: the
// next request is the person's next prompt.
func TestCodexTUIAskEscape(t *testing.T) {
	t.Parallel()
	rc := newRealCodexTUI(t, &mockapi.ResponsesScript{Replies: []mockapi.ResponsesReply{
		mockapi.OutputText("ANSWER-ONE"), mockapi.OutputText("ANSWER-TWO"), mockapi.OutputText("WRONG: A CONTINUATION"),
	}})
	cfg := rc.Config(`
mode = "ask"
[[stop.checks]]
name = "tests"
command = "echo 'FAIL: TestCodexTUI'; exit 1"
retry_on_failure = true
`)
	tm := e2e.StartTmux(t, 160, 45, rc.Env.Environ(), rc.Env.WorkDir, e2e.HooksupBin, "--config", cfg, "codex")
	const wait = 45 * time.Second
	tm.WaitText(wait, "hooksup codex", "Ask Codex to do anything")

	typeIntoCodex(t, tm, "first prompt")
	tm.Keys("Enter")
	scr := tm.WaitText(wait, "ANSWER-ONE", "⚑ codex wants to stop", "FAIL: TestCodexTUI", "esc")
	t.Logf("the question:\n%s", scr)

	tm.Keys("Escape")
	if scr = tm.WaitText(wait, "let stop (Escape)"); strings.Contains(scr, "codex wants to stop") {
		t.Fatalf("question still shown after Escape:\n%s", scr)
	}
	// The next prompt's request follows the escaped question's: a continuation would have come
	// before it. Its question is let stop.
	typeIntoCodex(t, tm, "second prompt")
	tm.Keys("Enter")
	tm.WaitText(wait, "ANSWER-TWO", "⚑ codex wants to stop")
	if reqs := rc.Srv.Model(); len(reqs) != 2 || !strings.Contains(reqs[1].LastInputText("user"), "second prompt") || reqs[1].LastHookPrompt() != "" {
		for i, r := range reqs {
			t.Logf("request %d: last input %q, hook prompt %q", i, r.LastInputText(), r.LastHookPrompt())
		}
		t.Fatalf("codex made %d model requests, want 2, the second the next prompt's\nverdicts %s\nscreen:\n%s\nlog:\n%s", len(reqs), e2e.Decisions(rc.Verdicts()), tm.Screen(), rc.Log())
	}
	if got := e2e.Decisions(rc.Verdicts()); got != "Interrupted:allow/escape Stop:allow/escape" {
		t.Fatalf("verdicts %s\nscreen:\n%s", got, tm.Screen())
	}
	tm.Keys("C-]", "d")
	tm.WaitFor("the second question answered", wait, func(s string) bool { return !strings.Contains(s, "codex wants to stop") })

	// Codex's own keys reach it: /quit ends it, and its parting hint resumes under hooksup.
	typeIntoCodex(t, tm, "/quit")
	tm.Keys("Enter")
	tm.WaitText(wait, "codex exited with status 0", "  hooksup codex resume ", "Or run hooksup codex resume and select")
	tm.Keys("q")
	tm.WaitText(wait, "[exited 0]")
}

// The TUI in ask mode, answered by the person: approved, the check's reason reaches Codex as its
// next prompt (the verdict is block by the person), and the check passes on the continuation;
// denied, Codex stops with no further request; edited, the reason as the person wrote it, its
// line breaks kept, is Codex's next prompt.
func TestCodexTUIAskApprove(t *testing.T) {
	t.Parallel()
	rc := newRealCodexTUI(t, &mockapi.ResponsesScript{Replies: []mockapi.ResponsesReply{
		mockapi.OutputText("ANSWER-ONE"), mockapi.OutputText("ANSWER-ONE-FIXED"),
		mockapi.OutputText("ANSWER-TWO"), mockapi.OutputText("ANSWER-THREE"), mockapi.OutputText("ANSWER-EDITED"),
	}})
	cfg := rc.Config(`
mode = "ask"
[[stop.checks]]
name = "tests"
command = "if [ \"$HOOKSUP_STOP_HOOK_ACTIVE\" = true ]; then echo ok; else echo 'FAIL: TestCodexApprove'; exit 1; fi"
`)
	tm := e2e.StartTmux(t, 160, 45, rc.Env.Environ(), rc.Env.WorkDir, e2e.HooksupBin, "--config", cfg, "codex")
	const wait = 45 * time.Second
	tm.WaitText(wait, "hooksup codex", "Ask Codex to do anything")

	typeIntoCodex(t, tm, "first prompt")
	tm.Keys("Enter")
	tm.WaitText(wait, "ANSWER-ONE", "⚑ codex wants to stop", "FAIL: TestCodexApprove")

	// Approve: Codex continues with the check's reason, then stops.
	tm.Keys("C-]", "a")
	scr := tm.WaitText(wait, "ANSWER-ONE-FIXED", "continued by you", "let stop (checks passed)")
	if strings.Contains(scr, "codex wants to stop") {
		t.Fatalf("question still shown after approval:\n%s", scr)
	}
	reqs := rc.Srv.Model()
	if len(reqs) != 2 || !strings.Contains(reqs[1].LastHookPrompt(), "FAIL: TestCodexApprove") || reqs[0].LastHookPrompt() != "" {
		for i, r := range reqs {
			t.Logf("request %d: last input %q, hook prompt %q", i, r.LastInputText(), r.LastHookPrompt())
		}
		t.Fatalf("%d model requests after approval, want 2, the second carrying the check's reason", len(reqs))
	}

	// Deny: Codex stops; no continuation request.
	typeIntoCodex(t, tm, "second prompt")
	tm.Keys("Enter")
	tm.WaitText(wait, "ANSWER-TWO", "⚑ codex wants to stop")
	tm.Keys("C-]", "d")
	if scr = tm.WaitText(wait, "let stop by you"); strings.Contains(scr, "codex wants to stop") {
		t.Fatalf("question still shown after denial:\n%s", scr)
	}

	// Edit: two lines more, then send. The third prompt's request follows the denied question's:
	// a continuation would have come before it.
	typeIntoCodex(t, tm, "third prompt")
	tm.Keys("Enter")
	tm.WaitText(wait, "ANSWER-THREE", "⚑ codex wants to stop")
	if reqs = rc.Srv.Model(); len(reqs) != 4 || !strings.Contains(reqs[3].LastInputText("user"), "third prompt") || reqs[3].LastHookPrompt() != "" {
		for i, r := range reqs {
			t.Logf("request %d: last input %q, hook prompt %q", i, r.LastInputText(), r.LastHookPrompt())
		}
		t.Fatalf("codex made %d model requests, want 4, the fourth the third prompt's after the denied question's\nscreen:\n%s", len(reqs), tm.Screen())
	}
	tm.Keys("C-]", "e")
	tm.WaitText(wait, "ctrl+c cancel edit")
	tm.Text("ALSO-LINE-ONE") // on the line below the reason, where the editor starts
	tm.Keys("C-j")
	tm.Text("ALSO-LINE-TWO")
	tm.Keys("Enter")
	tm.WaitText(wait, "ANSWER-EDITED")
	reqs = rc.Srv.Model()
	if len(reqs) != 5 {
		t.Fatalf("%d model requests after the edit, want 5", len(reqs))
	}
	if got := reqs[4].LastHookPrompt(); !strings.Contains(got, "FAIL: TestCodexApprove\nALSO-LINE-ONE\nALSO-LINE-TWO") {
		t.Fatalf("codex read %q: not the edited reason with its line breaks", got)
	}
	tm.WaitFor("the verdicts", wait, func(string) bool { return len(rc.Verdicts()) == 5 })
	if got := e2e.Decisions(rc.Verdicts()); got != "Stop:block/manual Stop:allow/checks Stop:allow/manual Stop:block/manual Stop:allow/checks" {
		t.Fatalf("verdicts %s\nscreen:\n%s", got, tm.Screen())
	}
}

// hooksup's -c overrides come after the person's: a -c hooks.Stop of theirs cannot drop
// hooksup's Stop hook (hooksup says theirs is replaced), and one that turns Codex's hooks off
// makes hooksup say that codex is not running its hooks.
func TestCodexUsersOwnHookOverrides(t *testing.T) {
	t.Parallel()
	t.Run("hooks.Stop", func(t *testing.T) {
		rc := e2e.NewRealCodex(t, &mockapi.ResponsesScript{Replies: []mockapi.ResponsesReply{mockapi.OutputText("The answer is 42.")}})
		res := rc.Hooksup("--config", rc.Config(`mode = "auto"`), "codex", "-c", `hooks.Stop=[{hooks=[{type="command",command="true"}]}]`, "exec", "what is the answer?")
		if res.ExitCode != 0 || res.Stdout != "The answer is 42.\n" {
			t.Fatalf("exit %d stdout %q\nstderr: %s", res.ExitCode, res.Stdout, res.Stderr)
		}
		if got := e2e.Decisions(rc.Verdicts()); got != "Stop:allow/nochecks" {
			t.Fatalf("verdicts: %s\nstderr: %s", got, res.Stderr)
		}
		if !strings.Contains(res.Stderr, "is replaced for this run by hooksup's own hooks") {
			t.Fatalf("no word of the replaced -c on stderr:\n%s", res.Stderr)
		}
	})
	t.Run("hooks off", func(t *testing.T) {
		rc := e2e.NewRealCodex(t, &mockapi.ResponsesScript{Replies: []mockapi.ResponsesReply{mockapi.OutputText("UNSUPERVISED-REPLY")}})
		res := rc.Hooksup("--config", rc.Config(`mode = "auto"`), "codex", "--disable", "hooks", "exec", "hi")
		if res.ExitCode != 0 || res.Stdout != "UNSUPERVISED-REPLY\n" {
			t.Fatalf("exit %d stdout %q\nstderr: %s", res.ExitCode, res.Stdout, res.Stderr)
		}
		if !strings.Contains(res.Stderr, "hooksup: "+supervisor.NotRunning("codex")+": its transcript shows a reply, but no hook reached hooksup") {
			t.Fatalf("stderr does not say codex is not running hooksup's hooks:\n%s", res.Stderr)
		}
		if got := e2e.Decisions(rc.Verdicts()); got != "" {
			t.Fatalf("verdicts: %s", got)
		}
		if !strings.Contains(res.Stderr, "your --disable hooks decides whether Codex runs hooks at all, hooksup's too") {
			t.Fatalf("no word of the --disable hooks on stderr:\n%s", res.Stderr)
		}
	})
}

// hooksup doctor names the codex it would run and its version, and where Codex reads hooks of
// the person's own.
func TestCodexDoctor(t *testing.T) {
	t.Parallel()
	rc := e2e.NewRealCodex(t, nil)
	if err := rc.Env.AppendConfig("[[hooks.Stop]]\nhooks = [{ type = \"command\", command = \"mine.sh\" }]"); err != nil {
		t.Fatal(err)
	}
	res := rc.Hooksup("doctor")
	for _, want := range []string{
		"codex\n  ✓ " + rc.Env.BinDir + "/codex: Codex 0.169.0 (hooksup supports 0.169.0 and newer)",
		"hooksup codex defines its own hooks with -c for its session and trusts exactly those (nothing is written): SessionStart,",
		"Codex reads hooks of its own from " + rc.Env.ConfigPath() + " [hooks]",
	} {
		if !strings.Contains(res.Stdout, want) {
			t.Errorf("doctor does not say %q:\n%s", want, res.Stdout)
		}
	}
	// Without codex, doctor says so, and it is no problem of its own.
	rc.Env.Setenv("HOOKSUP_CODEX_BIN", filepath.Join(rc.Env.Home, "no-codex"))
	res = rc.Hooksup("doctor")
	if !strings.Contains(res.Stdout, "no-codex not found (only hooksup codex needs it") {
		t.Errorf("doctor without codex:\n%s", res.Stdout)
	}
}
