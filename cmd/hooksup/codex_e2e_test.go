package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
	"github.com/hooksup/hooksup/supervisor"
)

// End-to-end tests with the real Codex CLI (HOOKSUP_TEST_CODEX) offline, against the mock
// Responses API in a throwaway HOME and CODEX_HOME.

// realCodex is one test's Codex: the mock it talks to, its environment, and hooksup's state and
// runtime directories.
type realCodex struct {
	hooksupEnv
	srv *mockapi.ResponsesServer
	env *mockapi.CodexEnv
}

func newRealCodex(t *testing.T, h mockapi.ResponsesHandler) *realCodex {
	t.Helper()
	return newRealCodexOpts(t, h, mockapi.WithNetNS())
}

func newRealCodexOpts(t *testing.T, h mockapi.ResponsesHandler, opts ...mockapi.Option) *realCodex {
	t.Helper()
	srv := mockapi.NewResponsesServer(t, h, append(opts, mockapi.WithQuiet())...)
	env := mockapi.NewCodexEnv(t, srv.URL, "")
	return &realCodex{hooksupEnv: newHooksupEnv(t, "hx", env.Home, env.Setenv, srv.Run, env.Command), srv: srv, env: env}
}

// codex runs plain codex with args and waits for it.
func (rc *realCodex) codex(args ...string) mockapi.Result {
	rc.t.Helper()
	return rc.runBounded("codex", rc.env.Codex, args...)
}

// hooksFiles lists the files in CODEX_HOME that a hook registration would leave there: any
// hooks.json, and any file whose name holds "hooksup". hooksup must leave none.
func (rc *realCodex) hooksFiles() []string {
	var out []string
	filepath.WalkDir(rc.env.CodexHome, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, "hooks.json") || strings.Contains(filepath.Base(p), "hooksup")) {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// (a) No checks: one allow, and codex exec's stdout and exit status are plain codex's, for a
// run that succeeds and for one whose model request fails.
func TestCodexNoChecks(t *testing.T) {
	for _, tc := range []struct {
		name  string
		reply mockapi.ResponsesReply
	}{
		{"answer", mockapi.OutputText("The answer is 42.")},
		{"model error", mockapi.ResponsesFailure(400, "invalid_request_error", "the mock refuses")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plain := newRealCodex(t, &mockapi.ResponsesScript{Replies: []mockapi.ResponsesReply{tc.reply}})
			pres := plain.codex("exec", "what is the answer?")
			rc := newRealCodex(t, &mockapi.ResponsesScript{Replies: []mockapi.ResponsesReply{tc.reply}})
			res := rc.hooksup("--config", rc.config(`mode = "auto"`), "codex", "exec", "what is the answer?")
			t.Logf("plain codex: exit %d stdout %q in %v", pres.ExitCode, pres.Stdout, pres.Duration)
			t.Logf("hooksup codex: exit %d stdout %q in %v\nstderr: %s", res.ExitCode, res.Stdout, res.Duration, res.Stderr)
			if res.ExitCode != pres.ExitCode || res.Stdout != pres.Stdout {
				t.Fatalf("hooksup codex exec: exit %d stdout %q; plain codex exec: exit %d stdout %q",
					res.ExitCode, res.Stdout, pres.ExitCode, pres.Stdout)
			}
			if len(rc.srv.Model()) != len(plain.srv.Model()) {
				t.Fatalf("%d model requests under hooksup, %d plain", len(rc.srv.Model()), len(plain.srv.Model()))
			}
			if tc.name != "answer" {
				return
			}
			if res.ExitCode != 0 || res.Stdout != "The answer is 42.\n" {
				t.Fatalf("exit %d stdout %q", res.ExitCode, res.Stdout)
			}
			if got := decisions(rc.verdicts()); got != "Stop:allow/nochecks" {
				t.Fatalf("verdicts: %s\nstderr: %s\nlog: %s", got, res.Stderr, rc.log())
			}
			v := rc.verdicts()[0]
			if v.SessionID == "" || v.Agent != "codex" || v.Observation == nil || v.Observation.LastMessage != "The answer is 42." {
				t.Fatalf("verdict %+v", v)
			}
			if log := rc.hooksup("log"); !strings.Contains(log.Stdout, "session "+v.SessionID+" (codex)") {
				t.Fatalf("hooksup log does not name the agent:\n%s", log.Stdout)
			}
			if !strings.Contains(res.Stderr, "hooksup: Stop → allow (no checks) 0/3") {
				t.Fatalf("stderr %q", res.Stderr)
			}
			if files := rc.hooksFiles(); len(files) > 0 {
				t.Fatalf("hooksup left hook files in CODEX_HOME: %v", files)
			}
		})
	}
}

