package claude

import (
	"fmt"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/termsafe"
)

// Install registers hooksup's Stop and SubagentStop hooks in the settings file of the scope
// (local by default), keeping everything else there. The project's file is the team's, in git:
// its hooks run hooksup as each machine finds it on its PATH (o.SharedBin), not this machine's
// path to it.
func (Agent) Install(o agent.Install) error {
	path, err := scopePath(o)
	if err != nil {
		return err
	}
	shared := o.Scope == "project" && o.SharedBin != nil
	var bin string
	if shared {
		bin = o.SharedBin()
	} else if bin, err = o.Bin(); err != nil {
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
	if shared {
		fmt.Fprintf(o.Stdout, "they run `%s`, the hooksup on each machine's PATH: commit the file, and every clone with hooksup installed runs your checks\n",
			termsafe.String(hooks.InstalledCommand(bin, Agent{}.Name(), hooks.Stop)))
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
	return ".claude/settings.local.json (local, the default), .claude/settings.json (project: shared, its hook runs\nthe hooksup on each machine's PATH), ~/.claude/settings.json (user)"
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
