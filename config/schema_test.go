package config

import (
	"reflect"
	"strings"
	"testing"
)

// Every key hooksup reads says what it does, and nothing is said of a key it does not read:
// the manual and docs/configuration.md list them from Schema.
func TestEveryKeyIsDocumented(t *testing.T) {
	read := map[string]bool{}
	for _, k := range schemaKeys(reflect.TypeOf(Config{}), "") {
		if rest, ok := strings.CutPrefix(k, "stop.checks."); ok {
			k = "checks." + rest
		} else if rest, ok := strings.CutPrefix(k, "subagent_stop.checks."); ok {
			k = "checks." + rest
		}
		read[k] = true
		if keyDocs[k] == "" {
			t.Errorf("the key %s is not documented: add it to keyDocs", k)
		}
	}
	for k := range keyDocs {
		if !read[k] {
			t.Errorf("keyDocs documents %s, which hooksup does not read", k)
		}
	}
}

func TestSchemaGivesTheDefaults(t *testing.T) {
	got := map[string]string{}
	for _, d := range Schema() {
		got[d.Key] = d.Default
	}
	for k, want := range map[string]string{"mode": `"ask"`, "decision_timeout": `"5m"`, "hub.timeout": `"10s"`, "stop.max_continuations": "3",
		"ui.hold_on_exit": "true", "hub.ssh": `["ssh"]`, "stop.checks[].name": "", "hub.hosts": ""} {
		if v, ok := got[k]; !ok || v != want {
			t.Errorf("%s: default %q (listed %v), want %q", k, v, ok, want)
		}
	}
}
