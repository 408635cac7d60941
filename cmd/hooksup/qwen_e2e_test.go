package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// End-to-end tests with the real Qwen Code (HOOKSUP_TEST_QWEN, on a node 22) offline, against
// the mock Chat Completions API in a throwaway HOME.

// realQwen is one test's qwen: the mock it talks to, its environment, and hooksup's state and
// runtime directories.
type realQwen struct {
	hooksupEnv
	srv *mockapi.ChatServer
	env *mockapi.QwenEnv
}

func newRealQwen(t *testing.T, replies ...mockapi.ChatReply) *realQwen {
	t.Helper()
	srv := mockapi.NewChatServer(t, &mockapi.ChatScript{Replies: replies}, mockapi.WithNetNS(), mockapi.WithQuiet())
	env := mockapi.NewQwenEnv(t, srv.URL, "")
	return &realQwen{hooksupEnv: newHooksupEnv(t, "hq", env.Home, env.Setenv, srv.Run, env.Command), srv: srv, env: env}
}

// qwen runs plain qwen with args and waits for it.
func (rq *realQwen) qwen(args ...string) mockapi.Result {
	rq.t.Helper()
	return rq.runBounded("qwen", rq.env.Qwen, args...)
}

// turnTexts are the last user texts of the turn requests qwen sent.
func (rq *realQwen) turnTexts() []string {
	var out []string
	for _, r := range rq.srv.Turns() {
		out = append(out, r.LastUserText())
	}
	return out
}

// (a) A check that fails once: qwen continues once, the next request carries the check's reason,
// the verdicts are block then allow, in one turn, each seeing qwen's reply, model and tokens.
func TestQwenCheckFailsOnce(t *testing.T) {
	rq := newRealQwen(t, mockapi.ChatText("Done, I think."), mockapi.ChatText("Fixed it."))
	marker := filepath.Join(rq.env.Home, "failed-once")
	cfg := rq.config(`mode = "auto"
[[stop.checks]]
name = "once"
command = "test -f ` + marker + ` || { touch ` + marker + `; echo CHECK-REASON-7Q; exit 1; }"
retry_on_failure = true
`)
	res := rq.hooksup("--config", cfg, "qwen", "-p", "fix the tests")
	t.Logf("hooksup qwen -p: exit %d in %v\nstdout %q\nstderr: %s", res.ExitCode, res.Duration, res.Stdout, res.Stderr)
	if res.ExitCode != 0 || !strings.Contains(res.Stdout, "Fixed it.") {
		t.Fatalf("exit %d stdout %q\nstderr: %s", res.ExitCode, res.Stdout, res.Stderr)
	}
	vs := rq.verdicts()
	if got := decisions(vs); got != "Stop:block/check:once Stop:allow/checks" {
		t.Fatalf("verdicts: %s\nstderr: %s\nlog: %s", got, res.Stderr, rq.log())
	}
	texts := rq.turnTexts()
	if len(texts) != 2 || strings.Contains(texts[0], "CHECK-REASON-7Q") || !strings.Contains(texts[1], "CHECK-REASON-7Q") {
		t.Fatalf("turn requests end with %q, want the check's reason in the second only", texts)
	}
	for i, want := range []string{"Done, I think.", "Fixed it."} {
		o := vs[i].Observation
		if o == nil || o.LastMessage != want || o.Model != mockapi.QwenModel || o.OutputTokens == 0 {
			t.Fatalf("verdict %d: observation %+v, want the last message %q", i, o, want)
		}
	}
	if vs[1].Turn != vs[0].Turn || vs[1].Continuations != 1 || vs[0].Agent != "qwen" {
		t.Fatalf("the continuation is not the same turn: %+v", vs[1])
	}
	if !strings.Contains(res.Stderr, "hooksup: Stop → block") {
		t.Fatalf("stderr says no block:\n%s", res.Stderr)
	}
	// The Stop round trip: from the first reply's end to the continuation's request (qwen's hook
	// process, hooksup's decision with its check, and qwen sending the reason back).
	turns := rq.srv.Turns()
	t.Logf("stop round trip (first reply requested → continuation requested): %v; the hook asked → decided: %v",
		turns[1].Time.Sub(turns[0].Time), vs[0].Time.Sub(vs[0].Asked))
}

