package main

import (
	"io"

	"github.com/hooksup/hooksup/engine"
	"github.com/hooksup/hooksup/hooks"
)

// runHook is `hooksup hook EVENT [--installed]`. Under a supervisor it relays and does nothing
// else at start-up; without one, Stop and SubagentStop run the project's checks themselves.
// hooksup-hook does the same in a fraction of the start-up time; `hooksup install` registers
// this one only where hooksup-hook is not installed beside hooksup.
func runHook(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	event := args[0]
	installed := len(args) > 1 && args[1] == hooks.InstalledFlag
	c := hooks.Client{Installed: installed, Standalone: func(event string, payload []byte, stdout, _ io.Writer) int {
		return engine.StandaloneHook(event, payload, stdout)
	}}
	return c.Run(event, stdin, stdout, stderr)
}
