package scenarios

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// No checks: the agent answers and stops; one allow; its stdout and exit status are what the
// agent alone gives the person, and it asks the model no more than alone.
func TestScenarioNoChecks(t *testing.T) {
	forEach(t, func(t *testing.T, a *agent) {
		e := a.start(t, texts("The answer is 42."), false)
		pres := e.plain("what is the answer?")
		plainTurns := len(e.turns())
		res := e.supervised(e.config(`mode = "auto"`), "what is the answer?")
		t.Logf("plain %s: exit %d stdout %q in %v; under hooksup: exit %d stdout %q in %v\nstderr: %s",
			a.name, pres.ExitCode, pres.Stdout, pres.Duration, res.ExitCode, res.Stdout, res.Duration, res.Stderr)
		if res.ExitCode != 0 || res.ExitCode != pres.ExitCode || res.Stdout != pres.Stdout {
			t.Fatalf("under hooksup: exit %d stdout %q; alone: exit %d stdout %q", res.ExitCode, res.Stdout, pres.ExitCode, pres.Stdout)
		}
		e.checkStdout(res, "The answer is 42.")
		if n := len(e.turns()) - plainTurns; n != 1 || plainTurns != 1 {
			t.Fatalf("%d turn requests under hooksup, %d alone; want 1", n, plainTurns)
		}
		vs := e.verdicts()
		if got := e2e.Decisions(vs); got != "Stop:allow/nochecks" {
			t.Fatalf("verdicts: %s\nstderr: %s\nlog: %s", got, res.Stderr, e.log())
		}
		v := vs[0]
		if v.SessionID == "" || v.Agent != a.name || v.Observation == nil || v.Observation.LastMessage != "The answer is 42." {
			t.Fatalf("verdict %+v, observation %+v", v, v.Observation)
		}
		if !strings.Contains(res.Stderr, "hooksup: Stop → allow: let stop (no checks) 0/3") {
			t.Fatalf("stderr %q", res.Stderr)
		}
		if _, err := os.Stat(filepath.Join(e.state, "hooksup", "sessions", v.SessionID, "summary.json")); err != nil {
			t.Fatalf("the session's summary: %v", err)
		}
		if log := e.hooksup("log"); !strings.Contains(log.Stdout, "session "+v.SessionID+" ("+a.name+")") {
			t.Fatalf("hooksup log does not name the session and its agent:\n%s", log.Stdout)
		}
	})
}

// failsOnce is a check that fails the first time it runs, saying CHECK-REASON-7Q, and passes
// after; marker is the file that remembers it ran.
func failsOnce(name, marker, reason string) string {
	return fmt.Sprintf(`
[[stop.checks]]
name = %q
command = "test -f %[2]s || { touch %[2]s; echo %[3]s; exit 1; }"
retry_on_failure = true
`, name, marker, reason)
}

// A check that fails once: the agent continues once, its next turn request carries the check's
// reason, then it stops; the verdicts are block then allow, in one turn, each seeing the reply
// it judged, the model and the tokens.
func TestScenarioCheckFailsOnce(t *testing.T) {
	forEach(t, func(t *testing.T, a *agent) {
		e := a.start(t, texts("Done, I think.", "Fixed it."), false)
		cfg := e.config(`mode = "auto"` + failsOnce("once", filepath.Join(e.home, "failed-once"), "CHECK-REASON-7Q"))
		res := e.supervised(cfg, "fix the tests")
		if res.ExitCode != 0 {
			t.Fatalf("exit %d stdout %q\nstderr: %s", res.ExitCode, res.Stdout, res.Stderr)
		}
		e.checkStdout(res, "Done, I think.", "Fixed it.")
		vs := e.verdicts()
		if got := e2e.Decisions(vs); got != "Stop:block/check:once Stop:allow/checks" {
			t.Fatalf("verdicts: %s\nstderr: %s\nlog: %s", got, res.Stderr, e.log())
		}
		turns := e.turns()
		if len(turns) != 2 || strings.Contains(turns[0], "CHECK-REASON-7Q") ||
			!strings.Contains(turns[1], "CHECK-REASON-7Q") || !strings.Contains(turns[1], `The check "once" failed (exit 1)`) {
			t.Fatalf("turn requests end with %q, want two, the check's reason in the second only", turns)
		}
		for i, want := range []string{"Done, I think.", "Fixed it."} {
			o := vs[i].Observation
			if o == nil || o.LastMessage != want || o.Model == "" || o.OutputTokens == 0 {
				t.Fatalf("verdict %d: observation %+v, want the last message %q, a model and tokens", i, o, want)
			}
		}
		if vs[1].Turn != vs[0].Turn || vs[1].Continuations != 1 || vs[0].Agent != a.name {
			t.Fatalf("the continuation is not the same turn: %+v", vs[1])
		}
		if !strings.Contains(res.Stderr, "hooksup: Stop → block") {
			t.Fatalf("stderr says no block:\n%s", res.Stderr)
		}
	})
}

