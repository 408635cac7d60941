package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/codex"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/termsafe"
)

// runInstallCodex is `hooksup install --agent codex`: hooksup's Stop and SubagentStop hooks
// (standalone, as for claude) in $CODEX_HOME/hooks.json, where plain codex reads them, and the
// [hooks.state] entries that trust exactly those in $CODEX_HOME/config.toml, since Codex runs
// no hook whose definition the person has not trusted. Uninstall removes the hooks and exactly
// those entries (agent.CodexRemoveTrust), nothing else of the person's.
func runInstallCodex(g globalFlags, env environment, scope string, stdout io.Writer, uninstall bool) (int, error) {
	if scope != "" && scope != "user" {
		return 2, fmt.Errorf("--scope %s: for codex hooksup installs in your own Codex configuration only (--scope user): "+
			"Codex takes the trust of a hook from there, never from a project", scope)
	}
	home := agent.CodexHome(os.Getenv)
	path := filepath.Join(home, "hooks.json")
	if uninstall {
		// The entries that trust hooksup's hooks are known by those hooks: read them first.
		var trust []codex.Trust
		if b, err := os.ReadFile(path); err == nil {
			if trust, err = codex.InstalledTrust(path, b); err != nil {
				return 1, err
			}
		}
		if err := removeHooks(path, stdout); err != nil {
			return 1, err
		}
		config := filepath.Join(home, "config.toml")
		removed := 0
		if len(trust) > 0 {
			if _, err := os.Stat(config); err == nil {
				if _, err := hooks.EditSettingsFile(config, func(c []byte) ([]byte, error) {
					out, n := codex.RemoveTrust(c, trust)
					removed = n
					return out, nil
				}); err != nil {
					return 1, err
				}
			}
		}
		if removed > 0 {
			fmt.Fprintf(stdout, "removed the entries that trusted them from %s\n", termsafe.String(config))
		}
		return 0, nil
	}
	bin, err := hookBin()
	if err != nil {
		return 1, err
	}
	timeout := math.Ceil(installedHookTimeout(g, env).Seconds())
	if err := os.MkdirAll(home, 0o700); err != nil {
		return 1, err
	}
	changed, err := hooks.EditSettingsFile(path, func(b []byte) ([]byte, error) { return hooks.MergeInstall(b, bin, timeout) })
	if err != nil {
		return 1, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return 1, err
	}
	trust, err := codex.InstalledTrust(path, b)
	if err != nil {
		return 1, err
	}
	config := filepath.Join(home, "config.toml")
	added := 0
	if _, err := hooks.EditSettingsFile(config, func(c []byte) ([]byte, error) {
		out, n, err := codex.AddTrust(c, trust)
		added = n
		return out, err
	}); err != nil {
		return 1, err
	}
	switch {
	case changed:
		fmt.Fprintf(stdout, "installed hooksup's Stop and SubagentStop hooks in %s\n", termsafe.String(path))
	default:
		fmt.Fprintf(stdout, "hooksup's hooks are already installed in %s\n", termsafe.String(path))
	}
	if added > 0 {
		fmt.Fprintf(stdout, "trusted exactly those in %s ([hooks.state], by their hash)\n", termsafe.String(config))
	}
	fmt.Fprintln(stdout, "plain `codex` now runs your checks when it wants to stop (see .hooksup.toml; `hooksup init` writes one)")
	return 0, nil
}
