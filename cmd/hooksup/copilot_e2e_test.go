package main

import (
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
