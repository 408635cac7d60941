package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/hooksup/hooksup/agent/agents/dialects"
	"github.com/hooksup/hooksup/internal/cli"

	"github.com/hooksup/hooksup/engine"
	"github.com/hooksup/hooksup/hooks"
)

// runHook is `hooksup hook [--agent NAME] EVENT [--installed]`. Under a supervisor it relays and does nothing
// else at start-up; without one, Stop and SubagentStop run the project's checks themselves.
// hooksup-hook does the same in a fraction of the start-up time; `hooksup install` registers
// this one only where hooksup-hook is not installed beside hooksup.
func runHook(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	name, event, installed, ok := hooks.HookArgs(args)
	if !ok {
		return 0
	}
	c := hooks.Client{Installed: installed, Standalone: func(event string, payload []byte, stdout, _ io.Writer) int {
		d, ok := dialects.ByName(name)
		if !ok {
			d, ok = dialects.FromEnv(os.Getenv)
		}
		if !ok {
			d = nil
		}
		return engine.StandaloneHook(d, event, payload, stdout)
	}}
	return c.Run(event, stdin, stdout, stderr)
}

func hookCommand() command {
	return command{
		Command: cli.Command{Name: "hook", Hidden: true},
		ownHelp: true,
		noDirs:  true,
		run: func(_ context.Context, _ globalFlags, args []string, std stdio) (int, error) {
			if len(args) < 1 {
				// Never exit 2 here: to claude that would block a stop.
				fmt.Fprintln(std.err, "usage: hooksup hook EVENT [--installed] (reads the hook JSON on stdin)")
				return 0, nil
			}
			return runHook(args, std.in, std.out, std.err), nil
		},
	}
}
