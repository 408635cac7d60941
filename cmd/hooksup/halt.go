package main

import (
	"context"
	"flag"

	"github.com/hooksup/hooksup/internal/cli"
	"github.com/hooksup/hooksup/internal/keymap"
)

func haltCommand(s shared) command {
	return command{
		Command: cli.Command{Name: "halt", Group: groupSessions, Args: "[SESSION]", ArgValues: cli.Values{Dynamic: completeLive},
			Flags:   append([]cli.Flag{{Name: "reason", Arg: "TEXT", Help: "why the turn ends"}}, s.hostFlags...),
			Summary: "answer a waiting session: the turn ends now",
			Help:    answerHelp(keymap.Halt, "end the turn now") + ", at the oldest pending question of SESSION"},
		flagSet: func() *flag.FlagSet { var v string; var b bool; return answerFlagSet("halt", &v, &b, &hostFlags{}) },
		run: func(ctx context.Context, g globalFlags, args []string, std stdio) (int, error) {
			return runAnswer(ctx, g, "halt", args, std.out, std.err)
		},
	}
}
