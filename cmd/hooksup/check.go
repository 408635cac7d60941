package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/hooksup/hooksup/checks"
	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/engine"
	"github.com/hooksup/hooksup/internal/cli"
	"github.com/hooksup/hooksup/internal/present"
	"github.com/hooksup/hooksup/internal/projectlock"
	"github.com/hooksup/hooksup/internal/runtimedir"
	"github.com/hooksup/hooksup/internal/termsafe"
)

type checkArgs struct{ subagent, verbose bool }

// checkFlagSet parses check's flags.
func checkFlagSet(a *checkArgs) *flag.FlagSet {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&a.subagent, "subagent", false, "")
	fs.BoolVar(&a.verbose, "v", false, "")
	return fs
}

func runCheck(ctx context.Context, g globalFlags, args []string, stdout, stderr io.Writer) (int, error) {
	var a checkArgs
	fs := checkFlagSet(&a)
	if err := parseFlags(fs, args); err != nil {
		return 2, fmt.Errorf("%v (usage: hooksup check [--subagent] [-v])", err)
	}
	env, err := loadEnvironment()
	if err != nil {
		return 1, err
	}
	cfg, layers, err := loadLayers(g, env)
	if err != nil {
		return 1, err
	}
	if err := ignoredError(layers); err != nil {
		return 1, err
	}
	if used := usedFiles(layers); used != "" {
		fmt.Fprintf(stdout, "using %s\n", used)
	}
	configured, table := cfg.Stop.Checks, "[[stop.checks]]"
	if a.subagent {
		configured, table = cfg.SubagentStop.Checks, "[[subagent_stop.checks]]"
	}
	if len(configured) == 0 {
		fmt.Fprintf(stdout, "no %s configured%s\n", table, noChecksHint(layers))
		return 0, nil
	}
	var onOut func(string, []byte)
	var lines *plainLines
	if a.verbose {
		lines = &plainLines{w: stdout}
		onOut = lines.write
	}
	lock, err := lockProjectForCheck(ctx, env.projectDir, stderr)
	if err != nil {
		return 1, err
	}
	defer lock.Release()
	logger, closeLog := openLogger(env.stateDir, g.debug)
	defer closeLog()
	groups := checkGroups(logger, stderr)
	results := checks.RunAll(ctx, groups, configured, env.projectDir, onOut)
	if lines != nil {
		lines.flush()
	}
	failed := 0
	for i, r := range results {
		took := r.Duration.Round(time.Millisecond)
		name := termsafe.String(r.Name)
		switch {
		case r.Passed():
			fmt.Fprintf(stdout, "✓ %s (%s%s)\n", name, took, present.CheckLeftRunning(r.LeftRunning))
			continue
		case r.StartErr != nil:
			// One line: the shell's complaint is the whole of its output.
			fmt.Fprintf(stdout, "✗ %s: %s (%s)\n", name, present.CheckFailure(r), took)
		default:
			note := ""
			if !configured[i].Retries() {
				note = "; retry_on_failure = false: the agent is only warned"
			}
			// What the agent reads when this check makes it continue (the verdict log keeps the
			// output's last MiB), its controls shown: the reason quotes the check's command as it is.
			fmt.Fprintf(stdout, "✗ %s: %s (%s%s)\n%s\n\n", name, present.CheckFailure(r), took, note,
				termsafe.Text(engine.BlockReason(r, cfg.ReasonLines)))
		}
		failed++
	}
	switch {
	case len(configured) == 1 && failed == 1:
		fmt.Fprintln(stdout, "1 check failed")
	case failed > 0:
		fmt.Fprintf(stdout, "%d of %d checks failed\n", failed, len(configured))
	case len(configured) == 1:
		fmt.Fprintln(stdout, "1 check passed")
	default:
		fmt.Fprintf(stdout, "all %d checks passed\n", len(configured))
	}
	if failed > 0 {
		return 1, nil
	}
	return 0, nil
}

// usedFiles names the configuration files in use, highest layer last; "" for none.
func usedFiles(layers []config.Layer) string {
	var used []string
	for _, l := range layers {
		if l.Used {
			used = append(used, termsafe.String(l.Path))
		}
	}
	return strings.Join(used, ", ")
}

// plainLines writes the checks' output as it comes (check -v), a whole line at a time, as
// plain text (checks.PlainText: no escape sequence, its controls shown visibly, never obeyed),
// and the bidi controls shown too.
type plainLines struct {
	w       io.Writer
	name    string // the check whose output partial is
	partial []byte
}

func (p *plainLines) write(name string, b []byte) {
	if name != p.name {
		p.flush()
		p.name = name
	}
	p.partial = append(p.partial, b...)
	if i := bytes.LastIndexByte(p.partial, '\n'); i >= 0 {
		io.WriteString(p.w, termsafe.Text(checks.PlainText(p.partial[:i+1])))
		p.partial = append(p.partial[:0], p.partial[i+1:]...)
	}
}

