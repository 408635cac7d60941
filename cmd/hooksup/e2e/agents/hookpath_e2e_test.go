package agents

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
	"github.com/hooksup/hooksup/internal/agentsim"
	"github.com/hooksup/hooksup/verdictlog"
)

// These tests run hooksup from a directory whose path holds what the agents' shells read
// specially (a quote of each kind, $, spaces, a backslash, non-ASCII) and what two agents
// replace in a hook's command before the shell reads it (claude's ${CLAUDE_PLUGIN_ROOT},
// gemini's $GEMINI_CWD), with the real agents.

// hostileBinDir is that directory's name.
const hostileBinDir = `it's "q" $HOME ${CLAUDE_PLUGIN_ROOT} $GEMINI_CWD ü 日本 back\slash`

// hostileBins copies the built hooksup, and with client the hook client beside it, into a
// directory named hostileBinDir, and returns hooksup's copy.
func hostileBins(t *testing.T, client bool) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), hostileBinDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bins := []string{e2e.HooksupBin}
	if client {
		bins = append(bins, e2e.HookClientBin)
	}
	for _, src := range bins {
		copyFile(t, src, filepath.Join(dir, filepath.Base(src)))
	}
	return filepath.Join(dir, "hooksup")
}

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// failOnceCheck is a check that fails the first time it runs, saying reason, and passes after.
func failOnceCheck(home, reason string) string {
	marker := filepath.Join(home, "failed-once")
	return fmt.Sprintf(`mode = "auto"
[[stop.checks]]
name = "once"
command = "test -f %[1]s || { touch %[1]s; echo %[2]s; exit 1; }"
retry_on_failure = true
`, marker, reason)
}

// noOtherHooks fails when hooksup recorded another hook at a stop, in its verdict log or in
// what hooksup log shows: the agent ran no hook but hooksup's.
func noOtherHooks(t *testing.T, h *e2e.HooksupEnv, self string) {
	t.Helper()
	for _, v := range h.Verdicts() {
		if v.Event == verdictlog.EventOtherHooks || len(v.OtherHooks) > 0 {
			t.Errorf("hooksup recorded another hook at stop %d: %+v", v.Stop, v.OtherHooks)
		}
	}
	res := h.RunBounded("hooksup", self, "log")
	if res.ExitCode != 0 || strings.Contains(res.Stdout, "hooksup-hook") || strings.Contains(res.Stdout, " hook Stop") {
		t.Errorf("hooksup log (exit %d) shows hooksup's own hook:\n%s%s", res.ExitCode, res.Stdout, res.Stderr)
	}
}

// A session of claude -p from hooksup under a hostile path, through the hook client and
// through `hooksup hook`: the check fails once, claude continues with its reason and stops, and
// hooksup does not take its own hook for another.
func TestClaudeFromAHostilePath(t *testing.T) {
	t.Parallel()
	for _, client := range []bool{true, false} {
		t.Run(fmt.Sprintf("client=%v", client), func(t *testing.T) {
			self := hostileBins(t, client)
			rc := e2e.NewRealClaude(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("Done, I think."), mockapi.Text("Fixed it.")}})
			cfg := rc.Config(failOnceCheck(rc.Env.Home, "CHECK-REASON-7Q"))
			res := rc.RunBounded("hooksup", self, "--config", cfg, "claude", "-p", "fix the tests")
			if res.ExitCode != 0 || res.Stdout != "Fixed it.\n" {
				t.Fatalf("exit %d stdout %q\nstderr: %s", res.ExitCode, res.Stdout, res.Stderr)
			}
			main := rc.Srv.Main()
			if len(main) != 2 || !strings.Contains(main[1].LastUserText(), "CHECK-REASON-7Q") {
				t.Fatalf("%d requests; the last ends with %q\nstderr: %s", len(main), e2e.LastUser(main), res.Stderr)
			}
			if got := e2e.Decisions(rc.Verdicts()); got != "Stop:block/check:once Stop:allow/checks" {
				t.Fatalf("verdicts: %s\nstderr: %s", got, res.Stderr)
			}
			if strings.Contains(res.Stderr, "other hook") || strings.Contains(res.Stderr, "another hook") {
				t.Errorf("stderr names another hook:\n%s", res.Stderr)
			}
			noOtherHooks(t, &rc.HooksupEnv, self)
		})
	}
}

