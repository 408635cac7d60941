package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// End-to-end tests with the real GitHub Copilot CLI (HOOKSUP_TEST_COPILOT) offline, in its BYOK
// mode against the mock Chat Completions API, in a throwaway HOME. The work folder is not one
// copilot trusts: hooksup's plugin runs there all the same, and nothing trusts it.

// realCopilot is one test's copilot: the mock it talks to, its environment, and hooksup's state
// and runtime directories.
type realCopilot struct {
	hooksupEnv
	srv *mockapi.ChatServer
	env *mockapi.CopilotEnv
}

func newRealCopilot(t *testing.T, replies ...mockapi.ChatReply) *realCopilot {
	t.Helper()
	srv := mockapi.NewChatServer(t, &mockapi.ChatScript{Replies: replies}, mockapi.WithNetNS(), mockapi.WithQuiet())
	env := mockapi.NewCopilotEnv(t, srv.URL, "")
	return &realCopilot{hooksupEnv: newHooksupEnv(t, "hc", env.Home, env.Setenv, srv.Run, env.Command), srv: srv, env: env}
}

// copilot runs plain copilot with args and waits for it.
func (rc *realCopilot) copilot(args ...string) mockapi.Result {
	rc.t.Helper()
	return rc.runBounded("copilot", rc.env.Copilot, args...)
}

// (a) A check that fails once: copilot continues once, the next request ends with the check's
// reason as the user's message, and the verdicts are block then allow; the events log was
// followed for the model, the tokens and the reply judged.
func TestCopilotCheckFailsOnce(t *testing.T) {
	rc := newRealCopilot(t, mockapi.ChatText("Done, I think."), mockapi.ChatText("Fixed it."))
	marker := filepath.Join(rc.env.Home, "failed-once")
	cfg := rc.config(`mode = "auto"
[[stop.checks]]
name = "once"
command = "test -f ` + marker + ` || { touch ` + marker + `; echo CHECK-REASON-7Q; exit 1; }"
retry_on_failure = true
`)
	res := rc.hooksup("--config", cfg, "copilot", "-p", "fix the tests")
	if res.ExitCode != 0 || !strings.Contains(res.Stdout, "Done, I think.") || !strings.Contains(res.Stdout, "Fixed it.") {
		t.Fatalf("exit %d stdout %q\nstderr: %s\nlog: %s", res.ExitCode, res.Stdout, res.Stderr, rc.log())
	}
	if got := decisions(rc.verdicts()); got != "Stop:block/check:once Stop:allow/checks" {
		t.Fatalf("verdicts: %s\nstderr: %s\nlog: %s", got, res.Stderr, rc.log())
	}
	turns := rc.srv.Turns()
	if len(turns) != 2 {
		t.Fatalf("%d turn requests, want 2", len(turns))
	}
	if reason := turns[1].LastUserText(); !strings.Contains(reason, "CHECK-REASON-7Q") {
		t.Fatalf("the second request ends with %q, want the check's output", reason)
	}
	if strings.Contains(turns[0].LastUserText(), "CHECK-REASON-7Q") {
		t.Fatalf("the first request already carries the reason: %q", turns[0].LastUserText())
	}
	for i, want := range []string{"Done, I think.", "Fixed it."} {
		v := rc.verdicts()[i]
		if o := v.Observation; o == nil || o.LastMessage != want || o.Model != mockapi.CopilotModel || o.OutputTokens == 0 {
			ev, _ := filepath.Glob(filepath.Join(rc.env.SessionStateDir(), "*", "events.jsonl"))
			var b []byte
			if len(ev) > 0 {
				b, _ = os.ReadFile(ev[0])
			}
			t.Fatalf("verdict %d: observation %+v, want the last message %q\nevents: %s", i, o, want, b)
		}
		if v.Agent != "copilot" || v.SessionID == "" {
			t.Fatalf("verdict %d: %+v", i, v)
		}
	}
	if v := rc.verdicts()[1]; v.Turn != rc.verdicts()[0].Turn || v.Continuations != 1 {
		t.Fatalf("the continuation is not the same turn: %+v", v)
	}
	if !strings.Contains(res.Stderr, "hooksup: Stop → block") {
		t.Fatalf("stderr %q", res.Stderr)
	}
	// The plugin went with the session.
	if left, _ := filepath.Glob(filepath.Join(rc.run, "hooksup", "*copilot-plugin*")); len(left) > 0 {
		t.Fatalf("the session left %v", left)
	}
}