// (b) A check that fails once: Codex continues once, the next model request carries the check's
// reason, and the verdicts are block then allow.
func TestCodexCheckFailsOnce(t *testing.T) {
	rc := newRealCodex(t, &mockapi.ResponsesScript{Replies: []mockapi.ResponsesReply{
		mockapi.OutputText("Done, I think."), mockapi.OutputText("Fixed it."),
	}})
	marker := filepath.Join(rc.env.Home, "failed-once")
	cfg := rc.config(`mode = "auto"
[[stop.checks]]
name = "once"
command = "test -f ` + marker + ` || { touch ` + marker + `; echo CHECK-REASON-7Q; exit 1; }"
retry_on_failure = true
`)
	res := rc.hooksup("--config", cfg, "codex", "exec", "fix the tests")
	if res.ExitCode != 0 || res.Stdout != "Fixed it.\n" {
		t.Fatalf("exit %d stdout %q\nstderr: %s", res.ExitCode, res.Stdout, res.Stderr)
	}
	if got := decisions(rc.verdicts()); got != "Stop:block/check:once Stop:allow/checks" {
		t.Fatalf("verdicts: %s\nstderr: %s", got, res.Stderr)
	}
	reqs := rc.srv.Model()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	if reason := reqs[1].LastHookPrompt(); !strings.Contains(reason, "CHECK-REASON-7Q") {
		t.Fatalf("the second request's hook prompt is %q, want the check's output", reason)
	}
	if reqs[0].LastHookPrompt() != "" {
		t.Fatalf("the first request already carries a hook prompt: %q", reqs[0].LastHookPrompt())
	}
	// The transcript was followed: the verdict saw Codex's tokens and its last message.
	v := rc.verdicts()[1]
	if v.Observation == nil || v.Observation.LastMessage != "Fixed it." || v.Observation.OutputTokens == 0 || v.Observation.Model != "mock-model" {
		t.Fatalf("observation %+v", v.Observation)
	}
}

// (c) A check that always fails: exactly max_continuations blocks, then allow by the limit.
func TestCodexCheckAlwaysFails(t *testing.T) {
	rc := newRealCodex(t, &mockapi.ResponsesScript{Replies: []mockapi.ResponsesReply{mockapi.OutputText("Still broken.")}})
	cfg := rc.config(`mode = "auto"
[stop]
max_continuations = 2
[[stop.checks]]
name = "never"
command = "echo NEVER-PASSES; exit 1"
retry_on_failure = true
`)
	res := rc.hooksup("--config", cfg, "codex", "exec", "fix the tests")
	if res.ExitCode != 0 || res.Stdout != "Still broken.\n" {
		t.Fatalf("exit %d stdout %q\nstderr: %s", res.ExitCode, res.Stdout, res.Stderr)
	}
	if got := decisions(rc.verdicts()); got != "Stop:block/check:never Stop:block/check:never Stop:allow/limit" {
		t.Fatalf("verdicts: %s\nstderr: %s", got, res.Stderr)
	}
	if n := len(rc.srv.Model()); n != 3 {
		t.Fatalf("%d model requests, want 3", n)
	}
}