// `hooksup install` from a hostile path: doctor lists the installed hooks as hooksup's, plain
// claude runs them (the check fails once, claude continues, then stops), and uninstall leaves
// the settings file as it was.
func TestClaudeInstalledFromAHostilePath(t *testing.T) {
	t.Parallel()
	self := hostileBins(t, true)
	rc := e2e.NewRealClaude(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("first"), mockapi.Text("second"), mockapi.Text("third")}})
	if err := os.WriteFile(filepath.Join(rc.Env.WorkDir, ".hooksup.toml"), []byte(failOnceCheck(rc.Env.Home, "FAIL-STANDALONE")), 0o644); err != nil {
		t.Fatal(err)
	}
	// The person's own hook, in the file install writes to.
	settings := filepath.Join(rc.Env.WorkDir, ".claude", "settings.local.json")
	mine, _ := json.MarshalIndent(map[string]any{"hooks": map[string]any{"PostToolUse": []any{map[string]any{
		"hooks": []any{map[string]any{"type": "command", "command": "true"}},
	}}}}, "", "  ")
	mine = append(mine, '\n')
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, mine, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"trust", "--yes"}, {"install", "--scope", "local"}} {
		if res := rc.RunBounded("hooksup", self, args...); res.ExitCode != 0 {
			t.Fatalf("hooksup %v: %s %s", args, res.Stdout, res.Stderr)
		}
	}
	doc := rc.RunBounded("hooksup", self, "doctor").Stdout
	for _, ev := range []string{"Stop", "SubagentStop"} {
		if !strings.Contains(doc, fmt.Sprintf("local    %-13s ", ev)) || strings.Count(doc, "[hooksup install]") != 2 || strings.Contains(doc, "--installed  [other]") {
			t.Fatalf("doctor does not list the installed %s hook as hooksup's:\n%s", ev, doc)
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), e2e.ClaudeTimeout)
	defer cancel()
	res := rc.Srv.Run(rc.Env.ClaudeCommand(ctx, "-p", "go"))
	if res.ExitCode != 0 || res.Stdout != "second\n" {
		t.Fatalf("exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	if main := rc.Srv.Main(); len(main) != 2 || !strings.Contains(main[1].LastUserText(), "FAIL-STANDALONE") {
		t.Fatalf("%d requests; the last ends with %q", len(main), e2e.LastUser(main))
	}
	if got := e2e.Decisions(rc.Verdicts()); got != "Stop:block/check:once Stop:allow/checks" {
		t.Fatalf("verdicts %s", got)
	}
	if res := rc.RunBounded("hooksup", self, "uninstall", "--scope", "local"); res.ExitCode != 0 {
		t.Fatalf("uninstall: %s %s", res.Stdout, res.Stderr)
	}
	if after, _ := os.ReadFile(settings); string(after) != string(mine) {
		t.Fatalf("settings after uninstall:\n%s\nbefore install:\n%s", after, mine)
	}
}

// A session of codex exec from hooksup under a hostile path: its -c overrides define and trust
// hooksup's hooks, the check fails once, codex continues with the reason and stops.
func TestCodexFromAHostilePath(t *testing.T) {
	t.Parallel()
	self := hostileBins(t, true)
	rc := e2e.NewRealCodex(t, &mockapi.ResponsesScript{Replies: []mockapi.ResponsesReply{
		mockapi.OutputText("Done, I think."), mockapi.OutputText("Fixed it."),
	}})
	cfg := rc.Config(failOnceCheck(rc.Env.Home, "CHECK-REASON-7Q"))
	res := rc.RunBounded("hooksup", self, "--config", cfg, "codex", "exec", "fix the tests")
	if res.ExitCode != 0 || res.Stdout != "Fixed it.\n" {
		t.Fatalf("exit %d stdout %q\nstderr: %s", res.ExitCode, res.Stdout, res.Stderr)
	}
	reqs := rc.Srv.Model()
	if len(reqs) != 2 || !strings.Contains(reqs[1].LastHookPrompt(), "CHECK-REASON-7Q") {
		t.Fatalf("%d model requests; the last hook prompt %q\nstderr: %s", len(reqs), reqs[len(reqs)-1].LastHookPrompt(), res.Stderr)
	}
	if got := e2e.Decisions(rc.Verdicts()); got != "Stop:block/check:once Stop:allow/checks" {
		t.Fatalf("verdicts: %s\nstderr: %s", got, res.Stderr)
	}
	noOtherHooks(t, &rc.HooksupEnv, self)
}

