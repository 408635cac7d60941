package checks

import (
	"context"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/hooks"
)

// A check gets hooksup's environment but none of a session's variables (an outer session's
// socket, token or log), plus its own.
func TestCheckEnv(t *testing.T) {
	t.Setenv(hooks.EnvSocket, "/outer.sock")
	t.Setenv(hooks.EnvToken, "outer-secret")
	t.Setenv(hooks.EnvLog, "/outer.log")
	t.Setenv("KEEP_ME", "1")
	res := Run(context.Background(), nil, config.Check{Name: "env", Command: "env", Env: map[string]string{"MINE": "2"}}, t.TempDir(), nil, nil)
	out := string(res.Output)
	for _, v := range []string{"KEEP_ME=1", "MINE=2", "HOOKSUP_CHECK=env"} {
		if !strings.Contains(out, v+"\n") {
			t.Errorf("the check lacks %s:\n%s", v, out)
		}
	}
	for _, v := range []string{hooks.EnvSocket, hooks.EnvToken, hooks.EnvLog, "outer-secret"} {
		if strings.Contains(out, v) {
			t.Errorf("the check got %s:\n%s", v, out)
		}
	}
}

// A check runs as wide as CheckColumns, whatever the terminal hooksup runs in says, so that
// test runners do not cut their messages to 80 columns; the check's own env decides otherwise.
func TestCheckColumns(t *testing.T) {
	t.Setenv("COLUMNS", "80")
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{{nil, "COLUMNS=200"}, {map[string]string{"COLUMNS": "100"}, "COLUMNS=100"}} {
		res := Run(context.Background(), nil, config.Check{Name: "cols", Command: `echo "COLUMNS=$COLUMNS"`, Env: tc.env}, t.TempDir(), nil, nil)
		if got := strings.TrimSpace(string(res.Output)); got != tc.want {
			t.Errorf("env %v: the check saw %s, want %s", tc.env, got, tc.want)
		}
	}
}