// (e) The supervisor's socket gone: Codex's next hook finds nothing to talk to, allows, and
// Codex finishes; the hook says why in hooksup's log.
func TestCodexFailsOpenWithoutTheSocket(t *testing.T) {
	rc := newRealCodex(t, &mockapi.ResponsesScript{Replies: []mockapi.ResponsesReply{
		mockapi.OutputText("First try."), mockapi.OutputText("Second try."),
	}})
	// The check removes the session's socket and blocks: Codex continues, and its next Stop
	// hook has no supervisor to ask.
	cfg := rc.config(`mode = "auto"
[[stop.checks]]
name = "unplug"
command = "rm -f ` + filepath.Join(rc.run, "hooksup") + `/*.sock; echo UNPLUGGED; exit 1"
retry_on_failure = true
`)
	res := rc.hooksup("--config", cfg, "codex", "exec", "go")
	if res.ExitCode != 0 || res.Stdout != "Second try.\n" {
		t.Fatalf("exit %d stdout %q\nstderr: %s", res.ExitCode, res.Stdout, res.Stderr)
	}
	if got := decisions(rc.verdicts()); got != "Stop:block/check:unplug" {
		t.Fatalf("verdicts: %s", got)
	}
	if n := len(rc.srv.Model()); n != 2 {
		t.Fatalf("%d model requests, want 2", n)
	}
	if log := rc.log(); !strings.Contains(log, "hook Stop: supervisor unreachable") {
		t.Fatalf("hooksup.log does not say the Stop hook failed open:\n%s", log)
	}
}

// newRealCodexTUI is a real-Codex environment for tests in tmux: the tmux server cannot join
// the tests' network namespace, so the mock listens on the host's loopback.
func newRealCodexTUI(t *testing.T, h mockapi.ResponsesHandler) *realCodex {
	t.Helper()
	requireTmux(t)
	rc := newRealCodexOpts(t, h)
	rc.env.Setenv("TERM", "xterm-256color")
	rc.env.Setenv("HOOKSUP_CODEX_BIN", rc.env.Codex)
	return rc
}

// typeIntoCodex types text into Codex's composer until it shows there.
func typeIntoCodex(t testing.TB, tm *tmuxSession, text string) {
	t.Helper()
	typeAfter(t, tm, "› ", text)
}

// (d) The TUI in ask mode: the check's proposal waits as a question on screen; Escape reaches
// Codex, which stops its turn, and the verdict is allow by Escape with no further request.
func TestCodexTUIAskEscape(t *testing.T) {
	rc := newRealCodexTUI(t, &mockapi.ResponsesScript{Replies: []mockapi.ResponsesReply{
		mockapi.OutputText("ANSWER-ONE"), mockapi.OutputText("WRONG: A CONTINUATION"),
	}})
	cfg := rc.config(`
mode = "ask"
[[stop.checks]]
name = "tests"
command = "echo 'FAIL: TestCodexTUI'; exit 1"
retry_on_failure = true
`)
	tm := startTmux(t, 160, 45, rc.env.Environ(), rc.env.WorkDir, hooksupBin, "--config", cfg, "codex")
	const wait = 45 * time.Second
	tm.waitText(wait, "hooksup codex", "Ask Codex to do anything")

	typeIntoCodex(t, tm, "first prompt")
	tm.keys("Enter")
	scr := tm.waitText(wait, "ANSWER-ONE", "⚑ codex wants to stop", "FAIL: TestCodexTUI", "esc")
	t.Logf("the question:\n%s", scr)

	tm.keys("Escape")
	tm.waitText(wait, "allow escape")
	time.Sleep(time.Second)
	if reqs := rc.srv.Model(); len(reqs) != 1 {
		for i, r := range reqs {
			t.Logf("request %d: last input %q, hook prompt %q", i, r.LastInputText(), r.LastHookPrompt())
		}
		t.Fatalf("codex made %d model requests after Escape, want 1\nverdicts %s\nscreen:\n%s\nlog:\n%s", len(reqs), decisions(rc.verdicts()), tm.screen(), rc.log())
	}
	if scr = tm.screen(); strings.Contains(scr, "codex wants to stop") {
		t.Fatalf("question still shown after Escape:\n%s", scr)
	}
	if got := decisions(rc.verdicts()); got != "Interrupted:allow/escape Stop:allow/escape" {
		t.Fatalf("verdicts %s\nscreen:\n%s", got, tm.screen())
	}

	// Codex's own keys reach it: /quit ends it, and its parting hint resumes under hooksup.
	typeIntoCodex(t, tm, "/quit")
	tm.keys("Enter")
	tm.waitText(wait, "codex exited with status 0", "  hooksup codex resume ", "Or run hooksup codex resume and select")
	tm.keys("q")
	tm.waitText(wait, "[exited 0]")
}