// A check that always fails: exactly max_continuations blocks, each continuation carrying the
// reason, then allow by hooksup's limit (within the agent's own cap, where it has one).
func TestScenarioCheckAlwaysFails(t *testing.T) {
	forEach(t, func(t *testing.T, a *agent) {
		e := a.start(t, texts("Still broken."), false)
		cfg := e.config(`mode = "auto"
[stop]
max_continuations = 2
[[stop.checks]]
name = "never"
command = "echo NEVER-PASSES; exit 1"
retry_on_failure = true
`)
		res := e.supervised(cfg, "fix the tests")
		if res.ExitCode != 0 {
			t.Fatalf("exit %d stdout %q\nstderr: %s", res.ExitCode, res.Stdout, res.Stderr)
		}
		if got := e.decisions(); got != "Stop:block/check:never Stop:block/check:never Stop:allow/limit" {
			t.Fatalf("verdicts: %s\nstderr: %s", got, res.Stderr)
		}
		if turns := e.turns(); len(turns) != 3 || !strings.Contains(turns[1], "NEVER-PASSES") || !strings.Contains(turns[2], "NEVER-PASSES") {
			t.Fatalf("turn requests end with %q, want 3, the continuations with the reason", turns)
		}
	})
}

// The supervisor's socket gone: the agent's next stop hook finds nothing to talk to, allows,
// and the agent finishes as it would alone; the hook says why in hooksup's log.
func TestScenarioFailsOpenWithoutTheSocket(t *testing.T) {
	forEach(t, func(t *testing.T, a *agent) {
		e := a.start(t, texts("First try.", "Second try.", "NEVER-SENT"), false)
		// The check removes the session's socket and blocks: the agent continues, and its next
		// stop hook has no supervisor to ask.
		cfg := e.config(`mode = "auto"
[[stop.checks]]
name = "unplug"
command = "rm -f ` + filepath.Join(e.run, "hooksup") + `/*.sock; echo UNPLUGGED; exit 1"
retry_on_failure = true
`)
		res := e.supervised(cfg, "go")
		if res.ExitCode != 0 {
			t.Fatalf("exit %d stdout %q\nstderr: %s", res.ExitCode, res.Stdout, res.Stderr)
		}
		e.checkStdout(res, "First try.", "Second try.")
		if got := e.decisions(); got != "Stop:block/check:unplug" {
			t.Fatalf("verdicts: %s", got)
		}
		if n := len(e.turns()); n != 2 {
			t.Fatalf("%d turn requests, want 2", n)
		}
		if log := e.log(); !strings.Contains(log, "hook Stop: supervisor unreachable") || !strings.Contains(log, "(allowed)") {
			t.Fatalf("hooksup.log does not say the Stop hook failed open:\n%s", log)
		}
	})
}

// A headless session is one of the sessions the hub lists, named by its agent, while the agent
// works, and not once it has ended.
func TestScenarioListedByTheHub(t *testing.T) {
	forEach(t, func(t *testing.T, a *agent) {
		e := a.start(t, []reply{{text: "Slowly.", delay: 3 * time.Second}}, false)
		ctx, cancel := context.WithTimeout(t.Context(), agentTimeout)
		defer cancel()
		done := make(chan mockapi.Result, 1)
		cfg := e.config(`mode = "auto"`)
		go func() {
			done <- e.runCmd(e.command(ctx, hooksupBin, append([]string{"--config", cfg, a.name}, a.prompt("take your time")...)...))
		}()
		for len(e.turns()) == 0 {
			if ctx.Err() != nil {
				t.Fatalf("%s asked nothing", a.name)
			}
			time.Sleep(50 * time.Millisecond)
		}
		ls := e.hooksup("ls", "--json")
		var sessions []struct {
			Agent string `json:"agent"`
			Cwd   string `json:"cwd"`
		}
		if err := json.Unmarshal([]byte(ls.Stdout), &sessions); err != nil || len(sessions) != 1 || sessions[0].Agent != a.name || sessions[0].Cwd != e.workDir {
			t.Fatalf("hooksup ls --json while %s works: %v\n%s\n%s", a.name, err, ls.Stdout, ls.Stderr)
		}
		res := <-done
		if res.ExitCode != 0 {
			t.Fatalf("exit %d stdout %q\nstderr: %s", res.ExitCode, res.Stdout, res.Stderr)
		}
		e.checkStdout(res, "Slowly.")
		if ls := e.hooksup("ls", "--json"); ls.ExitCode != 0 || ls.Stdout != "[]\n" {
			t.Fatalf("hooksup ls --json after the session ended: exit %d %q", ls.ExitCode, ls.Stdout)
		}
	})
}

