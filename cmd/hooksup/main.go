// Command hooksup supervises coding agents (those of agent/agents): it runs the agent with Stop,
// SubagentStop and observation hooks that report to it, decides every stop by the project's checks and the
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
	"strings"
	"syscall"

	"github.com/hooksup/hooksup/agent/agents"
	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/internal/buildinfo"
	"github.com/hooksup/hooksup/internal/cli"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/internal/userdirs"
	"github.com/hooksup/hooksup/supervisor"
)

// Set by the linker: -ldflags "-X main.version=v1.2.3 -X main.commit=abc123 -X main.date=…";
// empty, they come from the build info.
var (
	version = ""
	commit  = ""
	date    = ""
)

// globalFlags are the flags before the subcommand.
type globalFlags struct {
	config string
	mode   string
	theme  string
	noTUI  bool
	// strict: a headless run whose agent stopped last with a check failing exits 3.
	strict bool
	// goal is --goal TEXT and its limits, each nil when not given (goal.go).
	goal goalFlags
	// bins are the --NAME-bin flags, by agent name (agents.All).
	bins    map[string]*string
	debug   bool
	version bool
}

// globalFlagSet parses the flags before the command into g.
func globalFlagSet(g *globalFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("hooksup", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&g.config, "config", "", "")
	fs.StringVar(&g.mode, "mode", "", "")
	fs.StringVar(&g.theme, "theme", "", "")
	fs.BoolVar(&g.noTUI, "no-tui", false, "")
	fs.BoolVar(&g.strict, "strict", false, "")
	g.goal.define(fs)
	g.bins = map[string]*string{}
	for _, a := range agents.All() {
		g.bins[a.Name()] = fs.String(a.Name()+"-bin", "", "")
	}
	fs.BoolVar(&g.debug, "debug", false, "")
	fs.BoolVar(&g.version, "version", false, "")
	return fs
}

func main() {
	// The hook client runs on every stop of every session: nothing else happens first.
	if len(os.Args) >= 3 && os.Args[1] == "hook" {
		os.Exit(runHook(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
	if os.Getenv(envDemoAgent) == "1" {
		os.Exit(runDemoAgent(os.Args[1:]))
	}
	stopProfiles := startHeapProfiles(os.Stderr)
	ctx, stop := signalContext(context.Background(), syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	code, err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "hooksup: %s\n", errorText(err))
		if code == 0 {
			code = 1
		}
	}
	stop()
	stopProfiles()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdin *os.File, stdout, stderr *os.File) (int, error) {
	var g globalFlags
	fs := globalFlagSet(&g)
	if err := parseFlags(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, program().Help())
			return 0, nil
		}
		return 2, fmt.Errorf("%v (see hooksup --help)", err)
	}
	if g.version {
		fmt.Fprintln(stdout, versionString())
		return 0, nil
	}
	rest := fs.Args()
	if len(rest) == 0 {
		fmt.Fprint(stderr, program().Help())
		return 2, nil
	}
	c, known := lookup(rest[0])
	args = rest[1:]
	// Any command's --help is its usage, and nothing is done, but where the arguments are not
	// hooksup's to read or the command answers --help itself.
	if known && !c.ownHelp && cli.WantsHelp(args) {
		fmt.Fprint(stdout, program().CommandHelp(c.Command))
		return 0, nil
	}
	// Before a command that may read or write hooksup's directories (state, configuration,
	// sockets), the person is told of each XDG variable hooksup ignores, once.
	if !known || !c.noDirs {
		for _, v := range userdirs.IgnoredVars(os.Getenv) {
			fmt.Fprintf(stderr, "hooksup: %s\n", v)
		}
	}
	if !known {
		return 2, unknownCommand(rest[0])
	}
	return c.run(ctx, g, args, stdio{stdin, stdout, stderr})
}

// signalContext is ctx ended by the first of sigs, with the signal as its cause; SIGHUP's
// wraps supervisor.ErrHangup, so that a supervised agent gets SIGHUP too.
func signalContext(ctx context.Context, sigs ...os.Signal) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	c := make(chan os.Signal, 1)
	signal.Notify(c, sigs...)
	go func() {
		select {
		case sig := <-c:
			if sig == syscall.SIGHUP {
				cancel(fmt.Errorf("%w: SIGHUP", supervisor.ErrHangup))
			} else {
				cancel(fmt.Errorf("got %v", sig))
			}
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		signal.Stop(c)
		cancel(nil)
	}
}

// errorText is err as hooksup prints it. An error may quote a path, a configuration's key or
// value, or a host's answer: every control is shown visibly but for the line breaks of
// hooksup's own messages, and each of a configuration's problems stays on its line, a newline
// in its file's path or its key shown too.
func errorText(err error) string {
	msg := err.Error()
	for _, ce := range configErrors(err) {
		line := ce.Error()
		msg = strings.Replace(msg, line, termsafe.String(line), 1)
	}
	return termsafe.Text(msg)
}

// configErrors are the configuration's problems err holds, wrapped or joined.
func configErrors(err error) []*config.ConfigError {
	var out []*config.ConfigError
	var walk func(error)
	walk = func(e error) {
		switch x := e.(type) {
		case *config.ConfigError:
			out = append(out, x)
		case interface{ Unwrap() []error }:
			for _, e := range x.Unwrap() {
				walk(e)
			}
		case interface{ Unwrap() error }:
			if u := x.Unwrap(); u != nil {
				walk(u)
			}
		}
	}
	walk(err)
	return out
}

func versionString() string { return buildinfo.String("hooksup", version, commit, date) }
