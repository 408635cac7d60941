package userdirs

import (
	"errors"
	"strings"
	"testing"
)

// The configuration and state directories follow the XDG rules on macOS as on Linux (as gh
// does): ~/.config and ~/.local/state, not ~/Library, so one set of dotfiles serves both. A
// relative XDG variable is ignored, as the XDG spec says; with no absolute home there is no
// directory, never a relative one.
func TestDirsFollowXDGAndAreNeverRelative(t *testing.T) {
	for _, tc := range []struct {
		name               string
		env                map[string]string
		wantConfig, wantSt string // "" for ErrNoHome
	}{
		{"macOS home, no XDG", map[string]string{"HOME": "/Users/me"}, "/Users/me/.config/hooksup", "/Users/me/.local/state/hooksup"},
		{"Linux home, no XDG", map[string]string{"HOME": "/home/me"}, "/home/me/.config/hooksup", "/home/me/.local/state/hooksup"},
		{"XDG set", map[string]string{"HOME": "/Users/me", "XDG_CONFIG_HOME": "/cfg", "XDG_STATE_HOME": "/st"}, "/cfg/hooksup", "/st/hooksup"},
		{"XDG relative", map[string]string{"HOME": "/Users/me", "XDG_CONFIG_HOME": "cfg", "XDG_STATE_HOME": "st"}, "/Users/me/.config/hooksup", "/Users/me/.local/state/hooksup"},
		{"no HOME", map[string]string{}, "", ""},
		{"relative HOME", map[string]string{"HOME": "home/me"}, "", ""},
		{"no HOME, relative XDG", map[string]string{"XDG_CONFIG_HOME": "cfg", "XDG_STATE_HOME": ".local/state"}, "", ""},
		{"no HOME, absolute XDG", map[string]string{"XDG_CONFIG_HOME": "/cfg", "XDG_STATE_HOME": "/st"}, "/cfg/hooksup", "/st/hooksup"},
	} {
		getenv := func(k string) string { return tc.env[k] }
		for _, d := range []struct {
			what string
			f    func(func(string) string) (string, error)
			want string
		}{{"config", Config, tc.wantConfig}, {"state", State, tc.wantSt}} {
			got, err := d.f(getenv)
			if d.want == "" {
				if !errors.Is(err, ErrNoHome) || got != "" {
					t.Errorf("%s: %s = %q, %v; want ErrNoHome", tc.name, d.what, got, err)
				}
				continue
			}
			if err != nil || got != d.want {
				t.Errorf("%s: %s = %q, %v; want %q", tc.name, d.what, got, err, d.want)
			}
		}
	}
}

// A relative XDG variable is named, with where hooksup looks instead, for the person to be told.
func TestIgnoredVars(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		want []string
	}{
		{"absolute or unset", map[string]string{"HOME": "/h", "XDG_STATE_HOME": "/st"}, nil},
		{"relative", map[string]string{"HOME": "/h", "XDG_STATE_HOME": "state", "XDG_CONFIG_HOME": "./cfg", "XDG_RUNTIME_DIR": "run"}, []string{
			"XDG_STATE_HOME=state is relative: ignored, using ~/.local/state",
			"XDG_CONFIG_HOME=./cfg is relative: ignored, using ~/.config",
			"XDG_RUNTIME_DIR=run is relative: ignored, using hooksup-UID in $TMPDIR, else /tmp",
		}},
		{"no home", map[string]string{"XDG_STATE_HOME": "state"}, []string{"XDG_STATE_HOME=state is relative: ignored"}},
		{"a control", map[string]string{"HOME": "/h", "XDG_CONFIG_HOME": "c\x1b]0;x\a"}, []string{`XDG_CONFIG_HOME=c\e]0;x\a is relative: ignored, using ~/.config`}},
	} {
		var got []string
		for _, v := range IgnoredVars(func(k string) string { return tc.env[k] }) {
			got = append(got, v.String())
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