// `hooksup install --agent codex` from a hostile path: plain codex trusts and runs the
// installed hook (the check fails once, codex continues, then stops), and uninstall leaves
// hooks.json's hooks and config.toml as they were.
func TestCodexInstalledFromAHostilePath(t *testing.T) {
	t.Parallel()
	self := hostileBins(t, true)
	rc := e2e.NewRealCodex(t, &mockapi.ResponsesScript{Replies: []mockapi.ResponsesReply{
		mockapi.OutputText("first"), mockapi.OutputText("second"), mockapi.OutputText("third"),
	}})
	if err := os.WriteFile(filepath.Join(rc.Env.WorkDir, ".hooksup.toml"), []byte(failOnceCheck(rc.Env.Home, "FAIL-STANDALONE")), 0o644); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(rc.Env.CodexHome, "config.toml")
	before, err := os.ReadFile(config)
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"trust", "--yes"}, {"install", "--agent", "codex"}} {
		if res := rc.RunBounded("hooksup", self, args...); res.ExitCode != 0 {
			t.Fatalf("hooksup %v: %s %s", args, res.Stdout, res.Stderr)
		}
	}
	res := rc.Codex("exec", "go")
	if res.ExitCode != 0 || res.Stdout != "second\n" {
		t.Fatalf("exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	if reqs := rc.Srv.Model(); len(reqs) != 2 || !strings.Contains(reqs[1].LastHookPrompt(), "FAIL-STANDALONE") {
		t.Fatalf("%d requests; the last hook prompt %q", len(reqs), reqs[len(reqs)-1].LastHookPrompt())
	}
	if got := e2e.Decisions(rc.Verdicts()); got != "Stop:block/check:once Stop:allow/checks" {
		t.Fatalf("verdicts %s", got)
	}
	if res := rc.RunBounded("hooksup", self, "uninstall", "--agent", "codex"); res.ExitCode != 0 {
		t.Fatalf("uninstall: %s %s", res.Stdout, res.Stderr)
	}
	if after, _ := os.ReadFile(config); string(after) != string(before) {
		t.Fatalf("config.toml after uninstall:\n%s\nbefore install:\n%s", after, before)
	}
	if b, err := os.ReadFile(filepath.Join(rc.Env.CodexHome, "hooks.json")); err == nil && strings.Contains(string(b), "hooksup") {
		t.Fatalf("hooks.json after uninstall:\n%s", b)
	}
}

// A session of gemini -p from hooksup under a hostile path: the check fails once, gemini
// continues with the reason and stops.
func TestGeminiFromAHostilePath(t *testing.T) {
	t.Parallel()
	self := hostileBins(t, true)
	rg := e2e.NewRealGemini(t, mockapi.GeminiText("Done, I think."), mockapi.GeminiText("Fixed it."))
	cfg := rg.Config(failOnceCheck(rg.Env.Home, "CHECK-REASON-7Q"))
	res := rg.RunBounded("hooksup", self, "--config", cfg, "gemini", "-p", "fix the tests")
	if res.ExitCode != 0 || res.Stdout != "Done, I think.Fixed it.\n" {
		t.Fatalf("exit %d stdout %q\nstderr: %s", res.ExitCode, res.Stdout, res.Stderr)
	}
	turns := rg.Srv.Turns()
	if len(turns) != 2 || !strings.Contains(turns[1].LastUserText(), "CHECK-REASON-7Q") {
		t.Fatalf("%d turns; the last ends with %q\nstderr: %s", len(turns), turns[len(turns)-1].LastUserText(), res.Stderr)
	}
	if got := e2e.Decisions(rg.Verdicts()); got != "Stop:block/check:once Stop:allow/checks" {
		t.Fatalf("verdicts: %s\nstderr: %s", got, res.Stderr)
	}
	noOtherHooks(t, &rg.HooksupEnv, self)
}

