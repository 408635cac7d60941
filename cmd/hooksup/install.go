package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/agent/agents"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/cli"
	"github.com/hooksup/hooksup/internal/termsafe"
)

// installFlagSet parses install's and uninstall's flags.
func installFlagSet(name string, scope, agentName *string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(scope, "scope", "", "")
	fs.StringVar(agentName, "agent", agents.Default().Name(), "")
	return fs
}

// defaultHookTimeout is Claude Code's and Codex's default timeout for a command hook (10
// minutes), the floor of every hook hooksup installs.
const defaultHookTimeout = 10 * time.Minute

// installedHookTimeout is the timeout of an installed stop hook: the one hooksup injects under a
// supervisor, for the checks configured now, and never below defaultHookTimeout, since the
// checks may grow after the install.
func installedHookTimeout(g globalFlags, env environment) time.Duration {
	timeout := defaultHookTimeout
	if cfg, err := loadConfig(g, env, io.Discard); err == nil {
		timeout = max(timeout, cfg.StopHookTimeout())
	}
	return timeout
}

func runInstall(g globalFlags, args []string, stdout, stderr io.Writer, uninstall bool) (int, error) {
	name := "install"
	if uninstall {
		name = "uninstall"
	}
	var scope, agentName string
	fs := installFlagSet(name, &scope, &agentName)
	var names, scopes []string
	for _, a := range agents.All() {
		if in, ok := a.(agent.Installer); ok {
			names = append(names, a.Name())
			for _, sc := range in.Scopes() {
				if !slices.Contains(scopes, sc) {
					scopes = append(scopes, sc)
				}
			}
		}
	}
	if err := parseFlags(fs, args); err != nil {
		return 2, fmt.Errorf("%v (usage: hooksup %s [--agent %s] [--scope %s])", err, name, strings.Join(names, "|"), strings.Join(scopes, "|"))
	}
	env, err := loadEnvironment()
	if err != nil {
		return 1, err
	}
	a, _ := agents.ByName(agentName)
	in, ok := a.(agent.Installer)
	if !ok {
		return 2, fmt.Errorf("--agent %q: hooksup installs for %s", agentName, orList(names))
	}
	o := agent.Install{Scope: scope, ProjectDir: env.cwd, Home: env.home, Getenv: os.Getenv, Stdout: stdout,
		Bin: hookBin, Timeout: func() time.Duration { return installedHookTimeout(g, env) },
		SharedBin: func() string { return sharedHookBin(stderr) }}
	if uninstall {
		err = in.Uninstall(o)
	} else {
		err = in.Install(o)
	}
	var se *agent.ScopeError
	switch {
	case errors.As(err, &se):
		return 2, err
	case err != nil:
		return 1, err
	}
	return 0, nil
}

// hookBin is the binary the installed hooks run: the small hook client when it is installed
// beside hooksup (it starts in a fraction of hooksup's time, and the hook runs at every stop),
// else hooksup itself.
func hookBin() (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("find hooksup's own binary: %w", err)
	}
	bin := self
	if c := hookClient(self); c != "" {
		bin = c
	}
	return bin, hooks.CheckProgramPath(bin)
}

// sharedHookBin is the program the hooks of a settings file shared with others run: hooksup by
// name, which each machine finds on its PATH, so that the file holds no path of this machine.
// The hook client beside hooksup would start faster, but not every install has it (go install
// of cmd/hooksup alone). stderr is told when this machine's PATH finds no hooksup, or another
// one than this.
func sharedHookBin(stderr io.Writer) string {
	const name = "hooksup"
	found, err := exec.LookPath(name)
	if err != nil {
		fmt.Fprintf(stderr, "hooksup: warning: no hooksup on your PATH, so the hook does not run here: put hooksup's directory on your PATH, or install with --scope local (this machine only)\n")
		return name
	}
	self, err := os.Executable()
	if err != nil {
		return name
	}
	a, errA := os.Stat(found)
	b, errB := os.Stat(self)
	if errA == nil && errB == nil && !os.SameFile(a, b) {
		fmt.Fprintf(stderr, "hooksup: warning: the hook runs the hooksup on your PATH, %s, not this one (%s)\n", termsafe.String(found), termsafe.String(self))
	}
	return name
}

func installCommand(s shared) command {
	return command{
		Command: cli.Command{Name: "install", Group: groupProject, Flags: []cli.Flag{s.agentFlag, s.scope},
			Summary: "make the plain agent run the checks too",
			Help:    "register hooksup's Stop hooks so the plain agent (" + orList(s.names) + ") runs the checks"},
		flagSet: func() *flag.FlagSet { var v string; return installFlagSet("install", &v, &v) },
		run: func(_ context.Context, g globalFlags, args []string, std stdio) (int, error) {
			return runInstall(g, args, std.out, std.err, false)
		},
	}
}
