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
			Flags:   append([]cli.Flag{{Name: "reason", Arg: "TEXT", Help: "a permission's refusal: what the agent is told instead of the tool's result", Summary: "why a permission is refused, for the agent"}}, s.hostFlags...),
			Summary: "answer a waiting session: let it stop or refuse its tool",
			Help:    answerHelp(keymap.Deny, "deny the forced continuation: the agent may stop") + ", at the oldest pending question of SESSION;\na permission the agent asks for is refused: its tool does not run, --reason is what the agent is told"},
		flagSet: func() *flag.FlagSet { var v string; var b bool; return answerFlagSet("deny", &v, &b, &hostFlags{}) },
		run: func(ctx context.Context, g globalFlags, args []string, std stdio) (int, error) {
			return runAnswer(ctx, g, "deny", args, std.out, std.err)
		},
	}
}
