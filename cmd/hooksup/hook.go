package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/supervisor"
)

// runHook is `hooksup hook EVENT [--installed]`. Under a supervisor it relays and does nothing
// else at start-up; without one, Stop and SubagentStop run the project's checks themselves.
func runHook(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	event := args[0]
	installed := len(args) > 1 && args[1] == hooks.InstalledFlag
	c := hooks.Client{Installed: installed, Standalone: func(event string, payload []byte, stdout, _ io.Writer) int {
		env, err := loadEnvironment()
		if err != nil {
			return 0
		}
		logger, closeLog := openLogger(env.stateDir, false)
		defer closeLog()
		// Claude ends a hook past its timeout: the checks end with it.
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
		defer stop()
		return supervisor.RunStandalone(ctx, event, payload, stdout, supervisor.StandaloneOptions{
			StateDir: env.stateDir, ConfigDir: env.configDir, Getenv: os.Getenv, Logger: logger,
		})
	}}
	return c.Run(event, stdin, stdout, stderr)
}
