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