// (b) A check that always fails: exactly max_continuations blocks (within qwen's own cap of 7),
// then the limit lets qwen stop.
func TestQwenCheckAlwaysFails(t *testing.T) {
	rq := newRealQwen(t, mockapi.ChatText("Still broken."), mockapi.ChatText("Still broken."), mockapi.ChatText("Still broken."))
	cfg := rq.config(`mode = "auto"
[stop]
max_continuations = 2
[[stop.checks]]
name = "never"
command = "echo NEVER-PASSES; exit 1"
retry_on_failure = true
`)
	res := rq.hooksup("--config", cfg, "qwen", "-p", "fix the tests")
	if res.ExitCode != 0 {
		t.Fatalf("exit %d stdout %q\nstderr: %s", res.ExitCode, res.Stdout, res.Stderr)
	}
	if got := decisions(rq.verdicts()); got != "Stop:block/check:never Stop:block/check:never Stop:allow/limit" {
		t.Fatalf("verdicts: %s\nstderr: %s", got, res.Stderr)
	}
	if texts := rq.turnTexts(); len(texts) != 3 || !strings.Contains(texts[2], "NEVER-PASSES") {
		t.Fatalf("turn requests end with %q, want 3, the last with the reason", texts)
	}
	if strings.Contains(res.Stderr, "consecutive times") {
		t.Fatalf("qwen's own cap ended the turn, not hooksup's limit:\n%s", res.Stderr)
	}
}

// (d) The supervisor's socket gone: qwen's next Stop hook finds nothing to talk to, allows, and
// qwen finishes; the hook says why in hooksup's log.
func TestQwenFailsOpenWithoutTheSocket(t *testing.T) {
	rq := newRealQwen(t, mockapi.ChatText("First try."), mockapi.ChatText("Second try."), mockapi.ChatText("NEVER-SENT"))
	cfg := rq.config(`mode = "auto"
[[stop.checks]]
name = "unplug"
command = "rm -f ` + filepath.Join(rq.run, "hooksup") + `/*.sock; echo UNPLUGGED; exit 1"
retry_on_failure = true
`)
	res := rq.hooksup("--config", cfg, "qwen", "-p", "go")
	if res.ExitCode != 0 || res.Stdout != "First try.Second try.\n" {
		t.Fatalf("exit %d stdout %q\nstderr: %s", res.ExitCode, res.Stdout, res.Stderr)
	}
	if got := decisions(rq.verdicts()); got != "Stop:block/check:unplug" {
		t.Fatalf("verdicts: %s", got)
	}
	if n := len(rq.srv.Turns()); n != 2 {
		t.Fatalf("%d turn requests, want 2", n)
	}
	if log := rq.log(); !strings.Contains(log, "hook Stop: supervisor unreachable") {
		t.Fatalf("hooksup.log does not say the Stop hook failed open:\n%s", log)
	}
}

// (e) The person's ~/.qwen files are the same bytes after a session (hooksup's hooks reached
// qwen through system defaults of its own, which are gone with the session).
func TestQwenLeavesYourFilesAlone(t *testing.T) {
	rq := newRealQwen(t, mockapi.ChatText("Done."))
	before, err := os.ReadFile(rq.env.SettingsPath())
	if err != nil {
		t.Fatal(err)
	}
	res := rq.hooksup("--config", rq.config(`mode = "auto"`), "qwen", "-p", "hi")
	if res.ExitCode != 0 || res.Stdout != "Done.\n" {
		t.Fatalf("exit %d stdout %q\nstderr: %s", res.ExitCode, res.Stdout, res.Stderr)
	}
	if got := decisions(rq.verdicts()); got != "Stop:allow/nochecks" {
		t.Fatalf("verdicts: %s (hooksup's hooks did not run)", got)
	}
	if after, _ := os.ReadFile(rq.env.SettingsPath()); !bytes.Equal(after, before) {
		t.Fatalf("settings.json changed:\n%s\nwas\n%s", after, before)
	}
	if left, _ := filepath.Glob(filepath.Join(rq.run, "hooksup", "*qwen*")); len(left) != 0 {
		t.Fatalf("the session's files are left: %v", left)
	}
}

