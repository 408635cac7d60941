// Command hooksup supervises Claude Code: it runs claude with Stop, SubagentStop and
// Notification hooks that report to it, decides every stop by the project's checks and the
// person, and shows it all live. This file is wiring only.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
)

// Set by the linker: -ldflags "-X main.version=v1.2.3 -X main.commit=abc123".
var (
	version = ""
	commit  = ""
)

const usage = `hooksup supervises Claude Code: it runs claude with hooks that report to it, decides
every stop by your project's checks and by you, and shows verdicts, counts and agent state live.

Usage:
  hooksup [flags] claude [claude args...]   run claude under supervision (claude's exit status is hooksup's):
                                            the TUI in a terminal, headless otherwise
  hooksup demo                              the TUI against a built-in simulated agent (no API key)
  hooksup check [--subagent] [-v]           run the configured checks now (exit 0 when all pass)
  hooksup init                              write a commented .hooksup.toml with the checks this
                                            project runs (go, npm/pnpm/yarn/bun, pytest, ruff, cargo,
                                            make test); never overwrites
  hooksup trust [FILE]                      trust a project's .hooksup.toml (its exact content)
  hooksup install [--scope local|project|user]
                                            register hooksup's Stop hooks so plain claude runs the checks
  hooksup uninstall [--scope …]             remove them again, and nothing else
  hooksup log [--session ID] [--json] [-f]  the verdict history of a session (the latest by default)
  hooksup doctor                            hooks by source, disableAllHooks, risky Stop hooks, trust
  hooksup themes [NAME...]                  list and preview the colour themes
  hooksup version                           version, commit, Go version

Flags (before the command):
  --config FILE       use this config file too (trusted; read last)
  --mode MODE         auto | ask | manual | observe
  --theme NAME        colour theme
  --no-tui            run headless even in a terminal
  --claude-bin PATH   the claude to run (default: $HOOKSUP_CLAUDE_BIN, else claude on PATH)
  --debug             verbose log in the state directory

Configuration: built-in defaults < $XDG_CONFIG_HOME/hooksup/config.toml < .hooksup.toml <
.hooksup.local.toml < --config < flags. Project files are used only once trusted.
`

// globalFlags are the flags before the subcommand.
type globalFlags struct {
	config    string
	mode      string
	theme     string
	noTUI     bool
	claudeBin string
	debug     bool
}

func main() {
	// The hook client runs on every stop of every session: nothing else happens first.
	if len(os.Args) >= 3 && os.Args[1] == "hook" {
		os.Exit(runHook(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
	if os.Getenv(envDemoAgent) == "1" {
		os.Exit(runDemoAgent(os.Args[1:]))
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	code, err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "hooksup: %v\n", err)
		if code == 0 {
			code = 1
		}
	}
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdin *os.File, stdout, stderr *os.File) (int, error) {
	var g globalFlags
	fs := flag.NewFlagSet("hooksup", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&g.config, "config", "", "")
	fs.StringVar(&g.mode, "mode", "", "")
	fs.StringVar(&g.theme, "theme", "", "")
	fs.BoolVar(&g.noTUI, "no-tui", false, "")
	fs.StringVar(&g.claudeBin, "claude-bin", "", "")
	fs.BoolVar(&g.debug, "debug", false, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usage)
			return 0, nil
		}
		return 2, fmt.Errorf("%v (see hooksup --help)", err)
	}
	rest := fs.Args()
	if len(rest) == 0 {
		fmt.Fprint(stderr, usage)
		return 2, nil
	}
	cmd, cargs := rest[0], rest[1:]
	switch cmd {
	case "claude":
		return runClaude(ctx, g, cargs, stdin, stdout, stderr)
	case "demo":
		return runDemo(ctx, g, stdin, stdout, stderr)
	case "themes":
		return runThemes(cargs, stdout)
	case "hook":
		if len(cargs) < 1 {
			// Never exit 2 here: to claude that would block a stop.
			fmt.Fprintln(stderr, "usage: hooksup hook EVENT [--installed] (reads the hook JSON on stdin)")
			return 0, nil
		}
		return runHook(cargs, stdin, stdout, stderr), nil
	case "log":
		return runLog(ctx, cargs, stdout)
	case "install":
		return runInstall(g, cargs, stdout, stderr, false)
	case "uninstall":
		return runInstall(g, cargs, stdout, stderr, true)
	case "init":
		return runInit(stdout)
	case "check":
		// Ctrl-C ends the checks too: they run in their own process groups.
		cctx, stop := signal.NotifyContext(ctx, os.Interrupt)
		defer stop()
		return runCheck(cctx, g, cargs, stdout, stderr)
	case "doctor":
		return runDoctor(ctx, g, stdout)
	case "trust":
		return runTrust(cargs, stdout)
	case "version":
		fmt.Fprintln(stdout, versionString())
		return 0, nil
	case "help":
		fmt.Fprint(stdout, usage)
		return 0, nil
	default:
		return 2, fmt.Errorf("unknown command %q (see hooksup --help)", cmd)
	}
}

func versionString() string {
	v, c := version, commit
	goVersion := "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		goVersion = bi.GoVersion
		if v == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && c == "" {
				c = s.Value
			}
		}
	}
	if v == "" {
		v = "dev"
	}
	if c == "" {
		c = "unknown"
	}
	return fmt.Sprintf("hooksup %s (commit %s, %s)", v, strings.TrimSpace(c), goVersion)
}
