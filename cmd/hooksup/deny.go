package main

import (
	"context"
	"flag"

	"github.com/hooksup/hooksup/internal/cli"
	"github.com/hooksup/hooksup/internal/keymap"
)

func denyCommand(s shared) command {
	return command{
		Command: cli.Command{Name: "deny", Group: groupSessions, Args: "[SESSION]", ArgValues: cli.Values{Dynamic: completeLive},
			Flags:   s.hostFlags,
			Summary: "answer a waiting session: the agent may stop",
			Help:    answerHelp(keymap.Deny, "deny the forced continuation: the agent may stop") + ", at the oldest pending question of SESSION"},
		flagSet: func() *flag.FlagSet { var v string; return answerFlagSet("deny", &v, &hostFlags{}) },
		run: func(ctx context.Context, g globalFlags, args []string, std stdio) (int, error) {
			return runAnswer(ctx, g, "deny", args, std.out, std.err)
		},
	}
}