// (b) A check that always fails: exactly max_continuations blocks (within copilot's own cap of
// 8), then the limit lets copilot stop.
func TestCopilotCheckAlwaysFails(t *testing.T) {
	rc := newRealCopilot(t, mockapi.ChatText("Still broken."))
	cfg := rc.config(`mode = "auto"
[stop]
max_continuations = 2
[[stop.checks]]
name = "never"
command = "echo NEVER-PASSES; exit 1"
retry_on_failure = true
`)
	res := rc.hooksup("--config", cfg, "copilot", "-p", "fix the tests")
	if res.ExitCode != 0 {
		t.Fatalf("exit %d stdout %q\nstderr: %s", res.ExitCode, res.Stdout, res.Stderr)
	}
	if got := decisions(rc.verdicts()); got != "Stop:block/check:never Stop:block/check:never Stop:allow/limit" {
		t.Fatalf("verdicts: %s\nstderr: %s", got, res.Stderr)
	}
	if n := len(rc.srv.Turns()); n != 3 {
		t.Fatalf("%d turn requests, want 3", n)
	}
}

// (d) The supervisor's socket gone: copilot's next agentStop hook finds nothing to talk to,
// allows, and copilot finishes as it would alone; the hook says why in hooksup's log.
func TestCopilotFailsOpenWithoutTheSocket(t *testing.T) {
	rc := newRealCopilot(t, mockapi.ChatText("First try."), mockapi.ChatText("Second try."), mockapi.ChatText("never sent"))
	cfg := rc.config(`mode = "auto"
[[stop.checks]]
name = "unplug"
command = "rm -f ` + filepath.Join(rc.run, "hooksup") + `/*.sock; echo UNPLUGGED; exit 1"
retry_on_failure = true
`)
	res := rc.hooksup("--config", cfg, "copilot", "-p", "go")
	if res.ExitCode != 0 || !strings.Contains(res.Stdout, "Second try.") {
		t.Fatalf("exit %d stdout %q\nstderr: %s", res.ExitCode, res.Stdout, res.Stderr)
	}
	if got := decisions(rc.verdicts()); got != "Stop:block/check:unplug" {
		t.Fatalf("verdicts: %s", got)
	}
	if n := len(rc.srv.Turns()); n != 2 {
		t.Fatalf("%d turn requests, want 2", n)
	}
	if log := rc.log(); !strings.Contains(log, "hook Stop: supervisor unreachable") {
		t.Fatalf("hooksup.log does not say the Stop hook failed open:\n%s", log)
	}
}

