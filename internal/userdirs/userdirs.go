// Package userdirs is where hooksup keeps the user's files: the configuration
// ($XDG_CONFIG_HOME/hooksup, else ~/.config/hooksup) and the state — verdict logs, trust
// records, hooksup.log, the web's tokens — ($XDG_STATE_HOME/hooksup, else
// ~/.local/state/hooksup), on macOS as on Linux. Never a relative path: a relative XDG variable
// is ignored, as the XDG spec says, and with no absolute HOME there is no directory at all —
// never one under the current directory, where a project could have put its own.
package userdirs

import (
	"errors"
	"path/filepath"

	"github.com/hooksup/hooksup/internal/termsafe"
)

// ErrNoHome is why there is no directory: HOME is unset or not absolute, and the XDG variable
// that would do instead is too.
var ErrNoHome = errors.New("HOME is not set to an absolute directory, so hooksup has nowhere to keep its files: set HOME (or XDG_STATE_HOME and XDG_CONFIG_HOME) to an absolute path")

// Home is $HOME when it is an absolute path.
func Home(getenv func(string) string) (string, error) {
	if h := getenv("HOME"); filepath.IsAbs(h) {
		return filepath.Clean(h), nil
	}
	return "", ErrNoHome
}

// State is hooksup's state directory.
func State(getenv func(string) string) (string, error) {
	return dir(getenv, "XDG_STATE_HOME", ".local", "state")
}

// Config is hooksup's user configuration directory.
func Config(getenv func(string) string) (string, error) {
	return dir(getenv, "XDG_CONFIG_HOME", ".config")
}

func dir(getenv func(string) string, xdg string, underHome ...string) (string, error) {
	if d := getenv(xdg); filepath.IsAbs(d) {
		return filepath.Join(d, "hooksup"), nil
	}
	home, err := Home(getenv)
	if err != nil {
		return "", err
	}
	return filepath.Join(append(append([]string{home}, underHome...), "hooksup")...), nil
}

// Ignored is an XDG variable hooksup reads that is set to a relative path, which it ignores.
type Ignored struct {
	Var, Value string
	Instead    string // where hooksup looks instead, as a person writes it ("~/.local/state"); "" for nowhere
}

// String says it for the person: "XDG_STATE_HOME=state is relative: ignored, using
// ~/.local/state", the value's controls shown visibly.
func (i Ignored) String() string {
	s := i.Var + "=" + termsafe.String(i.Value) + " is relative: ignored"
	if i.Instead != "" {
		s += ", using " + i.Instead
	}
	return s
}

// IgnoredVars are the XDG variables hooksup reads (XDG_STATE_HOME, XDG_CONFIG_HOME and, for the
// sockets, XDG_RUNTIME_DIR) that are set to a relative path: ignored, as the XDG spec says,
// silently but for this list, which the commands tell the person once.
func IgnoredVars(getenv func(string) string) []Ignored {
	_, noHome := Home(getenv)
	var out []Ignored
	for _, v := range []struct{ name, instead string }{
		{"XDG_STATE_HOME", "~/.local/state"},
		{"XDG_CONFIG_HOME", "~/.config"},
		{"XDG_RUNTIME_DIR", "hooksup-UID in $TMPDIR, else /tmp"},
	} {
		val := getenv(v.name)
		if val == "" || filepath.IsAbs(val) {
			continue
		}
		if noHome != nil && v.name != "XDG_RUNTIME_DIR" {
			v.instead = "" // ErrNoHome says the rest
		}
		out = append(out, Ignored{Var: v.name, Value: val, Instead: v.instead})
	}
	return out
}
