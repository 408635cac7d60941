package config

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// Every problem of a file is found in one pass, and a value that was refused does not reach
// the merged configuration (nor is reported a second time by the range checks).
func TestEveryProblemOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.toml")
	write(t, path, `reason_lines = "many"
decision_timeout = 5
[[stop.checks]]
name = 3
command = "x"
env = { A = 1, B = "ok" }
agent_types = ["x", 2]
[notifications]
on_idle = "ring"
[keys]
bindings = { aprove = "y", deny = "ctrl+" }
`)
	_, _, err := Load(LoadOptions{ExplicitFile: path})
	var ces Errors
	if !errors.As(err, &ces) {
		t.Fatalf("err = %v", err)
	}
	var got []string
	for _, ce := range ces {
		got = append(got, strings.TrimPrefix(ce.Error(), path+":"))
	}
	want := []string{
		`1: reason_lines: must be a whole number, not a string`,
		`2: decision_timeout: must be a duration like "90s" or "5m", not a whole number`,
		`4: stop.checks[0].name: must be a string, not a whole number`,
		`6: stop.checks[0].env.A: must be a string, not a whole number`,
		`7: stop.checks[0].agent_types: only subagent_stop checks filter by agent type`,
		`7: stop.checks[0].agent_types[1]: must be a string, not a whole number`,
		`9: notifications.on_idle: "ring" is not one of none, bell, notify, nudge`,
		`11: keys.bindings.aprove: no such action (did you mean "approve"?)`,
		`11: keys.bindings.deny: "ctrl+" is not a key`,
	}
	if len(got) != len(want) {
		t.Fatalf("%d problems, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("problem %d:\n got %s\nwant %s…", i, got[i], want[i])
		}
	}
}

// A file that is not UTF-8 is refused, naming the line and column of the first such byte, even
// where the byte stands in a comment.
func TestDecodeRefusesAFileThatIsNotUTF8(t *testing.T) {
	data := []byte("mode = \"ask\"\n# caf\xe9 in Latin-1\n[stop]\nmax_continuations = 2\n")
	var c Config
	err := Decode("x.toml", data, &c)
	if err == nil || err.Error() != "x.toml:2: byte 0xe9 at column 6 is not UTF-8: save the file as UTF-8" {
		t.Fatalf("Decode = %v", err)
	}
	if err := ValidateFile("x.toml", data); err == nil {
		t.Fatal("ValidateFile accepted it")
	}
}
