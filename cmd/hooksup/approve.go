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
			Flags: append([]cli.Flag{{Name: "reason", Arg: "TEXT", Help: "the continuation's reason instead of the checks'", Summary: "your reason for the agent instead of the checks"},
				{Name: "always", Help: "a permission: allow it and from now on, as the agent's own \"always\" would (the rule is shown first)", Summary: "allow a permission always"}}, s.hostFlags...),
			Summary: "answer a waiting session: continue it or allow its tool",
			Help:    answerHelp(keymap.Approve, "approve the forced continuation: the agent continues") + ", at the oldest pending question of\nSESSION (a prefix of its id or project, HOST:PREFIX on another machine); a permission the agent asks\nfor (hooksup ls shows its command) is allowed once, or with --always from now on"},
		flagSet: func() *flag.FlagSet { var v string; var b bool; return answerFlagSet("approve", &v, &b, &hostFlags{}) },
		run: func(ctx context.Context, g globalFlags, args []string, std stdio) (int, error) {
			return runAnswer(ctx, g, "approve", args, std.out, std.err)
		},
	}
}