// flush writes the last line, even without its newline.
func (p *plainLines) flush() {
	if len(p.partial) > 0 {
		io.WriteString(p.w, termsafe.Text(checks.PlainText(p.partial))+"\n")
		p.partial = p.partial[:0]
	}
}

// lockProjectForCheck takes the project's check lock for `hooksup check`, as a session's stop
// does, saying on stderr when it waits and for whom: its checks never run beside another run in
// the project. Interrupted while it waits, it runs nothing; without a runtime directory it says
// so and runs without the lock (nil).
func lockProjectForCheck(ctx context.Context, project string, stderr io.Writer) (*projectlock.Lock, error) {
	dir, err := runtimedir.Dir(os.Getenv)
	if err != nil {
		fmt.Fprintf(stderr, "hooksup check: runs without waiting for other runs of checks in this project: %v\n", err)
		return nil, nil
	}
	me := projectlock.Holder{Agent: "hooksup check", PID: os.Getpid(), Project: project}
	var last projectlock.Holder
	lock, w, err := projectlock.Acquire(ctx, dir, me, func(h projectlock.Holder) {
		if h.SessionID != last.SessionID || h.PID != last.PID { // not again for each of its checks
			fmt.Fprintf(stderr, "hooksup check: %s\n", present.WaitingFor(h))
		}
		last = h
	})
	switch {
	case err != nil && ctx.Err() != nil:
		return nil, fmt.Errorf("no check ran: interrupted while %s", present.WaitingFor(last))
	case err != nil:
		fmt.Fprintf(stderr, "hooksup check: runs without waiting for other runs of checks in this project: %v\n", err)
		return nil, nil
	}
	if w.TookOver != nil {
		for _, e := range checks.Sweep(dir, slog.New(slog.DiscardHandler)) { // what the dead holder's checks left running
			fmt.Fprintf(stderr, "hooksup: %s\n", e.Notice())
		}
	}
	return lock, nil
}

// checkGroups has `hooksup check` record its checks' process groups as a session does, after
// ending those a killed hooksup left running and telling the person on stderr; nil (nothing
// recorded, nothing swept, logged) without a runtime directory.
func checkGroups(logger *slog.Logger, stderr io.Writer) *checks.Groups {
	rdir, err := runtimedir.Dir(os.Getenv)
	if err != nil {
		logger.Warn("checks' process groups are not recorded: no runtime directory", "err", err)
		return nil
	}
	for _, e := range checks.Sweep(rdir, logger) {
		fmt.Fprintf(stderr, "hooksup: %s\n", e.Notice())
	}
	return checks.NewGroups(rdir, logger)
}

// ignoredError is why check runs nothing: a configuration file that exists but may not be
// used, untrusted or broken, is a failure, never "no checks".
func ignoredError(layers []config.Layer) error {
	var msgs []string
	for _, l := range layers {
		switch {
		case l.Problem != nil:
			msgs = append(msgs, fmt.Sprintf("%s is not trusted, and `hooksup trust` refuses it until these are fixed:\n%s", termsafe.String(l.Path), errorText(l.Problem)))
		case l.Note != "":
			msgs = append(msgs, fmt.Sprintf("%s is %s", termsafe.String(l.Path), termsafe.String(l.Note)))
		}
	}
	if len(msgs) == 0 {
		return nil
	}
	return fmt.Errorf("no check ran: %s", strings.Join(msgs, "\n"))
}

// noChecksHint says where checks would go: the project's file when it has one, else init.
func noChecksHint(layers []config.Layer) string {
	for _, l := range layers {
		if l.Used && l.Source == "project" {
			return " in " + termsafe.String(l.Path) + ": add yours there"
		}
	}
	return " (hooksup init writes a .hooksup.toml with the checks this project runs)"
}

func checkCommand() command {
	return command{
		Command: cli.Command{Name: "check", Group: groupProject, Flags: []cli.Flag{
			{Name: "subagent", Help: "run the [[subagent_stop.checks]] instead"},
			{Name: "v", Help: "show the checks' output as they run"},
		}, Summary: "run the project's checks now, as a stop would",
			Help: "run the configured checks now (exit 0 when all pass; 1 when one fails, or a project file\nis untrusted or broken, which runs none)"},
		flagSet: func() *flag.FlagSet { return checkFlagSet(&checkArgs{}) },
		run: func(ctx context.Context, g globalFlags, args []string, std stdio) (int, error) {
			// Ctrl-C ends the checks too: they run in their own process groups.
			cctx, stop := signal.NotifyContext(ctx, os.Interrupt)
			defer stop()
			return runCheck(cctx, g, args, std.out, std.err)
		},
	}
}
