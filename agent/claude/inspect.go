package claude

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hooksup/hooksup/hooks"
)

// SettingsSource is one of Claude Code's settings files.
type SettingsSource struct {
	Name string // user, project, local, managed
	Path string
}

// SettingsSources lists the settings files Claude Code reads for a project, lowest
// precedence first, the managed policy last.
func SettingsSources(projectDir, home string) []SettingsSource {
	return []SettingsSource{
		{"user", filepath.Join(home, ".claude", "settings.json")},
		{"project", filepath.Join(projectDir, ".claude", "settings.json")},
		{"local", filepath.Join(projectDir, ".claude", "settings.local.json")},
		{"managed", "/etc/claude-code/managed-settings.json"},
	}
}

// FoundHook is one command hook found in a settings file.
type FoundHook struct {
	Source  string
	Path    string
	Event   string
	Matcher string
	Command string
	Timeout float64
	Ours    bool // registered by hooksup install
	// IgnoresActive: a Stop/SubagentStop hook whose command (and script, when it names a
	// readable file) never mentions stop_hook_active, so it may block forever.
	IgnoresActive bool
}

// SettingsReport is what InspectSettings found.
type SettingsReport struct {
	Hooks           []FoundHook
	DisableAllHooks []string // sources that set disableAllHooks: true
	Problems        []string // unreadable or invalid files
	Missing         []string // sources without a file
}

// InspectSettings reads the settings files and lists every hook, by source.
func InspectSettings(sources []SettingsSource) SettingsReport {
	var r SettingsReport
	for _, src := range sources {
		data, err := os.ReadFile(src.Path)
		if errors.Is(err, os.ErrNotExist) {
			r.Missing = append(r.Missing, src.Name)
			continue
		}
		if err != nil {
			r.Problems = append(r.Problems, fmt.Sprintf("%s (%s): %v", src.Name, src.Path, err))
			continue
		}
		var s struct {
			DisableAllHooks bool                            `json:"disableAllHooks"`
			Hooks           map[string][]hooks.MatcherGroup `json:"hooks"`
		}
		if err := json.Unmarshal(data, &s); err != nil {
			r.Problems = append(r.Problems, fmt.Sprintf("%s (%s): not valid settings JSON: %v", src.Name, src.Path, err))
			continue
		}
		if s.DisableAllHooks {
			r.DisableAllHooks = append(r.DisableAllHooks, fmt.Sprintf("%s (%s)", src.Name, src.Path))
		}
		events := make([]string, 0, len(s.Hooks))
		for ev := range s.Hooks {
			events = append(events, ev)
		}
		sort.Strings(events)
		for _, ev := range events {
			for _, g := range s.Hooks[ev] {
				for _, h := range g.Hooks {
					fh := FoundHook{Source: src.Name, Path: src.Path, Event: ev, Matcher: g.Matcher, Command: h.Command,
						Timeout: h.Timeout, Ours: hooks.IsInstalledCommand(h.Command)}
					if hooks.IsStop(ev) && !fh.Ours && h.Type != "prompt" && h.Type != "agent" {
						fh.IgnoresActive = !mentionsActive(h.Command)
					}
					r.Hooks = append(r.Hooks, fh)
				}
			}
		}
	}
	return r
}

// mentionsActive looks for stop_hook_active in the command and in any file it names.
func mentionsActive(command string) bool {
	if strings.Contains(command, "stop_hook_active") {
		return true
	}
	for _, f := range strings.Fields(command) {
		f = strings.Trim(f, `"'`)
		if strings.HasPrefix(f, "~/") {
			if home, err := os.UserHomeDir(); err == nil {
				f = filepath.Join(home, f[2:])
			}
		}
		f = os.ExpandEnv(f)
		if !filepath.IsAbs(f) && !strings.HasPrefix(f, ".") {
			continue
		}
		fi, err := os.Stat(f)
		if err != nil || !fi.Mode().IsRegular() || fi.Size() > 1<<20 {
			continue
		}
		if b, err := os.ReadFile(f); err == nil && strings.Contains(string(b), "stop_hook_active") {
			return true
		}
	}
	return false
}
