package gemini

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/termsafe"
)

// Scopes: hooksup installs in the person's own settings only.
func (Agent) Scopes() []string { return []string{"user"} }

func (Agent) ScopeHelp() string { return "user only" }

func (Agent) InstallHelp() string { return "~/.gemini/settings.json" }

// Install is `hooksup install --agent gemini`, see setup.
func (Agent) Install(o agent.Install) error { return setup(o, false) }

// Uninstall is `hooksup uninstall --agent gemini`, see setup.
func (Agent) Uninstall(o agent.Install) error { return setup(o, true) }

// setup is `hooksup install --agent gemini`: hooksup's stop hook (standalone, as for
// claude) as an AfterAgent hook in the person's ~/.gemini/settings.json, where plain gemini reads
// it. Uninstall removes exactly that hook.
func setup(o agent.Install, uninstall bool) error {
	if o.Scope != "" && o.Scope != "user" {
		return &agent.ScopeError{Msg: fmt.Sprintf("--scope %s: for gemini hooksup installs in your own settings only (--scope user): "+
			"gemini runs a project's hooks only in a folder you trust, and they are the project's", o.Scope)}
	}
	stdout := o.Stdout
	path := SettingsPath(o.Getenv)
	if uninstall {
		if _, err := os.Stat(path); err != nil {
			fmt.Fprintf(stdout, "no hooksup hooks in %s\n", termsafe.String(path))
			return nil
		}
		return agent.RemoveInstalled(path, stdout)
	}
	bin, err := o.Bin()
	if err != nil {
		return err
	}
	timeout := o.Timeout()
	changed, err := hooks.EditSettingsFile(path, func(b []byte) ([]byte, error) {
		return InstallSettings(b, hooks.InstalledCommand(bin, Agent{}.Name(), hooks.Stop), timeout)
	})
	if err != nil {
		return err
	}
	if changed {
		fmt.Fprintf(stdout, "installed hooksup's stop hook (AfterAgent) in %s\n", termsafe.String(path))
	} else {
		fmt.Fprintf(stdout, "hooksup's hooks are already installed in %s\n", termsafe.String(path))
	}
	fmt.Fprintln(stdout, "plain `gemini` now runs your checks when it wants to stop, in the folders you trust in gemini (see .hooksup.toml; `hooksup init` writes one)")
	return nil
}

// Doctor reports the gemini hooksup gemini would run and where gemini would read hooks of the
// person's own. A gemini that is not installed is no problem: only hooksup gemini needs it.
func (Agent) Doctor(ctx context.Context, d agent.Check) {
	path, err := exec.LookPath(d.Bin)
	if err != nil {
		fmt.Fprintf(d.Out, "  · %s not found (only hooksup gemini needs it: npm install -g @google/gemini-cli, or --gemini-bin / HOOKSUP_GEMINI_BIN)\n", d.Bin)
		return
	}
	v, err := Version(ctx, path, os.Environ(), 20*time.Second)
	switch {
	case err != nil:
		d.Bad("%s: cannot tell its version (%v): hooksup gemini gives it its hooks and says so if none arrives", path, err)
	case v.Less(MinVersion):
		d.Bad("%s: Gemini CLI %s, older than %s: hooksup gemini refuses it (npm install -g @google/gemini-cli@latest)", path, v, MinVersion)
	default:
		d.OK("%s: Gemini CLI %s (hooksup supports %s and newer)", path, v, MinVersion)
	}
	fmt.Fprintf(d.Out, "  · hooksup gemini runs gemini with a home of its own for the session, mirroring yours, whose settings add its hooks (nothing of yours is written): %s\n",
		strings.Join(HookEvents(), ", "))
	for _, f := range HookFiles(d.Getenv, d.ProjectDir) {
		fmt.Fprintf(d.Out, "  · gemini reads hooks of its own from %s\n", termsafe.String(f))
	}
}