// hooksup install --agent NAME: the agent alone, no hooksup running, has its stops decided by
// the project's trusted checks (standalone); installing again changes nothing; uninstall gives
// the person's files back and the agent is no longer gated.
func TestScenarioInstalledStandalone(t *testing.T) {
	forEach(t, func(t *testing.T, a *agent) {
		e := a.start(t, texts("first", "second", "third"), false)
		marker := filepath.Join(e.home, "once")
		if err := os.WriteFile(filepath.Join(e.workDir, ".hooksup.toml"), []byte(`mode = "auto"`+failsOnce("tests", marker, "'FAIL: TestStandalone'")), 0o644); err != nil {
			t.Fatal(err)
		}
		if a.theirs != nil {
			a.theirs(t, e)
		}
		before := readAll(a.settings(e))
		for _, args := range [][]string{{"trust", "--yes"}, {"install", "--agent", a.name}} {
			if res := e.hooksup(args...); res.ExitCode != 0 {
				t.Fatalf("hooksup %v: %s %s", args, res.Stdout, res.Stderr)
			}
		}
		res := e.plain("go")
		if res.ExitCode != 0 {
			t.Fatalf("exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
		}
		e.checkStdout(res, "first", "second")
		if turns := e.turns(); len(turns) != 2 || !strings.Contains(turns[1], "FAIL: TestStandalone") {
			t.Fatalf("turn requests end with %q, want 2, the second with the check's reason", turns)
		}
		if got := e.decisions(); got != "Stop:block/check:tests Stop:allow/checks" {
			t.Fatalf("verdicts %s", got)
		}
		installed := readAll(a.settings(e))
		if res := e.hooksup("install", "--agent", a.name); res.ExitCode != 0 || !strings.Contains(res.Stdout, "already installed") {
			t.Fatalf("install again: %s %s", res.Stdout, res.Stderr)
		}
		if again := readAll(a.settings(e)); !reflect.DeepEqual(again, installed) {
			t.Fatalf("install again changed the settings:\n%q\nwas\n%q", again, installed)
		}
		if res := e.hooksup("uninstall", "--agent", a.name); res.ExitCode != 0 {
			t.Fatalf("uninstall: %s %s", res.Stdout, res.Stderr)
		}
		after := readAll(a.settings(e))
		for p, b := range before {
			same := sameJSON(after[p], b)
			if a.installKeepsBytes {
				same = bytes.Equal(after[p], b)
			}
			if !same {
				t.Fatalf("%s after uninstall:\n%s\nbefore install:\n%s", p, after[p], b)
			}
		}
		os.Remove(marker)
		if res := e.plain("go"); res.ExitCode != 0 {
			t.Fatalf("after uninstall: exit %d stdout %q", res.ExitCode, res.Stdout)
		} else {
			e.checkStdout(res, "third")
		}
		if got := e.decisions(); got != "Stop:block/check:tests Stop:allow/checks" {
			t.Fatalf("a check ran after uninstall: verdicts %s", got)
		}
	})
}

// readAll is the content of each file, nil for one that is not there.
func readAll(paths []string) map[string][]byte {
	out := map[string][]byte{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			b = nil
		}
		out[p] = b
	}
	return out
}

// sameJSON is whether a and b are the same bytes, or JSON of the same value.
func sameJSON(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}

// A folder the agent does not trust, headless: hooksup adds no trust of its own. An agent that
// runs there runs hooksup's hooks all the same, and the stop is gated; one that refuses to run
// there refuses as it does alone, and hooksup says that it runs none of its hooks.
func TestScenarioUntrustedFolder(t *testing.T) {
	forEach(t, func(t *testing.T, a *agent) {
		e := a.start(t, texts("Done, I think.", "Fixed it."), false)
		a.untrust(t, e)
		cfg := e.config(`mode = "auto"` + failsOnce("once", filepath.Join(e.home, "failed-once"), "CHECK-REASON-7Q"))
		res := e.supervised(cfg, "fix the tests")
		t.Logf("exit %d stdout %q\nstderr: %s", res.ExitCode, res.Stdout, res.Stderr)
		if a.refusesUntrusted != 0 {
			pres := e.plain("fix the tests")
			if res.ExitCode != a.refusesUntrusted || res.ExitCode != pres.ExitCode || res.Stdout != pres.Stdout {
				t.Fatalf("under hooksup: exit %d stdout %q; alone: exit %d stdout %q", res.ExitCode, res.Stdout, pres.ExitCode, pres.Stdout)
			}
			if n := len(e.turns()); n != 0 {
				t.Fatalf("%d turn requests in a folder %s does not trust", n, a.name)
			}
			if !strings.Contains(res.Stderr, a.name+" is not running hooksup's hooks") || !strings.Contains(res.Stderr, "trust") {
				t.Fatalf("stderr does not say that %s runs no hooks in an untrusted folder:\n%s", a.name, res.Stderr)
			}
		} else {
			if res.ExitCode != 0 {
				t.Fatalf("exit %d stdout %q\nstderr: %s", res.ExitCode, res.Stdout, res.Stderr)
			}
			e.checkStdout(res, "Done, I think.", "Fixed it.")
			if got := e.decisions(); got != "Stop:block/check:once Stop:allow/checks" {
				t.Fatalf("verdicts: %s\nstderr: %s", got, res.Stderr)
			}
			if turns := e.turns(); len(turns) != 2 || !strings.Contains(turns[1], "CHECK-REASON-7Q") {
				t.Fatalf("turn requests end with %q, want 2, the second with the check's reason", turns)
			}
		}
		if a.trusts(e) {
			t.Fatalf("%s trusts the folder after hooksup %s", a.name, a.name)
		}
	})
}
