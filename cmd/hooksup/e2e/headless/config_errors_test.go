package headless

import (
	"strings"
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"

	"github.com/hooksup/hooksup/internal/agentsim"
)

// A broken configuration is refused with every problem at once — in the user's file and in the
// --config file, unknown keys, wrong types, bad values and bad bindings — each naming the file,
// the line and the key, near misses with the key that was meant; and nothing runs.
func TestConfigProblemsAllAtOnce(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	user := s.UserConfig("theme = \"dark\"\n[stop]\nmax_steers = 2\n")
	cfg := s.Config(`mode = "sometimes"
decision_timeout = "soon"

[stop]
max_continuation = 5

[[stop.checks]]
name = "tests"
command = "go test ./..."

[[stop.checks]]
name = "vet"
command = "go vet ./..."
timout = "2m"
max_retries = "three"

[keys]
bindings = { aprove = "y" }
`)
	want := []string{
		user + `:3: stop.max_steers: unknown key (did you mean "subagent_stop.max_steers"?)`,
		cfg + `:1: mode: "sometimes" is not one of auto, ask, manual, observe`,
		cfg + `:2: decision_timeout: not a duration like "90s" or "5m": "soon"`,
		cfg + `:5: stop.max_continuation: unknown key (did you mean "max_continuations"?)`,
		cfg + `:14: stop.checks[1].timout: unknown key (did you mean "timeout"?)`,
		cfg + `:15: stop.checks[1].max_retries: must be a whole number, not a string`,
		cfg + `:18: keys.bindings.aprove: no such action (did you mean "approve"?)`,
	}
	for _, c := range []struct {
		name string
		cmd  func() (code int, stderr string, ran bool)
	}{
		{"check", func() (int, string, bool) {
			cmd := e2e.ExecHooksup(s, "--config", cfg, "check")
			var errb strings.Builder
			cmd.Stderr = &errb
			cmd.Run()
			return cmd.ProcessState.ExitCode(), errb.String(), false
		}},
		{"claude", func() (int, string, bool) {
			r := s.RunSim(cfg, agentsim.Scenario{}, "-p", "x")
			return r.Code, r.Stderr, len(r.Trace) > 0
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stderr, ran := c.cmd()
			if code == 0 || ran {
				t.Fatalf("exit %d, claude ran %v: a broken config must stop hooksup", code, ran)
			}
			at := 0
			for _, w := range want {
				i := strings.Index(stderr[at:], w)
				if i < 0 {
					t.Fatalf("missing or out of order: %q\nstderr:\n%s", w, stderr)
				}
				at += i + len(w)
			}
			if n := strings.Count(stderr, "\n"); n != len(want)+1 {
				t.Errorf("%d lines, want a heading and one line per problem:\n%s", n, stderr)
			}
			if strings.Contains(stderr, "config: ") {
				t.Errorf("a stuttering prefix:\n%s", stderr)
			}
		})
	}
}

// A missing --config file and a --claude-bin that does not exist are told as such, once.
func TestMissingFilesAreToldAsSuch(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--config", "nope.toml", "check"}, "hooksup: nope.toml: the file does not exist\n"},
		{[]string{"--claude-bin", "/nonexistent/claude", "claude", "-p", "x"}, `hooksup: claude not found: "/nonexistent/claude" does not exist`},
	} {
		cmd := e2e.ExecHooksup(s, c.args...)
		out, _ := cmd.CombinedOutput()
		if cmd.ProcessState.ExitCode() == 0 || !strings.HasPrefix(string(out), c.want) || strings.Contains(string(out), "PATH") {
			t.Errorf("hooksup %v: exit %d\n%s\nwant it to start with %q", c.args, cmd.ProcessState.ExitCode(), out, c.want)
		}
	}
	// A bare name is looked up on PATH, and said so.
	cmd := e2e.ExecHooksup(s, "--claude-bin", "no-such-claude", "claude", "-p", "x")
	if out, _ := cmd.CombinedOutput(); !strings.Contains(string(out), `"no-such-claude" is not on PATH`) {
		t.Errorf("a bare name:\n%s", out)
	}
}
