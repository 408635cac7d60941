package copilot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/atomicfile"
	"github.com/hooksup/hooksup/internal/termsafe"
)

// Scopes: hooksup installs in the person's own settings only.
func (Agent) Scopes() []string { return []string{"user"} }

func (Agent) ScopeHelp() string { return "user only" }

func (Agent) InstallHelp() string { return "~/.copilot/settings.json ($COPILOT_HOME/settings.json)" }

// SettingsPath is the person's settings.json, whose "hooks" are their user-level hooks
// (`copilot help config`): where hooksup install --agent copilot writes.
func SettingsPath(getenv func(string) string) string {
	return filepath.Join(Home(getenv), "settings.json")
}

// Install is `hooksup install --agent copilot`: hooksup's stop hook (standalone, as for claude)
// as an agentStop hook in the person's settings.json, where plain copilot reads it. Only text is
// inserted, so that Uninstall gives the file back byte for byte.
func (Agent) Install(o agent.Install) error {
	if err := scope(o); err != nil {
		return err
	}
	bin, err := o.Bin()
	if err != nil {
		return err
	}
	command := hooks.InstalledCommand(bin, Agent{}.Name(), hooks.Stop)
	path := SettingsPath(o.Getenv)
	changed, err := edit(path, func(b []byte) ([]byte, error) { return InstallSettings(b, command, seconds(o.Timeout())) })
	if err != nil {
		return err
	}
	if changed {
		fmt.Fprintf(o.Stdout, "installed hooksup's stop hook (agentStop) in %s\n", termsafe.String(path))
	} else {
		fmt.Fprintf(o.Stdout, "hooksup's hooks are already installed in %s\n", termsafe.String(path))
	}
	fmt.Fprintln(o.Stdout, "plain `copilot` now runs your checks when it wants to stop (see .hooksup.toml; `hooksup init` writes one)")
	if disabled(path) {
		fmt.Fprintf(o.Stdout, "but disableAllHooks is true in %s: copilot runs none of its settings' hooks, hooksup's included, until it is false\n", termsafe.String(path))
	}
	return nil
}

// Uninstall is `hooksup uninstall --agent copilot`: it takes out exactly what Install inserted,
// and removes the file Install made when nothing else is in it.
func (Agent) Uninstall(o agent.Install) error {
	if err := scope(o); err != nil {
		return err
	}
	path := SettingsPath(o.Getenv)
	changed, err := edit(path, UninstallSettings)
	if err != nil {
		return err
	}
	if changed {
		fmt.Fprintf(o.Stdout, "removed hooksup's hooks from %s\n", termsafe.String(path))
	} else {
		fmt.Fprintf(o.Stdout, "hooksup's hooks were not in %s\n", termsafe.String(path))
	}
	return nil
}

func scope(o agent.Install) error {
	if o.Scope != "" && o.Scope != "user" {
		return &agent.ScopeError{Msg: fmt.Sprintf("--scope %s: for copilot hooksup installs in your own settings only (--scope user): "+
			"copilot runs a repository's hooks only in a folder you trust, and they are the repository's", o.Scope)}
	}
	return nil
}

// edit applies f to the file at path (a link is followed: the file of the person's dotfiles is
// edited where it is), writing it whole when it changed, with its mode; a missing file is
// made (0600), and removed when f leaves nothing (nil).
func edit(path string, f func([]byte) ([]byte, error)) (bool, error) {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("read %s: %w", path, err)
	}
	missing := err != nil
	out, err := f(old)
	if err != nil {
		return false, fmt.Errorf("%s: %w (the file was not changed; fix it or move it away)", path, err)
	}
	if bytes.Equal(old, out) && (out != nil || missing) {
		return false, nil
	}
	if out == nil {
		return true, os.Remove(path)
	}
	mode := os.FileMode(0o600)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return false, fmt.Errorf("write %s: %w", path, err)
	}
	return true, atomicfile.Write(path, out, mode)
}