// (g) The person's disableAllHooks, and --bare, turn qwen's hooks off, hooksup's too: hooksup says
// the gate is off for the run.
func TestQwenSaysWhenHooksAreOff(t *testing.T) {
	rq := newRealQwen(t, mockapi.ChatText("Done."), mockapi.ChatText("Done again."))
	settings := `{"$version": 4, "disableAllHooks": true, "privacy": {"usageStatisticsEnabled": false}, "telemetry": {"enabled": false}, "general": {"enableAutoUpdate": false}}`
	if err := os.WriteFile(rq.env.SettingsPath(), []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := rq.config(`mode = "auto"`)
	res := rq.hooksup("--config", cfg, "qwen", "-p", "hi")
	if res.ExitCode != 0 || !strings.Contains(res.Stderr, "disableAllHooks in "+rq.env.SettingsPath()+" turns every hook of qwen's off, hooksup's too") {
		t.Fatalf("exit %d\nstderr: %s", res.ExitCode, res.Stderr)
	}
	if got := decisions(rq.verdicts()); got != "" {
		t.Fatalf("verdicts with hooks off: %s", got)
	}
	os.WriteFile(rq.env.SettingsPath(), []byte(`{"$version": 4}`), 0o644)
	res = rq.hooksup("--config", cfg, "qwen", "--bare", "-p", "hi")
	if !strings.Contains(res.Stderr, "your --bare turns every hook of qwen's off, hooksup's too") {
		t.Fatalf("exit %d\nstderr: %s", res.ExitCode, res.Stderr)
	}
}

// (i) hooksup install --agent qwen: plain qwen -p has its stops decided by the project's checks
// (standalone); uninstall gives settings.json back byte for byte.
func TestQwenInstalledStandalone(t *testing.T) {
	rq := newRealQwen(t, mockapi.ChatText("first"), mockapi.ChatText("second"), mockapi.ChatText("third"))
	marker := filepath.Join(rq.env.Home, "once")
	os.WriteFile(filepath.Join(rq.env.WorkDir, ".hooksup.toml"), []byte(`
mode = "auto"
[[stop.checks]]
name = "tests"
command = "test -f `+marker+` || { touch `+marker+`; echo 'FAIL: TestStandalone'; exit 1; }"
retry_on_failure = true
`), 0o644)
	before, err := os.ReadFile(rq.env.SettingsPath())
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"trust"}, {"install", "--agent", "qwen"}} {
		if res := rq.hooksup(args...); res.ExitCode != 0 {
			t.Fatalf("hooksup %v: %s %s", args, res.Stdout, res.Stderr)
		}
	}
	res := rq.qwen("-p", "go")
	if res.ExitCode != 0 || res.Stdout != "firstsecond\n" {
		t.Fatalf("exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	if texts := rq.turnTexts(); len(texts) != 2 || !strings.Contains(texts[1], "FAIL: TestStandalone") {
		t.Fatalf("turn requests end with %q", texts)
	}
	if got := decisions(rq.verdicts()); got != "Stop:block/check:tests Stop:allow/checks" {
		t.Fatalf("verdicts %s", got)
	}
	if res := rq.hooksup("uninstall", "--agent", "qwen"); res.ExitCode != 0 {
		t.Fatalf("uninstall: %s %s", res.Stdout, res.Stderr)
	}
	if after, _ := os.ReadFile(rq.env.SettingsPath()); !bytes.Equal(after, before) {
		t.Fatalf("settings.json after uninstall:\n%s\nbefore install:\n%s", after, before)
	}
	os.Remove(marker)
	if res := rq.qwen("-p", "go"); res.ExitCode != 0 || res.Stdout != "third\n" {
		t.Fatalf("after uninstall: exit %d stdout %q", res.ExitCode, res.Stdout)
	}
	if got := decisions(rq.verdicts()); got != "Stop:block/check:tests Stop:allow/checks" {
		t.Fatalf("a check ran after uninstall: verdicts %s", got)
	}
}

