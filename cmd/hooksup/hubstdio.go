package main

import (
	"context"
	"fmt"
	"os"

	"github.com/hooksup/hooksup/hub"
	"github.com/hooksup/hooksup/internal/buildinfo"
	"github.com/hooksup/hooksup/internal/cli"
	"github.com/hooksup/hooksup/internal/hangup"
	"github.com/hooksup/hooksup/internal/runtimedir"
)

// runHubStdio is the hidden `hooksup hub-stdio`: this user's sessions served on stdin and
// stdout, for a hooksup on another machine that started it over ssh. It ends with its input
// (ssh gone), or when its terminal, if any, hangs up.
func runHubStdio(ctx context.Context, args []string, stdin, stdout, stderr *os.File) (int, error) {
	if len(args) > 0 {
		return 2, fmt.Errorf("%s takes no arguments", hub.StdioCommand)
	}
	dir, err := runtimedir.Dir(os.Getenv)
	if err != nil {
		return 1, err
	}
	ctx, stop := hangup.Context(ctx, stdin, stdout, stderr)
	defer stop()
	if err := hub.ServeStdio(ctx, dir, buildinfo.Version(version, commit), stdin, stdout); err != nil {
		return 1, err
	}
	return 0, nil
}

func hubStdioCommand() command {
	return command{
		Command: cli.Command{Name: hub.StdioCommand, Hidden: true},
		ownHelp: true,
		noDirs:  true,
		run: func(ctx context.Context, _ globalFlags, args []string, std stdio) (int, error) {
			return runHubStdio(ctx, args, std.in, std.out, std.err)
		},
	}
}
