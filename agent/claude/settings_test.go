package claude

import (
	"encoding/json"
	"testing"

	"github.com/hooksup/hooksup/hooks"
)

func TestInjectedSettingsMergeTheUsersOwn(t *testing.T) {
	out, err := InjectedSettings([]byte(`{"disableAllHooks":true,"hooks":{"Stop":[{"hooks":[{"type":"command","command":"mine.sh"}]}]},"model":"x"}`),
		Groups(InjectedEvents, func(ev string) string { return hooks.Command("/bin/hooksup", ev) }, 400e9, 30e9))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		DisableAllHooks bool                            `json:"disableAllHooks"`
		Hooks           map[string][]hooks.MatcherGroup `json:"hooks"`
		Model           string                          `json:"model"`
	}
	if err := json.Unmarshal(out, &s); err != nil {
		t.Fatal(err)
	}
	if s.DisableAllHooks || s.Model != "x" || len(s.Hooks["Stop"]) != 2 || s.Hooks["Stop"][0].Hooks[0].Command != "mine.sh" {
		t.Fatalf("%s", out)
	}
	if c := s.Hooks["Stop"][1].Hooks[0]; c.Command != "/bin/hooksup hook Stop" || c.Timeout != 400 {
		t.Fatalf("%+v", c)
	}
	for _, ev := range InjectedEvents {
		if len(s.Hooks[ev]) == 0 {
			t.Errorf("%s not injected", ev)
		}
	}
	if c := s.Hooks["SessionStart"][0].Hooks[0]; c.Timeout != 30 {
		t.Errorf("observation hook timeout %v", c.Timeout)
	}
}
