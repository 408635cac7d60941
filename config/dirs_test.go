package config

import (
	"testing"

	"github.com/hooksup/hooksup/hooks"
)

// The configuration and state directories follow the XDG rules on macOS as on Linux (as gh
// does): ~/.config and ~/.local/state, not ~/Library, so one set of dotfiles serves both. A
// relative XDG variable is ignored, as the XDG spec says.
func TestConfigAndStateDirsFollowXDGEverywhere(t *testing.T) {
	for _, tc := range []struct {
		name               string
		env                map[string]string
		wantConfig, wantSt string
	}{
		{"macOS home, no XDG", map[string]string{"HOME": "/Users/me"}, "/Users/me/.config/hooksup", "/Users/me/.local/state/hooksup"},
		{"Linux home, no XDG", map[string]string{"HOME": "/home/me"}, "/home/me/.config/hooksup", "/home/me/.local/state/hooksup"},
		{"XDG set", map[string]string{"HOME": "/Users/me", "XDG_CONFIG_HOME": "/cfg", "XDG_STATE_HOME": "/st"}, "/cfg/hooksup", "/st/hooksup"},
		{"XDG relative", map[string]string{"HOME": "/Users/me", "XDG_CONFIG_HOME": "cfg", "XDG_STATE_HOME": "st"}, "/Users/me/.config/hooksup", "/Users/me/.local/state/hooksup"},
	} {
		getenv := func(k string) string { return tc.env[k] }
		if got := UserConfigDir(getenv); got != tc.wantConfig {
			t.Errorf("%s: config %q, want %q", tc.name, got, tc.wantConfig)
		}
		if got := hooks.StateDir(getenv); got != tc.wantSt {
			t.Errorf("%s: state %q, want %q", tc.name, got, tc.wantSt)
		}
	}
}