// (e, f) The person's ~/.copilot/settings.json, with a stop hook of their own, is unchanged byte
// for byte after hooksup copilot in a folder copilot does not trust, where hooksup's gate works
// without trusting it: no --trust-folder, no trustedFolders entry written.
func TestCopilotKeepsTheirFilesUntrusted(t *testing.T) {
	rc := newRealCopilot(t, mockapi.ChatText("Done, I think."), mockapi.ChatText("Fixed it."))
	theirs := filepath.Join(rc.env.Home, "their-hook-ran")
	settings := []byte("{\n    \"banner\": \"never\",\n    \"hooks\": {\"agentStop\": [{\"type\": \"command\", \"bash\": \"echo ran >> " + theirs + "\", \"timeoutSec\": 5}]}\n}\n")
	os.MkdirAll(rc.env.ConfigDir, 0o700)
	if err := os.WriteFile(filepath.Join(rc.env.ConfigDir, "settings.json"), settings, 0o600); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(rc.env.Home, "failed-once")
	cfg := rc.config(`mode = "auto"
[[stop.checks]]
name = "once"
command = "test -f ` + marker + ` || { touch ` + marker + `; echo CHECK-REASON-7Q; exit 1; }"
retry_on_failure = true
`)
	res := rc.hooksup("--config", cfg, "copilot", "-p", "fix the tests")
	if got := decisions(rc.verdicts()); res.ExitCode != 0 || got != "Stop:block/check:once Stop:allow/checks" {
		t.Fatalf("exit %d verdicts %s\nstderr: %s", res.ExitCode, got, res.Stderr)
	}
	if turns := rc.srv.Turns(); len(turns) != 2 || !strings.Contains(turns[1].LastUserText(), "CHECK-REASON-7Q") {
		t.Fatalf("%d turns; the second does not carry hooksup's reason", len(turns))
	}
	if b, _ := os.ReadFile(theirs); strings.Count(string(b), "ran") != 2 {
		t.Fatalf("their own agentStop hook ran %d times, want 2", strings.Count(string(b), "ran"))
	}
	logHookTimes(t, rc.env)
	if b, err := os.ReadFile(filepath.Join(rc.env.ConfigDir, "settings.json")); err != nil || string(b) != string(settings) {
		t.Fatalf("their settings.json changed (%v):\n%s", err, b)
	}
	if b, _ := os.ReadFile(filepath.Join(rc.env.ConfigDir, "config.json")); strings.Contains(string(b), rc.env.WorkDir) {
		t.Fatalf("the work folder was trusted:\n%s", b)
	}
}

// (g) A headless hooksup copilot is one of the sessions hooksup ls lists, named by its agent,
// while copilot works.
func TestCopilotListedByTheHub(t *testing.T) {
	rc := newRealCopilot(t, mockapi.ChatText("Slowly.").WithDelay(3*time.Second))
	ctx, cancel := context.WithTimeout(t.Context(), claudeTimeout)
	defer cancel()
	done := make(chan mockapi.Result, 1)
	go func() {
		done <- rc.srv.Run(rc.env.Command(ctx, hooksupBin, "--config", rc.config(`mode = "auto"`), "copilot", "-p", "take your time"))
	}()
	if _, err := rc.srv.Wait(ctx, func(reqs []mockapi.ChatRequest) bool {
		for _, r := range reqs {
			if r.IsChat() && !r.IsSide() {
				return true
			}
		}
		return false
	}); err != nil {
		t.Fatalf("copilot asked nothing: %v", err)
	}
	ls := rc.hooksup("ls", "--json", "--local")
	var sessions []struct {
		Agent string `json:"agent"`
	}
	if err := json.Unmarshal([]byte(ls.Stdout), &sessions); err != nil || len(sessions) != 1 || sessions[0].Agent != "copilot" {
		t.Fatalf("hooksup ls --json: %v %s %s", err, ls.Stdout, ls.Stderr)
	}
	if res := <-done; res.ExitCode != 0 {
		t.Fatalf("exit %d %s", res.ExitCode, res.Stderr)
	}
}

