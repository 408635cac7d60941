package claude

import (
	"fmt"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/termsafe"
)

// Install registers hooksup's Stop and SubagentStop hooks in the settings file of the scope
// (local by default), keeping everything else there.
func (Agent) Install(o agent.Install) error {
	path, err := scopePath(o)
	if err != nil {
		return err
	}
	bin, err := o.Bin()
	if err != nil {
		return err
	}
	timeout := o.Timeout()
	changed, err := hooks.EditSettingsFile(path, func(b []byte) ([]byte, error) { return hooks.MergeInstall(b, bin, Agent{}.Name(), timeout.Seconds()) })
	if err != nil {
		return err
	}
	if changed {
		fmt.Fprintf(o.Stdout, "installed hooksup's Stop and SubagentStop hooks in %s\n", termsafe.String(path))
	} else {
		fmt.Fprintf(o.Stdout, "hooksup's hooks are already installed in %s\n", termsafe.String(path))
	}
	fmt.Fprintln(o.Stdout, "plain `claude` in this project now runs your checks when it wants to stop (see .hooksup.toml; `hooksup init` writes one)")
	return nil
}

// Uninstall removes them from the settings file of the scope, and nothing else.
func (Agent) Uninstall(o agent.Install) error {
	path, err := scopePath(o)
	if err != nil {
		return err
	}
	return agent.RemoveInstalled(path, o.Stdout)
}

// Scopes are claude's settings files an install may go to: local, project, user.
func (Agent) Scopes() []string { return Scopes() }

func (Agent) ScopeHelp() string {
	return ".claude/settings.local.json (local, the default), .claude/settings.json (project), ~/.claude/settings.json (user)"
}

func (Agent) InstallHelp() string { return "Claude Code's settings file of --scope" }

func scopePath(o agent.Install) (string, error) {
	scope := o.Scope
	if scope == "" {
		scope = "local"
	}
	path, err := SettingsPath(scope, o.ProjectDir, o.Home)
	if err != nil {
		return "", &agent.ScopeError{Msg: err.Error()}
	}
	return path, nil
}
