package main

import (
	"context"
	"flag"

	"github.com/hooksup/hooksup/internal/cli"
	"github.com/hooksup/hooksup/internal/keymap"
)

func approveCommand(s shared) command {
	return command{
		Command: cli.Command{Name: "approve", Group: groupSessions, Args: "[SESSION]", ArgValues: cli.Values{Dynamic: completeLive},
			Flags:   append([]cli.Flag{{Name: "reason", Arg: "TEXT", Help: "the continuation's reason instead of the checks'", Summary: "your reason for the agent instead of the checks"}}, s.hostFlags...),
			Summary: "answer a waiting session: the agent continues",
			Help:    answerHelp(keymap.Approve, "approve the forced continuation: the agent continues") + ", at the oldest pending question of\nSESSION (a prefix of its id or project, HOST:PREFIX on another machine)"},
		flagSet: func() *flag.FlagSet { var v string; return answerFlagSet("approve", &v, &hostFlags{}) },
		run: func(ctx context.Context, g globalFlags, args []string, std stdio) (int, error) {
			return runAnswer(ctx, g, "approve", args, std.out, std.err)
		},
	}
}