// (h) hooksup install --agent copilot: plain copilot runs the project's checks at its agentStop
// (standalone); installing again changes nothing; uninstall gives settings.json back byte for
// byte and plain copilot is no longer gated.
func TestCopilotInstalledStandalone(t *testing.T) {
	rc := newRealCopilot(t, mockapi.ChatText("first"), mockapi.ChatText("second"), mockapi.ChatText("third"))
	marker := filepath.Join(rc.env.Home, "once")
	os.WriteFile(filepath.Join(rc.env.WorkDir, ".hooksup.toml"), []byte(`
mode = "auto"
[[stop.checks]]
name = "tests"
command = "test -f `+marker+` || { touch `+marker+`; echo 'FAIL: TestStandalone'; exit 1; }"
retry_on_failure = true
`), 0o644)
	settings := filepath.Join(rc.env.ConfigDir, "settings.json")
	os.MkdirAll(rc.env.ConfigDir, 0o700)
	before := []byte("{\n\t\"banner\":   \"never\" ,\n\t\"theme\": \"dim\"\n}")
	os.WriteFile(settings, before, 0o600)
	for _, args := range [][]string{{"trust"}, {"install", "--agent", "copilot"}} {
		if res := rc.hooksup(args...); res.ExitCode != 0 {
			t.Fatalf("hooksup %v: %s %s", args, res.Stdout, res.Stderr)
		}
	}
	res := rc.copilot("-p", "go")
	if res.ExitCode != 0 || !strings.Contains(res.Stdout, "second") {
		t.Fatalf("exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	turns := rc.srv.Turns()
	if len(turns) != 2 || !strings.Contains(turns[1].LastUserText(), "FAIL: TestStandalone") {
		t.Fatalf("%d turns; the last ends with %q", len(turns), turns[len(turns)-1].LastUserText())
	}
	if got := decisions(rc.verdicts()); got != "Stop:block/check:tests Stop:allow/checks" {
		t.Fatalf("verdicts %s", got)
	}
	installed, _ := os.ReadFile(settings)
	if res := rc.hooksup("install", "--agent", "copilot"); res.ExitCode != 0 || !strings.Contains(res.Stdout, "already installed") {
		t.Fatalf("install again: %s %s", res.Stdout, res.Stderr)
	}
	if again, _ := os.ReadFile(settings); string(again) != string(installed) {
		t.Fatalf("install again changed settings.json:\n%s", again)
	}
	if res := rc.hooksup("uninstall", "--agent", "copilot"); res.ExitCode != 0 {
		t.Fatalf("uninstall: %s %s", res.Stdout, res.Stderr)
	}
	if after, _ := os.ReadFile(settings); string(after) != string(before) {
		t.Fatalf("settings.json after uninstall:\n%q\nbefore install:\n%q", after, before)
	}
	os.Remove(marker)
	if res := rc.copilot("-p", "go"); res.ExitCode != 0 || !strings.Contains(res.Stdout, "third") {
		t.Fatalf("after uninstall: exit %d stdout %q", res.ExitCode, res.Stdout)
	}
	if got := decisions(rc.verdicts()); got != "Stop:block/check:tests Stop:allow/checks" {
		t.Fatalf("a check ran after uninstall: verdicts %s", got)
	}
}

// logHookTimes logs how long each agentStop hook took, as copilot's events log times them
// (hook.start to hook.end): hooksup's, which relays to the supervisor and runs the checks, and
// the person's own.
func logHookTimes(t *testing.T, env *mockapi.CopilotEnv) {
	t.Helper()
	logs, _ := filepath.Glob(filepath.Join(env.SessionStateDir(), "*", "events.jsonl"))
	for _, p := range logs {
		b, _ := os.ReadFile(p)
		started := map[string]time.Time{}
		for _, line := range strings.Split(string(b), "\n") {
			var e struct {
				Type      string
				Timestamp time.Time
				Data      struct {
					HookInvocationID string `json:"hookInvocationId"`
					HookType         string `json:"hookType"`
					Output           json.RawMessage
				}
			}
			if json.Unmarshal([]byte(line), &e) != nil || e.Data.HookType != "agentStop" {
				continue
			}
			switch e.Type {
			case "hook.start":
				started[e.Data.HookInvocationID] = e.Timestamp
			case "hook.end":
				t.Logf("agentStop hook %s took %v (output %s)", e.Data.HookInvocationID[:8], e.Timestamp.Sub(started[e.Data.HookInvocationID]), e.Data.Output)
			}
		}
	}
}
