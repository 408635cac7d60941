package main

import (
	"fmt"
	"io"
	"os"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/termsafe"
)

// runInstallGemini is `hooksup install --agent gemini`: hooksup's stop hook (standalone, as for
// claude) as an AfterAgent hook in the person's ~/.gemini/settings.json, where plain gemini reads
// it. Uninstall removes exactly that hook.
func runInstallGemini(g globalFlags, env environment, scope string, stdout io.Writer, uninstall bool) (int, error) {
	if scope != "" && scope != "user" {
		return 2, fmt.Errorf("--scope %s: for gemini hooksup installs in your own settings only (--scope user): "+
			"gemini runs a project's hooks only in a folder you trust, and they are the project's", scope)
	}
	path := agent.GeminiSettingsPath(os.Getenv)
	if uninstall {
		if _, err := os.Stat(path); err != nil {
			fmt.Fprintf(stdout, "no hooksup hooks in %s\n", termsafe.String(path))
			return 0, nil
		}
		if err := removeHooks(path, stdout); err != nil {
			return 1, err
		}
		return 0, nil
	}
	bin, err := hookBin()
	if err != nil {
		return 1, err
	}
	timeout := installedHookTimeout(g, env)
	changed, err := hooks.EditSettingsFile(path, func(b []byte) ([]byte, error) {
		return agent.GeminiInstall(b, hooks.InstalledCommand(bin, hooks.Stop), timeout)
	})
	if err != nil {
		return 1, err
	}
	if changed {
		fmt.Fprintf(stdout, "installed hooksup's stop hook (AfterAgent) in %s\n", termsafe.String(path))
	} else {
		fmt.Fprintf(stdout, "hooksup's hooks are already installed in %s\n", termsafe.String(path))
	}
	fmt.Fprintln(stdout, "plain `gemini` now runs your checks when it wants to stop, in the folders you trust in gemini (see .hooksup.toml; `hooksup init` writes one)")
	return 0, nil
}
