package agents

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// End-to-end tests with the real Qwen Code (HOOKSUP_TEST_QWEN, on a node 22) offline, against
// the mock Chat Completions API in a throwaway HOME.

// realQwen is one test's qwen: the mock it talks to, its environment, and hooksup's state and
// runtime directories.
type realQwen struct {
	e2e.HooksupEnv
	srv *mockapi.ChatServer
	env *mockapi.QwenEnv
}

func newRealQwen(t *testing.T, replies ...mockapi.ChatReply) *realQwen {
	t.Helper()
	srv := mockapi.NewChatServer(t, &mockapi.ChatScript{Replies: replies}, mockapi.WithNetNS(), mockapi.WithQuiet())
	env := mockapi.NewQwenEnv(t, srv.URL, "")
	return &realQwen{HooksupEnv: e2e.NewHooksupEnv(t, "hq", env.Home, env.Setenv, srv.Run, env.Command), srv: srv, env: env}
}

// turnTexts are the last user texts of the turn requests qwen sent.
func (rq *realQwen) turnTexts() []string {
	var out []string
	for _, r := range rq.srv.Turns() {
		out = append(out, r.LastUserText())
	}
	return out
}

// (g) The person's disableAllHooks, and --bare, turn qwen's hooks off, hooksup's too: hooksup says
// the gate is off for the run.
func TestQwenSaysWhenHooksAreOff(t *testing.T) {
	t.Parallel()
	rq := newRealQwen(t, mockapi.ChatText("Done."), mockapi.ChatText("Done again."))
	settings := `{"$version": 4, "disableAllHooks": true, "privacy": {"usageStatisticsEnabled": false}, "telemetry": {"enabled": false}, "general": {"enableAutoUpdate": false}}`
	if err := os.WriteFile(rq.env.SettingsPath(), []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := rq.Config(`mode = "auto"`)
	res := rq.Hooksup("--config", cfg, "qwen", "-p", "hi")
	if res.ExitCode != 0 || !strings.Contains(res.Stderr, "disableAllHooks in "+rq.env.SettingsPath()+" turns every hook of qwen's off, hooksup's too") {
		t.Fatalf("exit %d\nstderr: %s", res.ExitCode, res.Stderr)
	}
	if got := e2e.Decisions(rq.Verdicts()); got != "" {
		t.Fatalf("verdicts with hooks off: %s", got)
	}
	os.WriteFile(rq.env.SettingsPath(), []byte(`{"$version": 4}`), 0o644)
	res = rq.Hooksup("--config", cfg, "qwen", "--bare", "-p", "hi")
	if !strings.Contains(res.Stderr, "your --bare turns every hook of qwen's off, hooksup's too") {
		t.Fatalf("exit %d\nstderr: %s", res.ExitCode, res.Stderr)
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
	rq.T.Helper()
	res := rq.Hooksup("log")
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
	t.Parallel()
	rq := newRealQwen(t, mockapi.QwenShell("echo hi", "say hi"), mockapi.ChatText("Done, I think."), mockapi.ChatText("Fixed it."))
	repoStopHook(t, rq, "REPO-HOOK-REASON")
	marker := filepath.Join(rq.env.Home, "check-once")
	cfg := rq.Config(`mode = "auto"
[[stop.checks]]
name = "once"
command = "test -f ` + marker + ` || { touch ` + marker + `; echo CHECK-REASON-7Q; exit 1; }"
retry_on_failure = true
`)
	res := rq.Hooksup("--config", cfg, "qwen", "-p", "fix the tests")
	if res.ExitCode != 0 || !strings.Contains(res.Stderr, "has 1 Stop hook(s) of the project's own: qwen runs them without asking") {
		t.Fatalf("exit %d\nstderr: %s", res.ExitCode, res.Stderr)
	}
	texts := rq.turnTexts()
	if len(texts) != 3 || !strings.Contains(texts[2], "REPO-HOOK-REASON") || !strings.Contains(texts[2], "CHECK-REASON-7Q") {
		t.Fatalf("turn requests end with %q, want both reasons in the third", texts)
	}
	vs := rq.Verdicts()
	if got := e2e.Decisions(vs); got != "Stop:block/check:once OtherHooks:block/hooks Stop:allow/checks" {
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
	t.Parallel()
	rq := newRealQwen(t, mockapi.ChatText("Done, I think."), mockapi.ChatText("Fixed it."))
	repoStopHook(t, rq, "REPO-HOOK-REASON")
	res := rq.Hooksup("--config", rq.Config(`mode = "auto"`), "qwen", "-p", "fix the tests")
	if res.ExitCode != 0 {
		t.Fatalf("exit %d\nstderr: %s", res.ExitCode, res.Stderr)
	}
	if texts := rq.turnTexts(); len(texts) != 2 || texts[1] != "REPO-HOOK-REASON" {
		t.Fatalf("turn requests end with %q", texts)
	}
	vs := rq.Verdicts()
	if got := e2e.Decisions(vs); got != "Stop:allow/nochecks OtherHooks:block/hooks Stop:allow/nochecks" {
		t.Fatalf("verdicts %s\nstderr: %s", got, res.Stderr)
	}
	if vs[0].Turn != vs[2].Turn {
		t.Fatalf("the project hook's continuation counted as a new turn: %d then %d", vs[0].Turn, vs[2].Turn)
	}
	if l := rq.otherHookLines(); len(l) != 1 || !strings.Contains(l[0], "blocked: REPO-HOOK-REASON") {
		t.Fatalf("hooksup log tells of other hooks: %q", l)
	}
}