// The TUI in ask mode, answered by the person: approved, the check's reason reaches Codex as its
// next prompt (the verdict is block by the person), and the check passes on the continuation;
// denied, Codex stops with no further request; edited, the reason as the person wrote it, its
// line breaks kept, is Codex's next prompt.
func TestCodexTUIAskApprove(t *testing.T) {
	rc := newRealCodexTUI(t, &mockapi.ResponsesScript{Replies: []mockapi.ResponsesReply{
		mockapi.OutputText("ANSWER-ONE"), mockapi.OutputText("ANSWER-ONE-FIXED"),
		mockapi.OutputText("ANSWER-TWO"), mockapi.OutputText("ANSWER-THREE"), mockapi.OutputText("ANSWER-EDITED"),
	}})
	cfg := rc.config(`
mode = "ask"
[[stop.checks]]
name = "tests"
command = "if [ \"$HOOKSUP_STOP_HOOK_ACTIVE\" = true ]; then echo ok; else echo 'FAIL: TestCodexApprove'; exit 1; fi"
`)
	tm := startTmux(t, 160, 45, rc.env.Environ(), rc.env.WorkDir, hooksupBin, "--config", cfg, "codex")
	const wait = 45 * time.Second
	tm.waitText(wait, "hooksup codex", "Ask Codex to do anything")

	typeIntoCodex(t, tm, "first prompt")
	tm.keys("Enter")
	tm.waitText(wait, "ANSWER-ONE", "⚑ codex wants to stop", "FAIL: TestCodexApprove")

	// Approve: Codex continues with the check's reason, then stops.
	tm.keys("C-]", "a")
	scr := tm.waitText(wait, "ANSWER-ONE-FIXED", "block manual", "allow checks")
	if strings.Contains(scr, "codex wants to stop") {
		t.Fatalf("question still shown after approval:\n%s", scr)
	}
	reqs := rc.srv.Model()
	if len(reqs) != 2 || !strings.Contains(reqs[1].LastHookPrompt(), "FAIL: TestCodexApprove") || reqs[0].LastHookPrompt() != "" {
		for i, r := range reqs {
			t.Logf("request %d: last input %q, hook prompt %q", i, r.LastInputText(), r.LastHookPrompt())
		}
		t.Fatalf("%d model requests after approval, want 2, the second carrying the check's reason", len(reqs))
	}

	// Deny: Codex stops; no continuation request.
	typeIntoCodex(t, tm, "second prompt")
	tm.keys("Enter")
	tm.waitText(wait, "ANSWER-TWO", "⚑ codex wants to stop")
	tm.keys("C-]", "d")
	tm.waitText(wait, "allow manual")
	time.Sleep(time.Second)
	if n := len(rc.srv.Model()); n != 3 {
		t.Fatalf("codex made %d model requests after a denied continuation, want 3\nscreen:\n%s", n, tm.screen())
	}
	if scr = tm.screen(); strings.Contains(scr, "codex wants to stop") {
		t.Fatalf("question still shown after denial:\n%s", scr)
	}

	// Edit: two lines more, then send.
	typeIntoCodex(t, tm, "third prompt")
	tm.keys("Enter")
	tm.waitText(wait, "ANSWER-THREE", "⚑ codex wants to stop")
	tm.keys("C-]", "e")
	tm.waitText(wait, "ctrl+c cancel edit")
	tm.text("ALSO-LINE-ONE") // on the line below the reason, where the editor starts
	tm.keys("C-j")
	tm.text("ALSO-LINE-TWO")
	tm.keys("Enter")
	tm.waitText(wait, "ANSWER-EDITED")
	reqs = rc.srv.Model()
	if len(reqs) != 5 {
		t.Fatalf("%d model requests after the edit, want 5", len(reqs))
	}
	if got := reqs[4].LastHookPrompt(); !strings.Contains(got, "FAIL: TestCodexApprove\nALSO-LINE-ONE\nALSO-LINE-TWO") {
		t.Fatalf("codex read %q: not the edited reason with its line breaks", got)
	}
	tm.waitFor("the verdicts", wait, func(string) bool { return len(rc.verdicts()) == 5 })
	if got := decisions(rc.verdicts()); got != "Stop:block/manual Stop:allow/checks Stop:allow/manual Stop:block/manual Stop:allow/checks" {
		t.Fatalf("verdicts %s\nscreen:\n%s", got, tm.screen())
	}
}

