package main

import (
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

// (f, in part) A project's own .qwen/settings.json Stop hook that blocks once: hooksup says at
// start that qwen runs it, and qwen continues with its reason joined with hooksup's, which is
// the same turn. (That the
// TUI and the verdict log show it as another hook's verdict is not done yet.)
func TestQwenProjectStopHookIsSaid(t *testing.T) {
	rq := newRealQwen(t, mockapi.ChatText("Done, I think."), mockapi.ChatText("Fixed it."))
	once, marker := filepath.Join(rq.env.Home, "repo-once"), filepath.Join(rq.env.Home, "check-once")
	os.MkdirAll(filepath.Join(rq.env.WorkDir, ".qwen"), 0o755)
	os.WriteFile(filepath.Join(rq.env.WorkDir, ".qwen", "settings.json"), []byte(`{"$version": 4, "hooks": {"Stop": [{"hooks": [{"type": "command",
  "command": "test -f `+once+` || { touch `+once+`; echo '{\"decision\":\"block\",\"reason\":\"REPO-HOOK-REASON\"}'; }"}]}]}}`), 0o644)
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
	if len(texts) != 2 || !strings.Contains(texts[1], "REPO-HOOK-REASON") || !strings.Contains(texts[1], "CHECK-REASON-7Q") {
		t.Fatalf("turn requests end with %q, want both reasons in the second", texts)
	}
	// The joined prompt is the continuation, not a new turn: hooksup's limit counts it.
	vs := rq.verdicts()
	if got := decisions(vs); got != "Stop:block/check:once Stop:allow/checks" || vs[1].Turn != vs[0].Turn || vs[1].Continuations != 1 {
		t.Fatalf("verdicts %s: turns %d, %d; continuations %d, %d", got, vs[0].Turn, vs[1].Turn, vs[0].Continuations, vs[1].Continuations)
	}
}
