package tomltext

import "testing"

func TestKeyLine(t *testing.T) {
	doc := `mode = "ask" # the default
[stop]
max_continuations = 3

[[stop.checks]]
name = "tests"
command = """
[[stop.checks]]
name = "not a header: inside a string"
"""

[[stop.checks]]
name = "vet"
env = { CI = "true", "GO.FLAGS" = "-race" }

[stop.checks.cwd_table]
x = 1

[keys]
bindings = {
  approve = "y",
  deny = "n" }
prefix = "ctrl+b"
[ui]
a.b = 1
`
	for _, tc := range []struct {
		key  string
		line int
	}{
		{"mode", 1},
		{"stop", 2},
		{"stop.max_continuations", 3},
		{"stop.checks[0]", 5},
		{"stop.checks[0].name", 6},
		{"stop.checks[0].command", 7},
		{"stop.checks[1].name", 13},
		{"stop.checks[1].env.CI", 14},
		{"stop.checks[1].env.GO.FLAGS", 14},
		{"stop.checks[1].cwd_table.x", 17},
		{"stop.checks[1].timeout", 12}, // not set: the check's header
		{"stop.checks[2].name", 2},     // no such check: the closest table that contains it
		{"keys.bindings.approve", 21},
		{"keys.bindings.deny", 22},
		{"keys.prefix", 23},
		{"ui.a", 25},
		{"ui.a.b", 25},
		{"notifications.on_idle", 0},
	} {
		if got := KeyLine([]byte(doc), tc.key); got != tc.line {
			t.Errorf("KeyLine(%s) = %d, want %d", tc.key, got, tc.line)
		}
	}
}
