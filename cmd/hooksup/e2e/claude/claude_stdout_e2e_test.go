package claude

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// plainAndSupervised runs plain `claude ARGS` and `hooksup claude ARGS` against the same mock
// script and returns both results.
func plainAndSupervised(t *testing.T, script func() mockapi.Handler, args ...string) (plain, supervised mockapi.Result) {
	t.Helper()
	rc := e2e.NewRealClaude(t, script())
	ctx, cancel := context.WithTimeout(t.Context(), e2e.ClaudeTimeout)
	defer cancel()
	plain = rc.Srv.Run(rc.Env.ClaudeCommand(ctx, args...))
	if plain.ExitCode != 0 {
		t.Fatalf("plain claude %v: exit %d stderr %q", args, plain.ExitCode, plain.Stderr)
	}
	rc2 := e2e.NewRealClaude(t, script())
	supervised = rc2.Hooksup(append([]string{"--config", rc2.Config(`mode = "auto"`), "claude"}, args...)...)
	if supervised.ExitCode != 0 {
		t.Fatalf("hooksup claude %v: exit %d stderr %q", args, supervised.ExitCode, supervised.Stderr)
	}
	if got := e2e.Decisions(rc2.Verdicts()); got != "Stop:allow/nochecks" {
		t.Fatalf("hooksup did not supervise the run: verdicts %q", got)
	}
	return plain, supervised
}

// messageTypes is the type/subtype of each stream-json line.
func messageTypes(t *testing.T, out string) []string {
	t.Helper()
	var seq []string
	for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		var m struct{ Type, Subtype string }
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("not a JSON line: %q", line)
		}
		seq = append(seq, strings.TrimSuffix(m.Type+"/"+m.Subtype, "/"))
	}
	return seq
}

// hooksup claude -p prints exactly what plain claude prints: the same stream-json message
// types in the same order (no hook_started/hook_response of an injected SessionStart), the same
// text, the same json result but for the run's own ids and timings.
func TestClaudeHeadlessStdoutIsPlainClaudes(t *testing.T) {
	t.Parallel()
	script := func() mockapi.Handler {
		return &mockapi.Script{Main: []mockapi.Reply{mockapi.Bash("echo hi", "greet"), mockapi.Text("The answer is 42.")}}
	}
	t.Run("stream-json", func(t *testing.T) {
		plain, sup := plainAndSupervised(t, script, "-p", "answer", "--allowedTools", "Bash", "--output-format", "stream-json", "--verbose")
		p, s := messageTypes(t, plain.Stdout), messageTypes(t, sup.Stdout)
		t.Logf("plain claude:   %s", strings.Join(p, " "))
		t.Logf("hooksup claude: %s", strings.Join(s, " "))
		if strings.Join(p, " ") != strings.Join(s, " ") {
			t.Fatalf("message types differ:\nplain   %v\nhooksup %v", p, s)
		}
	})
	t.Run("text", func(t *testing.T) {
		plain, sup := plainAndSupervised(t, script, "-p", "answer", "--allowedTools", "Bash")
		if plain.Stdout != sup.Stdout || sup.Stdout != "The answer is 42.\n" {
			t.Fatalf("plain %q, hooksup %q", plain.Stdout, sup.Stdout)
		}
	})
	t.Run("json", func(t *testing.T) {
		plain, sup := plainAndSupervised(t, script, "-p", "answer", "--allowedTools", "Bash", "--output-format", "json")
		// Ids, timings and costs differ between any two runs; everything else is the same.
		norm := func(out string) string {
			var m map[string]any
			if err := json.Unmarshal([]byte(out), &m); err != nil {
				t.Fatalf("json output %q: %v", out, err)
			}
			var keys []string
			for k, v := range m {
				switch {
				case k == "session_id", k == "uuid", k == "total_cost_usd", k == "usage", k == "modelUsage", strings.HasSuffix(k, "_ms"):
					keys = append(keys, k)
				default:
					keys = append(keys, fmt.Sprintf("%s=%v", k, v))
				}
			}
			sort.Strings(keys)
			return strings.Join(keys, "\n")
		}
		if p, s := norm(plain.Stdout), norm(sup.Stdout); p != s {
			t.Fatalf("json differs:\nplain:\n%s\nhooksup:\n%s", p, s)
		}
		if strings.Count(sup.Stdout, "\n") != strings.Count(plain.Stdout, "\n") {
			t.Fatalf("lines differ: plain %q hooksup %q", plain.Stdout, sup.Stdout)
		}
	})
}
