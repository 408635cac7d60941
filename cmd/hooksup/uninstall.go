package main

import (
	"context"
	"flag"

	"github.com/hooksup/hooksup/internal/cli"
)

func uninstallCommand(s shared) command {
	return command{
		Command: cli.Command{Name: "uninstall", Group: groupProject, Flags: []cli.Flag{s.agentFlag, s.scope},
			Summary: "remove the hooks install added, and nothing else",
			Help:    "remove them again, and nothing else"},
		flagSet: func() *flag.FlagSet { var v string; return installFlagSet("uninstall", &v, &v) },
		run: func(_ context.Context, g globalFlags, args []string, std stdio) (int, error) {
			return runInstall(g, args, std.out, std.err, true)
		},
	}
}
