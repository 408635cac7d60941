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

	"github.com/hooksup/hooksup/agent/agents"
	"github.com/hooksup/hooksup/hub"
	"github.com/hooksup/hooksup/internal/cli"
	"github.com/hooksup/hooksup/internal/hangup"
	"github.com/hooksup/hooksup/internal/keymap"
	"github.com/hooksup/hooksup/internal/runtimedir"
	"github.com/hooksup/hooksup/tui"
)

func watchFlagSet(hf *hostFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("watch", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	hostFlagsOn(fs, hf)
	return fs
}

// runWatch is `hooksup watch`: every live session of this user, live, answered from here with
// the session TUI's keys and theme, until the person quits or ctx ends.
func runWatch(ctx context.Context, g globalFlags, args []string, stdout, stderr io.Writer) (int, error) {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		fmt.Fprint(stdout, watchHelp())
		return 0, nil
	}
	const usage = "usage: hooksup watch [--host DEST]... [--local]"
	var hf hostFlags
	fs := watchFlagSet(&hf)
	if err := parseFlags(fs, args); err != nil {
		return 2, fmt.Errorf("watch: %v (%s)", err, usage)
	}
	if fs.NArg() > 0 {
		return 2, fmt.Errorf("watch takes no arguments, got %q (%s)", fs.Args(), usage)
	}
	hc, err := hubConfig(g)
	if err != nil {
		return 1, err
	}
	hosts, err := hf.list(hc)
	if err != nil {
		return 2, err
	}
	env, err := loadEnvironment()
	if err != nil {
		return 1, err
	}
	cfg, err := loadConfig(g, env, stderr)
	if err != nil {
		return 1, err
	}
	theme, err := resolveTheme(env, cfg.Theme)
	if err != nil {
		return 1, fmt.Errorf("%w (hooksup themes lists them)", err)
	}
	dir, err := runtimedir.Dir(os.Getenv)
	if err != nil {
		return 1, err
	}
	sessions := hub.NewMultiHost(dir, transport(hc), hosts, tui.WatchBy)
	defer sessions.Close()
	err = tui.RunWatch(ctx, sessions, theme, cfg.Keys.Prefix, cfg.Keys.Bindings, "hooksup "+agents.Default().Name())
	if err != nil && !errors.Is(err, hangup.ErrHangup) { // a terminal gone hears nothing more
		return 1, err
	}
	return 0, nil
}

// watchHelp is `hooksup watch --help`: what the watch shows and its keys, as they are by default.
func watchHelp() string {
	p := program()
	c, _ := p.Lookup("watch")
	help := func(name string) string { a, _ := keymap.Lookup(name); return a.Help }
	keys := func(name string) string {
		a, _ := keymap.Lookup(name)
		shown := make([]string, len(a.Keys))
		for i, k := range a.Keys {
			shown[i] = keymap.Display(k)
		}
		return strings.Join(shown, "/")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "usage: %s\n\n%s.\n\n", p.Synopsis(c), c.Help)
	fmt.Fprintf(&b, "Flags:\n")
	for _, f := range c.Flags {
		fmt.Fprintf(&b, "  %-12s %s\n", f.Synopsis(), f.Help)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "Keys, the session TUI's (your [keys] bindings apply; the prefix %s before them is\naccepted, not needed):\n",
		keymap.Display(keymap.DefaultPrefix))
	for _, l := range [][2]string{
		{keys(keymap.Up) + "  " + keys(keymap.Down), "select the previous / the next session"},
		{keys(keymap.Approve), help(keymap.Approve)},
		{keys(keymap.Deny), help(keymap.Deny)},
		{"", "at an agent's permission dialog: " + keys(keymap.Approve) + " allows it once, " + keys(keymap.Deny) + " refuses it, " + keys(keymap.Edit) + " refuses it\n" +
			"             with a reason typed first, where the agent reads one"},
		{keys(keymap.Always), "where the agent offers it, allow the permission from now on: shows the rule,\n" +
			"             then " + keys(keymap.Always) + " again answers always (any other key keeps the question)"},
		{keys(keymap.Edit), help(keymap.Edit) + " (" + keys(keymap.Send) + " sends it, " + keys(keymap.Clear) + " clears it, " + keys(keymap.Cancel) + " cancels)"},
		{keys(keymap.Halt), help(keymap.Halt)},
		{keymap.Escape, "interrupt, as Escape pressed in the session: its questions are let stop, its checks\n" +
			"             killed, its further stops allowed, and the agent at work is sent the key"},
		{keys(keymap.Quit), "quit the watch (the sessions run on)"},
	} {
		fmt.Fprintf(&b, "  %-10s %s\n", l[0], l[1])
	}
	b.WriteString("\nThe verdicts' source is manual (hooksup watch); Escape's is escape.\n")
	return b.String()
}

func watchCommand(s shared) command {
	return command{
		Command: cli.Command{Name: "watch", Group: groupSessions, Flags: s.hostFlags,
			Summary: "every live session in one screen, answered there",
			Help: `every live session in one live screen: their questions with the time left and the end
of the failed check's output, the latest verdicts; answer the selected session's question with
the session TUI's keys (Esc interrupts it); a card per host that is disconnected, tried again
with a growing wait`},
		flagSet: func() *flag.FlagSet { return watchFlagSet(&hostFlags{}) },
		ownHelp: true, // its help lists its keys
		run: func(ctx context.Context, g globalFlags, args []string, std stdio) (int, error) {
			// Besides its quit key, only its context ends the watch: SIGINT, SIGTERM, SIGHUP, or
			// its terminal going.
			ctx, stopInt := signal.NotifyContext(ctx, os.Interrupt)
			defer stopInt()
			ctx, stop := hangup.Context(ctx, std.in, std.out, std.err)
			defer stop()
			return runWatch(ctx, g, args, std.out, std.err)
		},
	}
}
