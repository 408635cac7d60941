package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/hooksup/hooksup/config"
)

func runTrust(args []string, stdout io.Writer) (int, error) {
	env, err := loadEnvironment()
	if err != nil {
		return 1, err
	}
	files := args
	if len(files) == 0 {
		files = []string{filepath.Join(env.cwd, ".hooksup.toml")}
	}
	store := trustStore(env)
	for _, f := range files {
		var cfg config.Config
		if err := config.DecodeFile(f, &cfg); err != nil {
			return 1, fmt.Errorf("not trusted: %w", err)
		}
		if err := store.Trust(f); err != nil {
			return 1, err
		}
		fmt.Fprintf(stdout, "trusted %s (this exact content; a change needs trusting again)\n", f)
	}
	return 0, nil
}
