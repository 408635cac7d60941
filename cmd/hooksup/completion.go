package main

import (
	"context"
	"fmt"
	"io"

	"github.com/hooksup/hooksup/internal/cli"
)

func completionCommand() command {
	return command{
		Command: cli.Command{Name: "completion", Group: groupMore, Args: "bash|zsh|fish", ArgValues: cli.Values{Words: cli.Shells()},
			Summary: "the shell completion script for bash, zsh or fish",
			Help:    "the shell completion script (e.g. source <(hooksup completion bash))"},
		noDirs: true,
		run: func(_ context.Context, _ globalFlags, args []string, std stdio) (int, error) {
			return runCompletion(args, std.out)
		},
	}
}

// runCompletion is `hooksup completion SHELL`.
func runCompletion(args []string, stdout io.Writer) (int, error) {
	if len(args) != 1 {
		return 2, fmt.Errorf("usage: hooksup completion bash|zsh|fish")
	}
	script, err := program().Completion(args[0])
	if err != nil {
		return 2, err
	}
	fmt.Fprint(stdout, script)
	return 0, nil
}