// repoStopHook writes the work folder's .qwen/settings.json with a Stop hook of the project's own
// that blocks once with reason, as a cloned repository may carry.
func repoStopHook(t *testing.T, rq *realQwen, reason string) {
	t.Helper()
	once := filepath.Join(rq.env.Home, "repo-once")
	if err := os.MkdirAll(filepath.Join(rq.env.WorkDir, ".qwen"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(rq.env.WorkDir, ".qwen", "settings.json"), []byte(`{"$version": 4, "hooks": {"Stop": [{"hooks": [{"type": "command",
  "command": "test -f `+once+` || { touch `+once+`; echo '{\"decision\":\"block\",\"reason\":\"`+reason+`\"}'; }"}]}]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
}

// otherHookLines are the lines of `hooksup log` that tell of another hook.
func (rq *realQwen) otherHookLines() []string {
	rq.t.Helper()
	res := rq.hooksup("log")
	var out []string
	for _, l := range strings.Split(res.Stdout, "\n") {
		if strings.Contains(l, "other hook") {
			out = append(out, l)
		}
	}
	return out
}

// (f) A project's own .qwen/settings.json Stop hook that blocks once, while a check fails once:
// hooksup says at start that qwen runs it; qwen continues with its reason joined with hooksup's,
// which is the same turn and one continuation; the verdict log, `hooksup log` and the headless
// lines show that hook's block as another hook's verdict at the stop, with its reason alone. A
// tool call before the first stop (qwen fires UserPromptSubmit for the tool's result) starts no
// turn either.
func TestQwenProjectStopHookIsAnotherHooksVerdict(t *testing.T) {
	rq := newRealQwen(t, mockapi.QwenShell("echo hi", "say hi"), mockapi.ChatText("Done, I think."), mockapi.ChatText("Fixed it."))
	repoStopHook(t, rq, "REPO-HOOK-REASON")
	marker := filepath.Join(rq.env.Home, "check-once")
	cfg := rq.config(`mode = "auto"
[[stop.checks]]
name = "once"
command = "test -f ` + marker + ` || { touch ` + marker + `; echo CHECK-REASON-7Q; exit 1; }"
retry_on_failure = true
`)
	res := rq.hooksup("--config", cfg, "qwen", "-p", "fix the tests")
	if res.ExitCode != 0 || !strings.Contains(res.Stderr, "has 1 Stop hook(s) of the project's own: qwen runs them without asking") {
		t.Fatalf("exit %d\nstderr: %s", res.ExitCode, res.Stderr)
	}
	texts := rq.turnTexts()
	if len(texts) != 3 || !strings.Contains(texts[2], "REPO-HOOK-REASON") || !strings.Contains(texts[2], "CHECK-REASON-7Q") {
		t.Fatalf("turn requests end with %q, want both reasons in the third", texts)
	}
	vs := rq.verdicts()
	if got := decisions(vs); got != "Stop:block/check:once OtherHooks:block/hooks Stop:allow/checks" {
		t.Fatalf("verdicts %s\nstderr: %s", got, res.Stderr)
	}
	for _, v := range vs {
		if v.Turn != 1 {
			t.Fatalf("verdict %s/%s in turn %d, want all in the first", v.Event, v.Source, v.Turn)
		}
	}
	if vs[2].Continuations != 1 {
		t.Fatalf("the stop after the joined prompt counts %d continuations, want 1", vs[2].Continuations)
	}
	other := vs[1]
	if other.Stop != vs[0].Stop || len(other.OtherHooks) != 1 || !other.OtherHooks[0].Blocked || other.OtherHooks[0].Reason != "REPO-HOOK-REASON" {
		t.Fatalf("the other hook's entry: %+v", other)
	}
	if !strings.Contains(res.Stderr, "other hook") || !strings.Contains(res.Stderr, "blocked: REPO-HOOK-REASON") {
		t.Fatalf("the headless lines do not tell of the project's hook:\n%s", res.Stderr)
	}
	if l := rq.otherHookLines(); len(l) != 1 || !strings.Contains(l[0], "blocked: REPO-HOOK-REASON") || strings.Contains(l[0], "CHECK-REASON") {
		t.Fatalf("hooksup log tells of other hooks: %q", l)
	}
}

// (f) hooksup lets qwen stop but the project's own Stop hook blocks once: qwen continues in the
// same turn with that hook's reason alone, and hooksup shows it as another hook's block that made
// qwen continue, not as a new turn of the person's.
func TestQwenProjectStopHookBlocksAlone(t *testing.T) {
	rq := newRealQwen(t, mockapi.ChatText("Done, I think."), mockapi.ChatText("Fixed it."))
	repoStopHook(t, rq, "REPO-HOOK-REASON")
	res := rq.hooksup("--config", rq.config(`mode = "auto"`), "qwen", "-p", "fix the tests")
	if res.ExitCode != 0 {
		t.Fatalf("exit %d\nstderr: %s", res.ExitCode, res.Stderr)
	}
	if texts := rq.turnTexts(); len(texts) != 2 || texts[1] != "REPO-HOOK-REASON" {
		t.Fatalf("turn requests end with %q", texts)
	}
	vs := rq.verdicts()
	if got := decisions(vs); got != "Stop:allow/nochecks OtherHooks:block/hooks Stop:allow/nochecks" {
		t.Fatalf("verdicts %s\nstderr: %s", got, res.Stderr)
	}
	if vs[0].Turn != vs[2].Turn {
		t.Fatalf("the project hook's continuation counted as a new turn: %d then %d", vs[0].Turn, vs[2].Turn)
	}
	if l := rq.otherHookLines(); len(l) != 1 || !strings.Contains(l[0], "blocked: REPO-HOOK-REASON") {
		t.Fatalf("hooksup log tells of other hooks: %q", l)
	}
}
