package e2e

import (
	"os"
	"path/filepath"
	"strings"
)

// UserConfig writes the sandbox's $XDG_CONFIG_HOME/hooksup/config.toml and returns its path.
func (s *Sandbox) UserConfig(toml string) string {
	s.t.Helper()
	var dir string
	for _, kv := range s.Env {
		if v, ok := strings.CutPrefix(kv, "XDG_CONFIG_HOME="); ok {
			dir = filepath.Join(v, "hooksup")
		}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		s.t.Fatal(err)
	}
	p := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(p, []byte(toml), 0o600); err != nil {
		s.t.Fatal(err)
	}
	return p
}

// LineWith is the first line of scr containing text.
func LineWith(scr, text string) string {
	for _, l := range strings.Split(scr, "\n") {
		if strings.Contains(l, text) {
			return l
		}
	}
	return ""
}
