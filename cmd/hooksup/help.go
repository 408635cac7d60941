package main

import (
	"context"
	"fmt"

	"github.com/hooksup/hooksup/internal/cli"
)

func helpCommand() command {
	return command{
		Command: cli.Command{Name: "help", Group: groupMore, Args: "[COMMAND]", Summary: "a command's flags and details: help COMMAND",
			Help: "COMMAND's usage, flags and whole help, as hooksup COMMAND --help; without COMMAND, hooksup --help"},
		noDirs: true,
		run: func(_ context.Context, _ globalFlags, args []string, std stdio) (int, error) {
			if len(args) == 0 {
				fmt.Fprint(std.out, program().Help())
				return 0, nil
			}
			// hooksup help CMD is CMD's help, as hooksup CMD --help.
			c, ok := program().Lookup(args[0])
			if !ok || c.Hidden {
				return 2, unknownCommand(args[0])
			}
			fmt.Fprint(std.out, program().CommandHelp(c))
			return 0, nil
		},
	}
}
