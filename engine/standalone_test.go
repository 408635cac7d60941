package engine

import (
	"bytes"
	"fmt"
	claudewire "github.com/hooksup/hooksup/agent/claude/wire"
	"github.com/hooksup/hooksup/hooks"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// standaloneSandbox is a user configuration with one instant check, empty state and a runtime
// directory of its own (where the hook sweeps and records checks' process groups), as the
// environment of the installed hook.
func standaloneSandbox(t *testing.T, config string) (proj string) {
	t.Helper()
	dir := t.TempDir()
	proj = filepath.Join(dir, "proj")
	for _, d := range []string{proj, filepath.Join(dir, "cfg", "hooksup")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "cfg", "hooksup", "config.toml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", dir)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "cfg"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	return proj
}

func stopPayload(proj, promptID string) []byte {
	return []byte(`{"session_id":"4312ba3d-56cd-4b9f-8c76-66e8ea524739","cwd":"` + proj + `","prompt_id":"` + promptID +
		`","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"Done."}`)
}

// A stop that changes no count leaves the session's state file alone (no write, no rename);
// a new turn rewrites it. Every stop is in the verdict log.
func TestStandaloneStateWrittenOnlyWhenChanged(t *testing.T) {
	proj := standaloneSandbox(t, "[[stop.checks]]\nname = \"instant\"\ncommand = \"true\"\n")
	stateDir := filepath.Join(os.Getenv("XDG_STATE_HOME"), "hooksup")
	statePath := filepath.Join(stateDir, "standalone", "4312ba3d-56cd-4b9f-8c76-66e8ea524739.json")
	ino := func() uint64 {
		t.Helper()
		fi, err := os.Stat(statePath)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Sys().(*syscall.Stat_t).Ino
	}
	run := func(prompt string) {
		t.Helper()
		var out bytes.Buffer
		if code := StandaloneHook(nil, "Stop", stopPayload(proj, prompt), &out); code != 0 || out.Len() != 0 {
			t.Fatalf("exit %d, answer %q: want a silent allow", code, out.String())
		}
	}
	run("p1")
	first, _ := os.ReadFile(statePath)
	before := ino()
	run("p1")
	if after, now := ino(), must(os.ReadFile(statePath)); after != before || !bytes.Equal(now, first) {
		t.Errorf("an unchanged state was written again (inode %d → %d):\n%s\n%s", before, after, first, now)
	}
	run("p2")
	if now := must(os.ReadFile(statePath)); bytes.Equal(now, first) || !strings.Contains(string(now), `"prompt_id":"p2"`) {
		t.Errorf("a new turn was not saved:\n%s", now)
	}
	log, err := os.ReadFile(filepath.Join(stateDir, "sessions", "4312ba3d-56cd-4b9f-8c76-66e8ea524739", "verdicts.jsonl"))
	if err != nil || bytes.Count(log, []byte("\n")) != 3 {
		t.Errorf("verdict log (%v):\n%s", err, log)
	}
}

// hooksup's log gets the standalone hook's warnings and errors only, and is not even opened
// when there are none.
func TestStandaloneLogsOnlyWhatGoesWrong(t *testing.T) {
	proj := standaloneSandbox(t, "[[stop.checks]]\nname = \"instant\"\ncommand = \"true\"\n")
	logPath := filepath.Join(os.Getenv("XDG_STATE_HOME"), "hooksup", "hooksup.log")
	var out bytes.Buffer
	StandaloneHook(nil, "Stop", stopPayload(proj, "p1"), &out)
	if b, err := os.ReadFile(logPath); err == nil {
		t.Errorf("a passing check wrote hooksup's log:\n%s", b)
	}
	if err := os.WriteFile(filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "hooksup", "config.toml"), []byte("[[stop.checks]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := StandaloneHook(nil, "Stop", stopPayload(proj, "p1"), &out); code != 0 || !strings.Contains(out.String(), "checks skipped") {
		t.Fatalf("exit %d, answer %q: want an allow that says the checks were skipped", code, out.String())
	}
	if b, err := os.ReadFile(logPath); err != nil || !strings.Contains(string(b), "level=ERROR") || !strings.Contains(string(b), "config.toml") {
		t.Errorf("the broken configuration is not in hooksup's log (%v):\n%s", err, b)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// The installed hook of an agent that names no prompt and its stop otherwise (Gemini CLI's
// AfterAgent runs `… Stop --installed`): decided as a Stop, and a stop that follows no block
// starts a turn with a fresh budget.
func TestStandaloneTurnsWithoutPromptID(t *testing.T) {
	proj := standaloneSandbox(t, "mode = \"auto\"\n[stop]\nmax_continuations = 1\n[[stop.checks]]\nname = \"never\"\ncommand = \"echo NO; exit 1\"\nretry_on_failure = true\n")
	stop := func(active bool) string {
		t.Helper()
		payload := fmt.Sprintf(`{"session_id":"g1","cwd":%q,"hook_event_name":"AfterAgent","prompt":"hi","prompt_response":"x","stop_hook_active":%t}`, proj, active)
		var out bytes.Buffer
		StandaloneHook(nil, "Stop", []byte(payload), &out)
		if strings.Contains(out.String(), `"decision":"block"`) {
			return "block"
		}
		return "allow"
	}
	var got []string
	for _, active := range []bool{false, true, false} {
		got = append(got, stop(active))
	}
	if strings.Join(got, ",") != "block,allow,block" {
		t.Fatalf("decisions %v, want block,allow,block (the third stop starts a turn)", got)
	}
	log, _ := os.ReadFile(filepath.Join(os.Getenv("XDG_STATE_HOME"), "hooksup", "sessions", "g1", "verdicts.jsonl"))
	if bytes.Count(log, []byte(`"event":"Stop"`)) != 3 {
		t.Fatalf("verdict log:\n%s", log)
	}
}

// Two installed hooks (plain claude in two terminals) stop at once in one project: the second
// runs its checks once the first's are done, and its verdict log notes for whom it waited.
func TestStandaloneHooksInOneProjectTakeTurns(t *testing.T) {
	proj := standaloneSandbox(t, "mode = \"auto\"\n[[stop.checks]]\nname = \"tests\"\ncommand = '''\necho \"start $HOOKSUP_SESSION_ID\" >> runs\nwhile [ ! -e release ]; do sleep 0.02; done\necho \"end $HOOKSUP_SESSION_ID\" >> runs\n'''\n")
	t.Setenv("CLAUDE_PROJECT_DIR", proj)
	runs := func() string { return string(must(os.ReadFile(filepath.Join(proj, "runs")))) }
	hook := func(session string) chan string {
		done := make(chan string, 1)
		go func() {
			var out bytes.Buffer
			StandaloneHook(claudewire.Dialect{}, "Stop", []byte(`{"session_id":"`+session+`","cwd":"`+proj+`","prompt_id":"p","hook_event_name":"Stop"}`), &out)
			done <- out.String()
		}()
		return done
	}
	first := hook("aaaa1111-0000")
	waitFor(t, "the first hook's check to start", func() bool {
		b, _ := os.ReadFile(filepath.Join(proj, "runs"))
		return len(b) > 0
	})
	second := hook("bbbb2222-0000")
	lock := func() string {
		files, _ := filepath.Glob(filepath.Join(os.Getenv("XDG_RUNTIME_DIR"), "hooksup", "project-*.lock"))
		if len(files) != 1 {
			return ""
		}
		return string(must(os.ReadFile(files[0])))
	}
	if h := lock(); !strings.Contains(h, `"session_id":"aaaa1111-0000","agent":"claude"`) || !strings.Contains(h, `"check":"tests"`) {
		t.Fatalf("the project's lock says %q", h)
	}
	time.Sleep(300 * time.Millisecond) // the second must not start meanwhile
	if got := runs(); got != "start aaaa1111-0000\n" {
		t.Fatalf("runs while the first holds the project:\n%s", got)
	}
	os.WriteFile(filepath.Join(proj, "release"), nil, 0o600)
	<-first
	<-second
	if got := runs(); got != "start aaaa1111-0000\nend aaaa1111-0000\nstart bbbb2222-0000\nend bbbb2222-0000\n" {
		t.Fatalf("runs:\n%s", got)
	}
	log, _ := os.ReadFile(filepath.Join(os.Getenv("XDG_STATE_HOME"), "hooksup", "sessions", "bbbb2222-0000", "verdicts.jsonl"))
	if !strings.Contains(string(log), `"waited":{"ms":`) || !strings.Contains(string(log), `"session_id":"aaaa1111-0000","agent":"claude"`) {
		t.Fatalf("the second's verdict log:\n%s", log)
	}
}

// renamingDialect is an agent whose input tells, whatever hook ran it, that the call is another
// event than a stop (as Copilot CLI's agentStop that a subagent's end also runs).
type renamingDialect struct{ claudewire.Dialect }

func (renamingDialect) Input(in *hooks.Input) {
	if in.AgentID != "" {
		in.HookEventName = "agentStop"
	}
}

// An installed stop hook whose dialect reads another event in the input than a stop allows it at
// once: no check runs, nothing is counted or logged; the main agent's stop is still decided.
func TestStandaloneDialectEventNotAStop(t *testing.T) {
	proj := standaloneSandbox(t, "mode = \"auto\"\n[[stop.checks]]\nname = \"never\"\ncommand = \"echo NO; exit 1\"\n")
	var out bytes.Buffer
	payload := `{"session_id":"c1","cwd":"` + proj + `","agent_id":"sub","stop_hook_active":false}`
	if code := StandaloneHook(renamingDialect{}, "Stop", []byte(payload), &out); code != 0 || out.Len() != 0 {
		t.Fatalf("a subagent's call: exit %d, answer %q, want a silent allow", code, out.String())
	}
	if _, err := os.Stat(filepath.Join(os.Getenv("XDG_STATE_HOME"), "hooksup", "sessions", "c1")); err == nil {
		t.Fatal("a subagent's call was logged as a verdict")
	}
	payload = `{"session_id":"c1","cwd":"` + proj + `","stop_hook_active":false}`
	if StandaloneHook(renamingDialect{}, "Stop", []byte(payload), &out); !strings.Contains(out.String(), `"decision":"block"`) {
		t.Fatalf("the main agent's stop: %q, want a block", out.String())
	}
}

// markingDialect is an agent whose stop's reply is provisional (hooks.Input.StopMark): its log
// did not have the stop's line yet, and only a follower of the log learns the stop's reply.
type markingDialect struct{ claudewire.Dialect }

func (markingDialect) Input(in *hooks.Input) {
	in.LastAssistantMessage, in.StopMark = "THE PREVIOUS TURN'S REPLY", "1700000000000"
}

// Installed, nothing follows the agent's log: a provisional reply is not recorded as the
// stop's; a certain one is.
func TestStandaloneRecordsNoProvisionalReply(t *testing.T) {
	proj := standaloneSandbox(t, "mode = \"auto\"\n")
	var out bytes.Buffer
	StandaloneHook(markingDialect{}, "Stop", stopPayload(proj, "p1"), &out)
	StandaloneHook(claudewire.Dialect{}, "Stop", stopPayload(proj, "p2"), &out)
	log, err := os.ReadFile(filepath.Join(os.Getenv("XDG_STATE_HOME"), "hooksup", "sessions", "4312ba3d-56cd-4b9f-8c76-66e8ea524739", "verdicts.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(log), "THE PREVIOUS TURN") || !strings.Contains(string(log), `"Done."`) {
		t.Fatalf("the verdict log:\n%s", log)
	}
}
