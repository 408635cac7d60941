package qwen

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hooksup/hooksup/internal/termsafe"
)

// settings is what hooksup reads of one of qwen's settings files.
type settings struct {
	Path            string
	DisableAllHooks bool
	BlockCap        json.Number
	Hooks           map[string]json.RawMessage
	FolderTrust     bool // security.folderTrust.enabled
}

// readSettings reads the settings file at path; ok is false when there is none or it cannot be
// read as qwen's.
func readSettings(path string) (settings, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return settings{}, false
	}
	var m struct {
		DisableAllHooks bool                       `json:"disableAllHooks"`
		BlockCap        json.Number                `json:"stopHookBlockingCap"`
		Hooks           map[string]json.RawMessage `json:"hooks"`
		Security        struct {
			FolderTrust struct {
				Enabled bool `json:"enabled"`
			} `json:"folderTrust"`
		} `json:"security"`
	}
	if decodeSettings(b, &m) != nil {
		return settings{}, false
	}
	return settings{Path: path, DisableAllHooks: m.DisableAllHooks, BlockCap: m.BlockCap, Hooks: m.Hooks,
		FolderTrust: m.Security.FolderTrust.Enabled}, true
}

// userSettings are the person's own settings ($QWEN_HOME/settings.json).
func userSettings(getenv func(string) string) settings {
	s, _ := readSettings(UserSettingsPath(getenv))
	return s
}

// UserSettingsPath is the person's settings.json, where hooksup install --agent qwen writes.
func UserSettingsPath(getenv func(string) string) string {
	return filepath.Join(Home(getenv), "settings.json")
}

// blockCap is the file's stopHookBlockingCap as qwen reads it (1 to 100); ok is false without one.
func (s settings) blockCap() (int, bool) {
	if s.BlockCap == "" {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(s.BlockCap), 64)
	if err != nil || f < 1 {
		return 0, false
	}
	return min(int(f), 100), true
}

// stopHooks counts the file's own Stop hooks (hooksup's not among them).
func (s settings) stopHooks() int {
	var groups []struct {
		Hooks []struct {
			Name string `json:"name"`
		} `json:"hooks"`
	}
	if json.Unmarshal(s.Hooks["Stop"], &groups) != nil {
		return 0
	}
	n := 0
	for _, g := range groups {
		for _, h := range g.Hooks {
			if h.Name != hookName && h.Name != installedName {
				n++
			}
		}
	}
	return n
}

// layers are the settings files qwen reads for a session in projectDir, the ones that win
// first: the system settings, the project's (none in the home directory), the person's, the
// system defaults.
func layers(getenv func(string) string, projectDir string) []settings {
	paths := []string{SystemSettingsPath(getenv)}
	if projectDir != "" && filepath.Clean(projectDir) != filepath.Dir(Home(getenv)) {
		paths = append(paths, filepath.Join(projectDir, ".qwen", "settings.json"))
	}
	paths = append(paths, UserSettingsPath(getenv), SystemDefaultsPath(getenv))
	var out []settings
	for _, p := range paths {
		if s, ok := readSettings(p); ok {
			out = append(out, s)
		}
	}
	return out
}

// Warnings are what the person should know of how qwen run with args in projectDir will run
// hooksup's hooks: an argument, a variable or a setting of theirs that turns every hook off
// (hooksup's gate too), and a project's own Stop hooks that qwen runs beside hooksup's.
func Warnings(args []string, getenv func(string) string, projectDir string) []string {
	var out []string
	off := " turns every hook of qwen's off, hooksup's too: its stops are not gated, and the checks do not run"
	for _, a := range args {
		if a == "--" {
			break
		}
		switch name, _, _ := strings.Cut(a, "="); name {
		case "--bare", "--safe-mode":
			if !strings.HasSuffix(a, "=false") {
				out = append(out, "your "+name+off)
			}
		}
	}
	for _, v := range []string{"QWEN_CODE_SIMPLE", "QWEN_CODE_SAFE_MODE"} {
		if t := strings.ToLower(getenv(v)); t == "1" || t == "true" {
			out = append(out, v+"="+getenv(v)+off)
		}
	}
	trust := false
	ls := layers(getenv, projectDir)
	for _, s := range ls {
		trust = trust || s.FolderTrust
	}
	for _, s := range ls {
		if s.DisableAllHooks {
			out = append(out, fmt.Sprintf("disableAllHooks in %s%s", termsafe.String(s.Path), off))
		}
	}
	for _, s := range ls {
		if n := s.stopHooks(); n > 0 && filepath.Dir(filepath.Dir(s.Path)) == projectDir && projectDir != "" {
			what := "qwen runs them without asking (folder trust is off)"
			if trust {
				what = "qwen runs them if you trust this folder"
			}
			out = append(out, fmt.Sprintf("%s has %d Stop hook(s) of the project's own: %s, and when one blocks, qwen continues with what they say joined with hooksup's reason",
				termsafe.String(s.Path), n, what))
		}
	}
	return out
}
