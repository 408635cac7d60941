package codex

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/termsafe"
)

// Scopes: hooksup installs in the person's own Codex configuration only.
func (Agent) Scopes() []string { return []string{"user"} }

func (Agent) ScopeHelp() string { return "user only" }

func (Agent) InstallHelp() string { return "$CODEX_HOME/hooks.json, trusted in its config.toml" }

// Install is `hooksup install --agent codex`: hooksup's Stop and SubagentStop hooks
// (standalone, as for claude) in $CODEX_HOME/hooks.json, where plain codex reads them, and the
// [hooks.state] entries that trust exactly those in $CODEX_HOME/config.toml, since Codex runs
// no hook whose definition the person has not trusted. Uninstall removes the hooks and exactly
// those entries (RemoveTrust), nothing else of the person's.
func (Agent) Install(o agent.Install) error { return setup(o, false) }

// Uninstall removes hooksup's hooks from $CODEX_HOME/hooks.json and the entries that trusted them.
func (Agent) Uninstall(o agent.Install) error { return setup(o, true) }

func setup(o agent.Install, uninstall bool) error {
	if o.Scope != "" && o.Scope != "user" {
		return &agent.ScopeError{Msg: fmt.Sprintf("--scope %s: for codex hooksup installs in your own Codex configuration only (--scope user): "+
			"Codex takes the trust of a hook from there, never from a project", o.Scope)}
	}
	stdout := o.Stdout
	home := Home(o.Getenv)
	path := filepath.Join(home, "hooks.json")
	if uninstall {
		// The entries that trust hooksup's hooks are known by those hooks: read them first.
		var trust []Trust
		if b, err := os.ReadFile(path); err == nil {
			if trust, err = InstalledTrust(path, b); err != nil {
				return err
			}
		}
		if err := agent.RemoveInstalled(path, stdout); err != nil {
			return err
		}
		config := filepath.Join(home, "config.toml")
		removed := 0
		if len(trust) > 0 {
			if _, err := os.Stat(config); err == nil {
				if _, err := hooks.EditSettingsFile(config, func(c []byte) ([]byte, error) {
					out, n := RemoveTrust(c, trust)
					removed = n
					return out, nil
				}); err != nil {
					return err
				}
			}
		}
		if removed > 0 {
			fmt.Fprintf(stdout, "removed the entries that trusted them from %s\n", termsafe.String(config))
		}
		return nil
	}
	bin, err := o.Bin()
	if err != nil {
		return err
	}
	timeout := math.Ceil(o.Timeout().Seconds())
	if err := os.MkdirAll(home, 0o700); err != nil {
		return err
	}
	changed, err := hooks.EditSettingsFile(path, func(b []byte) ([]byte, error) { return hooks.MergeInstall(b, bin, Agent{}.Name(), timeout) })
	if err != nil {
		return err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	trust, err := InstalledTrust(path, b)
	if err != nil {
		return err
	}
	config := filepath.Join(home, "config.toml")
	added := 0
	if _, err := hooks.EditSettingsFile(config, func(c []byte) ([]byte, error) {
		out, n, err := AddTrust(c, trust)
		added = n
		return out, err
	}); err != nil {
		return err
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
	return nil
}

// Doctor reports the codex hooksup codex would run and where Codex would read hooks of its own.
// A codex that is not installed is no problem: only hooksup codex needs it.
func (Agent) Doctor(ctx context.Context, d agent.Check) {
	path, err := exec.LookPath(d.Bin)
	if err != nil {
		fmt.Fprintf(d.Out, "  · %s not found (only hooksup codex needs it: npm install -g @openai/codex, or --codex-bin / HOOKSUP_CODEX_BIN)\n", d.Bin)
		return
	}
	v, err := Version(ctx, path, os.Environ(), 10*time.Second)
	switch {
	case err != nil:
		d.Bad("%s: cannot tell its version (%v): hooksup codex injects its hooks and says so if none arrives", path, err)
	case v.Less(MinVersion):
		d.Bad("%s: Codex %s, older than %s: hooksup codex refuses it (npm install -g @openai/codex@latest)", path, v, MinVersion)
	default:
		d.OK("%s: Codex %s (hooksup supports %s and newer)", path, v, MinVersion)
	}
	fmt.Fprintf(d.Out, "  · hooksup codex defines its own hooks with -c for its session and trusts exactly those (nothing is written): %s\n",
		strings.Join(HookEvents(), ", "))
	for _, f := range HookFiles(d.Getenv, d.ProjectDir) {
		fmt.Fprintf(d.Out, "  · Codex reads hooks of its own from %s\n", termsafe.String(f))
	}
}