// disabled reports disableAllHooks: true in the settings file at path.
func disabled(path string) bool {
	b, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	var s struct {
		DisableAllHooks bool `json:"disableAllHooks"`
	}
	return json.Unmarshal(b, &s) == nil && s.DisableAllHooks
}

// HookFiles are the files where copilot would read stop hooks of the person's or the
// repository's own (agentStop, or Claude Code's Stop) for a session in projectDir: the user's
// settings.json and hooks/*.json, and, in a folder the person trusts, the repository's
// .github/hooks/*.json, .github/copilot/settings{,.local}.json and .claude/settings{,.local}.json.
// hooksup's installed hook is not one of them.
func HookFiles(getenv func(string) string, projectDir string) []string {
	home := Home(getenv)
	files := []string{filepath.Join(home, "settings.json")}
	for _, g := range []string{filepath.Join(home, "hooks", "*.json"), filepath.Join(projectDir, ".github", "hooks", "*.json")} {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	for _, f := range []string{".github/copilot/settings.json", ".github/copilot/settings.local.json", ".claude/settings.json", ".claude/settings.local.json"} {
		files = append(files, filepath.Join(projectDir, filepath.FromSlash(f)))
	}
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var m struct {
			Hooks map[string][]json.RawMessage `json:"hooks"`
		}
		if json.Unmarshal(b, &m) != nil {
			continue
		}
		for _, ev := range []string{"agentStop", "Stop"} {
			if slicesAny(m.Hooks[ev], func(h json.RawMessage) bool {
				return !isInstalled(h) && !strings.Contains(string(h), hooks.InstalledFlag)
			}) {
				out = append(out, f)
				break
			}
		}
	}
	return out
}

func slicesAny(list []json.RawMessage, f func(json.RawMessage) bool) bool {
	for _, x := range list {
		if f(x) {
			return true
		}
	}
	return false
}

// Doctor reports the copilot hooksup copilot would run, and the settings where copilot would
// read stop hooks of the person's or the repository's own. A copilot that is not installed is no
// problem: only hooksup copilot needs it.
func (Agent) Doctor(ctx context.Context, d agent.Check) {
	path, err := exec.LookPath(d.Bin)
	if err != nil {
		fmt.Fprintf(d.Out, "  · %s not found (only hooksup copilot needs it: npm install -g @github/copilot, or --copilot-bin / HOOKSUP_COPILOT_BIN)\n", d.Bin)
		return
	}
	v, err := Version(ctx, path, os.Environ(), 20*time.Second)
	switch {
	case err != nil:
		d.Bad("%s: cannot tell its version (%v): hooksup copilot gives it its hooks and says so if none arrives", path, err)
	case v.Less(MinVersion):
		d.Bad("%s: GitHub Copilot CLI %s, older than %s: hooksup copilot refuses it (npm install -g @github/copilot@latest)", path, v, MinVersion)
	default:
		d.OK("%s: GitHub Copilot CLI %s (hooksup supports %s and newer)", path, v, MinVersion)
	}
	fmt.Fprintf(d.Out, "  · hooksup copilot gives copilot a plugin of its own for the session with --plugin-dir (nothing of yours is written): %s\n",
		strings.Join(HookEvents(), ", "))
	settings := SettingsPath(d.Getenv)
	if disabled(settings) {
		fmt.Fprintf(d.Out, "  · disableAllHooks is true in %s: plain copilot runs none of its settings' hooks (hooksup install's included); "+
			"hooksup copilot's plugin still runs\n", termsafe.String(settings))
	}
	for _, f := range HookFiles(d.Getenv, d.ProjectDir) {
		d.Bad("%s has a stop hook (agentStop or Stop) of its own: when it blocks too, copilot sends the model one reason only "+
			"(hooksup's plugin's wins over settings'), so its reason may never be read", termsafe.String(f))
	}
}
