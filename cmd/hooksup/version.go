package main

import (
	"context"
	"fmt"

	"github.com/hooksup/hooksup/internal/cli"
)

func versionCommand() command {
	return command{
		Command: cli.Command{Name: "version", Group: groupMore, Summary: "version, commit, Go version", Help: "version, commit, Go version"},
		noDirs:  true,
		run: func(_ context.Context, _ globalFlags, _ []string, std stdio) (int, error) {
			fmt.Fprintln(std.out, versionString())
			return 0, nil
		},
	}
}
