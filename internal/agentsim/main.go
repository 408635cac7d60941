package agentsim

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Environment variables that drive Main.
const (
	EnvScenario = "HOOKSUP_SIM_SCENARIO" // a Scenario as JSON
	EnvTrace    = "HOOKSUP_SIM_TRACE"    // a file to append TraceEntry lines to
)

// Version is the Claude Code version the simulated agent behaves like (and reports to --version).
const Version = "2.1.330"

// Main runs the simulated agent as a claude stand-in process: it takes claude's --settings and
// -p PROMPT arguments (others are ignored) and plays the scenario from $HOOKSUP_SIM_SCENARIO.
// It returns the exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	if len(args) == 1 && (args[0] == "--version" || args[0] == "-v") {
		fmt.Fprintln(stdout, Version+" (Claude Code)")
		return 0
	}
	var sc Scenario
	if s := os.Getenv(EnvScenario); s != "" {
		if err := json.Unmarshal([]byte(s), &sc); err != nil {
			fmt.Fprintf(stderr, "agentsim: %s: %v\n", EnvScenario, err)
			return 2
		}
	}
	var settings Settings
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "--settings":
			if i+1 < len(args) {
				s, err := ParseSettings(args[i+1])
				if err != nil {
					fmt.Fprintf(stderr, "agentsim: %v\n", err)
					return 1
				}
				settings = s
				i++
			}
		case "-p", "--print":
			if i+1 < len(args) {
				sc.Prompts = append(sc.Prompts, args[i+1])
				i++
			}
		}
	}
	cwd, _ := os.Getwd()
	home, _ := os.UserHomeDir()
	a := New(settings, cwd, home, os.Environ())
	a.Say = stdout
	if p := os.Getenv(EnvTrace); p != "" {
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			fmt.Fprintf(stderr, "agentsim: trace: %v\n", err)
			return 1
		}
		defer f.Close()
		a.Trace = f
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	code := a.Run(ctx, sc)
	if ctx.Err() != nil {
		return 130
	}
	return code
}