// hooksup install --agent codex: plain codex runs the project's checks itself (standalone),
// the hooks are in $CODEX_HOME/hooks.json and trusted in its config.toml, and uninstall removes
// them again, and the entries that trusted them: config.toml is again what it was, the
// person's own trust entries and comments included.
func TestCodexInstalledStandalone(t *testing.T) {
	rc := newRealCodex(t, &mockapi.ResponsesScript{Replies: []mockapi.ResponsesReply{
		mockapi.OutputText("first"), mockapi.OutputText("second"), mockapi.OutputText("third"),
	}})
	marker := filepath.Join(rc.env.Home, "once")
	os.WriteFile(filepath.Join(rc.env.WorkDir, ".hooksup.toml"), []byte(`
mode = "auto"
[[stop.checks]]
name = "tests"
command = "test -f `+marker+` || { touch `+marker+`; echo 'FAIL: TestStandalone'; exit 1; }"
retry_on_failure = true
`), 0o644)
	// The person's own: a hook of theirs in config.toml, trusted, and comments.
	if err := rc.env.AppendConfig(`# my own Stop hook
[[hooks.Stop]]
hooks = [{ type = "command", command = "true" }]

[hooks.state."` + filepath.Join(rc.env.CodexHome, "config.toml") + `:stop:0:0"]
# trusted by me
trusted_hash = "sha256:0000000000000000000000000000000000000000000000000000000000000000"
# the end of my config`); err != nil {
		t.Fatal(err)
	}
	configBefore, err := os.ReadFile(filepath.Join(rc.env.CodexHome, "config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"trust"}, {"install", "--agent", "codex"}} {
		if res := rc.hooksup(args...); res.ExitCode != 0 {
			t.Fatalf("hooksup %v: %s %s", args, res.Stdout, res.Stderr)
		}
	}
	res := rc.codex("exec", "go")
	if res.ExitCode != 0 || res.Stdout != "second\n" {
		t.Fatalf("exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	reqs := rc.srv.Model()
	if len(reqs) != 2 || !strings.Contains(reqs[1].LastHookPrompt(), "FAIL: TestStandalone") {
		t.Fatalf("%d requests; the second's hook prompt %q", len(reqs), reqs[len(reqs)-1].LastHookPrompt())
	}
	if got := decisions(rc.verdicts()); got != "Stop:block/check:tests Stop:allow/checks" {
		t.Fatalf("verdicts %s", got)
	}
	// Installing again changes nothing.
	config, _ := os.ReadFile(filepath.Join(rc.env.CodexHome, "config.toml"))
	if res := rc.hooksup("install", "--agent", "codex"); res.ExitCode != 0 || !strings.Contains(res.Stdout, "already installed") {
		t.Fatalf("install again: %s %s", res.Stdout, res.Stderr)
	}
	if again, _ := os.ReadFile(filepath.Join(rc.env.CodexHome, "config.toml")); string(again) != string(config) {
		t.Fatalf("install again changed config.toml:\n%s", again)
	}
	// Uninstalled, plain codex runs no check.
	if res := rc.hooksup("uninstall", "--agent", "codex"); res.ExitCode != 0 {
		t.Fatalf("uninstall: %s %s", res.Stdout, res.Stderr)
	}
	os.Remove(marker)
	if res := rc.codex("exec", "go"); res.ExitCode != 0 || res.Stdout != "third\n" {
		t.Fatalf("after uninstall: exit %d stdout %q", res.ExitCode, res.Stdout)
	}
	if got := decisions(rc.verdicts()); got != "Stop:block/check:tests Stop:allow/checks" {
		t.Fatalf("a check ran after uninstall: verdicts %s", got)
	}
	if after, _ := os.ReadFile(filepath.Join(rc.env.CodexHome, "config.toml")); string(after) != string(configBefore) {
		t.Fatalf("config.toml after uninstall:\n%s\nbefore install:\n%s", after, configBefore)
	}
}

// hooksup's -c overrides come after the person's: a -c hooks.Stop of theirs cannot drop
// hooksup's Stop hook (hooksup says theirs is replaced), and one that turns Codex's hooks off
// makes hooksup say that codex is not running its hooks.
func TestCodexUsersOwnHookOverrides(t *testing.T) {
	t.Run("hooks.Stop", func(t *testing.T) {
		rc := newRealCodex(t, &mockapi.ResponsesScript{Replies: []mockapi.ResponsesReply{mockapi.OutputText("The answer is 42.")}})
		res := rc.hooksup("--config", rc.config(`mode = "auto"`), "codex", "-c", `hooks.Stop=[{hooks=[{type="command",command="true"}]}]`, "exec", "what is the answer?")
		if res.ExitCode != 0 || res.Stdout != "The answer is 42.\n" {
			t.Fatalf("exit %d stdout %q\nstderr: %s", res.ExitCode, res.Stdout, res.Stderr)
		}
		if got := decisions(rc.verdicts()); got != "Stop:allow/nochecks" {
			t.Fatalf("verdicts: %s\nstderr: %s", got, res.Stderr)
		}
		if !strings.Contains(res.Stderr, "is replaced for this run by hooksup's own hooks") {
			t.Fatalf("no word of the replaced -c on stderr:\n%s", res.Stderr)
		}
	})
	t.Run("hooks off", func(t *testing.T) {
		rc := newRealCodex(t, &mockapi.ResponsesScript{Replies: []mockapi.ResponsesReply{mockapi.OutputText("UNSUPERVISED-REPLY")}})
		res := rc.hooksup("--config", rc.config(`mode = "auto"`), "codex", "--disable", "hooks", "exec", "hi")
		if res.ExitCode != 0 || res.Stdout != "UNSUPERVISED-REPLY\n" {
			t.Fatalf("exit %d stdout %q\nstderr: %s", res.ExitCode, res.Stdout, res.Stderr)
		}
		if !strings.Contains(res.Stderr, "hooksup: "+supervisor.NotRunning("codex")+": its transcript shows a reply, but no hook reached hooksup") {
			t.Fatalf("stderr does not say codex is not running hooksup's hooks:\n%s", res.Stderr)
		}
		if got := decisions(rc.verdicts()); got != "" {
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
	rc := newRealCodex(t, nil)
	if err := rc.env.AppendConfig("[[hooks.Stop]]\nhooks = [{ type = \"command\", command = \"mine.sh\" }]"); err != nil {
		t.Fatal(err)
	}
	res := rc.hooksup("doctor")
	for _, want := range []string{
		"codex\n  ✓ " + rc.env.BinDir + "/codex: Codex 0.169.0 (hooksup supports 0.169.0 and newer)",
		"hooksup codex defines its own hooks with -c for its session and trusts exactly those (nothing is written): SessionStart,",
		"Codex reads hooks of its own from " + rc.env.ConfigPath() + " [hooks]",
	} {
		if !strings.Contains(res.Stdout, want) {
			t.Errorf("doctor does not say %q:\n%s", want, res.Stdout)
		}
	}
	// Without codex, doctor says so, and it is no problem of its own.
	rc.env.Setenv("HOOKSUP_CODEX_BIN", filepath.Join(rc.env.Home, "no-codex"))
	res = rc.hooksup("doctor")
	if !strings.Contains(res.Stdout, "no-codex not found (only hooksup codex needs it") {
		t.Errorf("doctor without codex:\n%s", res.Stdout)
	}
}
