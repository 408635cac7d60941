package main

import (
	"context"
	"fmt"
	"io"

	"github.com/hooksup/hooksup/internal/cli"
)

func manCommand() command {
	return command{
		Command: cli.Command{Name: "man", Group: groupMore, Summary: "the whole manual, as a man page",
			Help: "the whole manual: every command, flag, key, setting, file and variable, as a man page in man(7)\nformat (hooksup man | man -l -)"},
		noDirs: true,
		run: func(_ context.Context, _ globalFlags, _ []string, std stdio) (int, error) {
			return runMan(std.out)
		},
	}
}

// runMan is `hooksup man`: the man page, in man(7) format (`hooksup man | man -l -`).
func runMan(stdout io.Writer) (int, error) {
	fmt.Fprint(stdout, program().Man())
	return 0, nil
}