// `hooksup install --agent gemini` from a hostile path: plain gemini runs the installed hook
// (the check fails once, gemini continues, then stops), and uninstall removes exactly it.
func TestGeminiInstalledFromAHostilePath(t *testing.T) {
	t.Parallel()
	self := hostileBins(t, true)
	rg := e2e.NewRealGemini(t, mockapi.GeminiText("first"), mockapi.GeminiText("second"), mockapi.GeminiText("third"))
	if err := os.WriteFile(filepath.Join(rg.Env.WorkDir, ".hooksup.toml"), []byte(failOnceCheck(rg.Env.Home, "FAIL-STANDALONE")), 0o644); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(rg.Env.SettingsPath())
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"trust", "--yes"}, {"install", "--agent", "gemini"}} {
		if res := rg.RunBounded("hooksup", self, args...); res.ExitCode != 0 {
			t.Fatalf("hooksup %v: %s %s", args, res.Stdout, res.Stderr)
		}
	}
	res := rg.Gemini("-p", "go")
	if res.ExitCode != 0 || res.Stdout != "firstsecond\n" {
		t.Fatalf("exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	if turns := rg.Srv.Turns(); len(turns) != 2 || !strings.Contains(turns[1].LastUserText(), "FAIL-STANDALONE") {
		t.Fatalf("%d turns; the last ends with %q", len(turns), turns[len(turns)-1].LastUserText())
	}
	if got := e2e.Decisions(rg.Verdicts()); got != "Stop:block/check:once Stop:allow/checks" {
		t.Fatalf("verdicts %s", got)
	}
	if res := rg.RunBounded("hooksup", self, "uninstall", "--agent", "gemini"); res.ExitCode != 0 {
		t.Fatalf("uninstall: %s %s", res.Stdout, res.Stderr)
	}
	var b, a any
	after, _ := os.ReadFile(rg.Env.SettingsPath())
	json.Unmarshal(before, &b)
	json.Unmarshal(after, &a)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatalf("settings.json after uninstall:\n%s\nbefore install:\n%s", after, before)
	}
}

// A hooksup whose path is not UTF-8 cannot be named in any agent's settings: the session is
// refused before the agent starts, naming the path visibly and the fix.
func TestSessionRefusedFromAPathNoAgentCanName(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "bad\xff")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Skipf("this file system refuses a name that is not UTF-8: %v", err)
	}
	self := filepath.Join(dir, "hooksup")
	copyFile(t, e2e.HooksupBin, self)
	copyFile(t, e2e.HookClientBin, filepath.Join(dir, "hooksup-hook"))
	s := e2e.NewSandbox(t)
	sim := e2e.SimAgentBin // the simulated claude: it must not be what refuses
	trace := filepath.Join(s.Project, "trace.jsonl")
	for _, args := range [][]string{
		{"--config", s.Config(`mode = "auto"`), "--claude-bin", sim, "claude", "-p", "hi"},
		{"install", "--scope", "local"},
	} {
		cmd := e2e.ExecHooksup(s, args...)
		cmd.Path, cmd.Args[0] = self, self
		cmd.Env = append(cmd.Env, e2e.EnvSimAgent+"=1", agentsim.EnvScenario+"={}", agentsim.EnvTrace+"="+trace)
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), `bad\xff/hooksup`) || !strings.Contains(string(out), "this path is not UTF-8") || strings.Contains(string(out), "\xff") {
			t.Errorf("hooksup %v from %q: %v\n%s", args, dir, err, out)
		}
	}
	if _, err := os.Stat(filepath.Join(s.Project, ".claude")); err == nil {
		t.Error("install wrote settings naming a path no agent can run")
	}
	if tr := e2e.ReadTrace(t, trace); len(tr) > 0 {
		t.Errorf("the agent ran: %+v", tr)
	}
}
