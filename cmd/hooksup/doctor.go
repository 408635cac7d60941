package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/agent/agents"
	"github.com/hooksup/hooksup/checks"
	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/internal/cli"
	"github.com/hooksup/hooksup/internal/notify"
	"github.com/hooksup/hooksup/internal/runtimedir"
	"github.com/hooksup/hooksup/internal/termsafe"
)

func runDoctor(ctx context.Context, g globalFlags, stdout io.Writer) (int, error) {
	env, err := loadEnvironment()
	if err != nil {
		return 1, err
	}
	problems := 0
	// What doctor reports names paths, hook commands and configuration from outside hooksup:
	// each line is shown visibly, but for its own line breaks.
	bad := func(format string, a ...any) {
		problems++
		fmt.Fprintf(stdout, "  ✗ %s\n", termsafe.Text(fmt.Sprintf(format, a...)))
	}
	ok := func(format string, a ...any) {
		fmt.Fprintf(stdout, "  ✓ %s\n", termsafe.Text(fmt.Sprintf(format, a...)))
	}

	for _, a := range agents.All() {
		d, isDoctor := a.(agent.Doctor)
		if !isDoctor {
			continue
		}
		fmt.Fprintln(stdout, a.Name())
		d.Doctor(ctx, agent.Check{Bin: agentBin(g, a), ProjectDir: env.cwd, Home: env.home, Getenv: os.Getenv, Out: stdout, OK: ok, Bad: bad})
	}

	fmt.Fprintln(stdout, "hooksup configuration")
	cfg, layers, err := loadLayers(g, env)
	if err != nil {
		bad("%s", errorText(err))
	}
	if !slices.ContainsFunc(layers, func(l config.Layer) bool { return l.Used || l.Note != "" }) && err == nil {
		fmt.Fprintf(stdout, "  · no configuration file: the defaults, and no checks (no .hooksup.toml in %s or above it, up to the repository's root; hooksup init writes one)\n",
			termsafe.String(env.cwd))
	}
	for _, l := range layers {
		switch {
		case l.Used:
			ok("%s (%s)", termsafe.String(l.Path), l.Source)
		case l.Note != "":
			bad("%s (%s): %s", termsafe.String(l.Path), l.Source, termsafe.String(l.Note))
			var ces config.Errors
			if errors.As(l.Problem, &ces) {
				for _, ce := range ces {
					bad("%s", termsafe.String(ce.Error()))
				}
			} else if l.Problem != nil {
				bad("%s", errorText(l.Problem))
			}
		}
	}

	for _, c := range append(slices.Clone(cfg.Stop.Checks), cfg.SubagentStop.Checks...) {
		if p := missingProblem(c, env.projectDir); p != "" {
			bad("%s: it fails at every stop until that is installed", p)
		}
	}

	fmt.Fprintln(stdout, "socket directory")
	if dir, err := runtimedir.Dir(os.Getenv); err != nil {
		bad("%v", err)
	} else {
		fi, _ := os.Stat(dir)
		ok("%s (mode %o, yours only)", dir, fi.Mode().Perm())
	}
	n := notify.New(cfg.Notifications.Notifier)
	fmt.Fprintf(stdout, "notifications\n  · notify reaches you here as %s: %s\n", n.Choice.Method, n.Choice.Why)
	fmt.Fprintf(stdout, "state: %s\n", termsafe.String(env.stateDir))
	if problems > 0 {
		fmt.Fprintf(stdout, "%d problem(s) found\n", problems)
		return 1, nil
	}
	fmt.Fprintln(stdout, "no problems found")
	return 0, nil
}

// missingProblem says that a check's program is not installed, "" when it is or hooksup
// cannot tell.
func missingProblem(c config.Check, dir string) string {
	m := checks.Missing(c, dir)
	switch {
	case m == "":
		return ""
	case strings.Contains(m, "/"):
		return fmt.Sprintf("check \"%s\": %s not found", termsafe.String(c.Name), termsafe.String(m))
	}
	return fmt.Sprintf("check \"%s\": %s not found on the PATH", termsafe.String(c.Name), termsafe.String(m))
}

func doctorCommand(s shared) command {
	return command{
		Command: cli.Command{Name: "doctor", Group: groupProject, Summary: "check the agents, their hooks and the configuration",
			Help: "each agent's version and the hooks of its settings (" + s.names[0] + "'s by source: disableAllHooks, risky Stop\nhooks), trust, checks' missing programs"},
		run: func(ctx context.Context, g globalFlags, _ []string, std stdio) (int, error) {
			return runDoctor(ctx, g, std.out)
		},
	}
}
