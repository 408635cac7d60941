package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/charmbracelet/x/term"

	"github.com/hooksup/hooksup/checks"
	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/internal/cli"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/session"
)

type trustArgs struct {
	show, yes bool
}

// trustFlagSet parses trust's flags.
func trustFlagSet(a *trustArgs) *flag.FlagSet {
	fs := flag.NewFlagSet("trust", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&a.show, "show", false, "")
	fs.BoolVar(&a.yes, "yes", false, "")
	return fs
}

// runTrust is `hooksup trust [--show | --yes] [FILE…]`: it shows what each file would run,
// exactly as the first run's question does, and trusts that content once the person says so.
// Without FILE, the project's files (the nearest .hooksup.toml and .hooksup.local.toml from
// here up). A file with a problem that a session or `hooksup check` would refuse is refused
// here, with the same messages.
//
// On a terminal it asks [y/N] for each file not yet trusted; --yes trusts without asking, but
// for a file whose commands hold control characters, which it asks about on a terminal all
// the same; --show only shows. Without a terminal and without --yes it trusts nothing, says
// how to, and fails: a script trusts with --yes, so that nothing is trusted unseen by default.
func runTrust(args []string, stdin *os.File, stdout io.Writer) (int, error) {
	var a trustArgs
	fs := trustFlagSet(&a)
	if err := parseFlags(fs, args); err != nil {
		return 2, fmt.Errorf("%v (usage: hooksup trust [--show | --yes] [FILE...])", err)
	}
	if a.show && a.yes {
		return 2, errors.New("--show and --yes do not go together: --show trusts nothing")
	}
	env, err := loadEnvironment()
	if err != nil {
		return 1, err
	}
	files := fs.Args()
	if len(files) == 0 {
		for _, name := range config.ProjectFiles {
			if p := filepath.Join(env.projectDir, name); exists(p) {
				files = append(files, p)
			}
		}
		if len(files) == 0 {
			return 1, fmt.Errorf("no .hooksup.toml in %s or above it (up to the repository's root): hooksup init writes one", termsafe.String(env.cwd))
		}
	}
	terminal := term.IsTerminal(stdin.Fd())
	in := bufio.NewReader(stdin)
	store := trustStore(env)
	var untrusted []string
	for _, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			return 1, err
		}
		content, err := config.ReadFile(abs)
		var fe *config.FileError
		switch {
		case errors.As(err, &fe):
			return 1, fmt.Errorf("not trusted: %s: %s", termsafe.String(abs), fe.Problem())
		case err != nil:
			return 1, fmt.Errorf("not trusted: %s: %w", termsafe.String(abs), err)
		}
		if err := config.ValidateFile(abs, content); err != nil {
			return 1, fmt.Errorf("not trusted: %s", termsafe.Text(err.Error()))
		}
		c := config.Defaults()
		_ = config.Decode(abs, content, &c) // no problem: ValidateFile said so
		hidden := describeProjectFile(stdout, abs, c)
		name := termsafe.String(abs)
		switch {
		case store.Trusted(abs, content):
			fmt.Fprintf(stdout, "%s is already trusted (this exact content)\n", name)
			continue
		case a.show:
			fmt.Fprintf(stdout, "%s is not trusted: hooksup trust trusts it\n", name)
			continue
		case terminal && (!a.yes || hidden):
			fmt.Fprint(stdout, "Trust this exact content? [y/N] ")
			line, _ := in.ReadString('\n')
			if ans := strings.ToLower(strings.TrimSpace(line)); ans != "y" && ans != "yes" {
				fmt.Fprintf(stdout, "%s is not trusted\n", name)
				untrusted = append(untrusted, name)
				continue
			}
		case !a.yes:
			untrusted = append(untrusted, name)
			continue
		}
		if err := store.TrustContent(abs, content); err != nil {
			return 1, err
		}
		fmt.Fprintf(stdout, "trusted %s (this exact content; a change needs trusting again)\n", name)
	}
	switch {
	case len(untrusted) == 0:
		return 0, nil
	case !terminal && !a.yes:
		return 1, fmt.Errorf("not trusted: %s: no terminal to ask on; read what it runs above, then hooksup trust --yes trusts it",
			strings.Join(untrusted, ", "))
	}
	return 1, fmt.Errorf("not trusted: %s", strings.Join(untrusted, ", "))
}

// exists reports whether there is anything at p: a project's file that is not a regular file
// is refused by name (config.ReadFile), never taken for no file.
func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// askTrust shows the person what each untrusted project file would run and asks, once, whether
// to trust that exact content. It returns whether anything was trusted.
func askTrust(layers []config.Layer, env environment, in io.Reader, out io.Writer) bool {
	trusted := false
	br := bufio.NewReader(in)
	for _, l := range layers {
		if l.Note == "" {
			continue
		}
		path := termsafe.String(l.Path)
		content, err := config.ReadFile(l.Path)
		if err != nil {
			fmt.Fprintf(out, "hooksup: ignoring %s: %v\n", path, termsafe.String(err.Error()))
			continue
		}
		// What a session would refuse is never offered for trust.
		if err := config.ValidateFile(l.Path, content); err != nil {
			fmt.Fprintf(out, "hooksup: ignoring %s: %s\n", path, termsafe.Text(err.Error()))
			continue
		}
		c := config.Defaults()
		_ = config.Decode(l.Path, content, &c)
		fmt.Fprintf(out, "hooksup: %s is not trusted.\n", path)
		describeProjectFile(out, l.Path, c)
		fmt.Fprint(out, "Trust this exact content? [y/N] ")
		line, _ := br.ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
			fmt.Fprintf(out, "hooksup: ignoring %s (hooksup trust trusts it later)\n", path)
			continue
		}
		if err := trustStore(env).TrustContent(l.Path, content); err != nil {
			fmt.Fprintf(out, "hooksup: %s\n", termsafe.String(err.Error()))
			continue
		}
		trusted = true
	}
	return trusted
}

// describeProjectFile says exactly what trusting the file at path (decoded as c) lets it do:
// each check's name, command, directory and environment, with every control character shown
// visibly (termsafe) and said plainly when there is one, so that nothing a terminal would hide
// or redraw is trusted unseen; and the settings that act on the agent or switch the gate off.
// It reports whether it warned of a control character.
func describeProjectFile(w io.Writer, path string, c config.Config) bool {
	dir := filepath.Dir(path)
	all := slices.Concat(c.Stop.Checks, c.SubagentStop.Checks)
	if len(all) == 0 {
		fmt.Fprintln(w, "  It runs no command.")
	} else {
		fmt.Fprintln(w, "  When the agent stops, hooksup would run:")
	}
	var hidden []string
	for i, ch := range all {
		when := "Stop"
		if i >= len(c.Stop.Checks) {
			when = "SubagentStop"
		}
		fmt.Fprintf(w, "  %s check %s\n", when, termsafe.String(ch.Name))
		fmt.Fprintf(w, "      command: %s\n", termsafe.String(ch.Command))
		fmt.Fprintf(w, "      in:      %s\n", termsafe.String(checks.WorkDir(ch, dir)))
		keys := make([]string, 0, len(ch.Env))
		for k := range ch.Env {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			fmt.Fprintf(w, "      env:     %s=%s\n", termsafe.String(k), termsafe.String(ch.Env[k]))
		}
		for _, f := range []struct{ what, v string }{{"name", ch.Name}, {"command", ch.Command}, {"cwd", ch.Cwd}} {
			if termsafe.HasControl(f.v) {
				hidden = append(hidden, fmt.Sprintf("the %s of check %s", f.what, termsafe.String(ch.Name)))
			}
		}
		for _, k := range keys {
			if termsafe.HasControl(k) || termsafe.HasControl(ch.Env[k]) {
				hidden = append(hidden, fmt.Sprintf("the env %s of check %s", termsafe.String(k), termsafe.String(ch.Name)))
			}
		}
	}
	if c.Notifications.OnIdle == session.ActionNudge || c.Notifications.OnPermission == session.ActionNudge {
		fmt.Fprintf(w, "  It types into the agent when it waits: %s\n", termsafe.String(c.Notifications.NudgeText))
		if termsafe.HasControl(c.Notifications.NudgeText) {
			hidden = append(hidden, "notifications.nudge_text")
		}
	}
	if c.Mode == config.ModeObserve {
		fmt.Fprintln(w, "  It sets mode = \"observe\": no stop is ever blocked.")
	}
	if len(hidden) > 0 {
		fmt.Fprintf(w, "  ⚠ Control characters or line breaks in %s: shown above as \\e, \\r, \\n, <U+…>. A terminal would have hidden or redrawn them; they are part of what would run.\n",
			strings.Join(hidden, ", "))
	}
	return len(hidden) > 0
}

func trustCommand() command {
	return command{
		Command: cli.Command{Name: "trust", Group: groupProject, Args: "[FILE...]", ArgValues: cli.Values{Files: true}, Flags: []cli.Flag{
			{Name: "show", Help: "only show it; trust nothing"},
			{Name: "yes", Help: "trust without asking (for scripts; on a terminal a file with control characters in\nwhat it runs is asked about all the same)"},
		}, Summary: "show a project's checks, then let hooksup run them",
			Help: `show what a project's .hooksup.toml (and .hooksup.local.toml) runs and, once you answer y,
trust its exact content; without a terminal it trusts only with --yes, and otherwise exits 1
saying so`},
		flagSet: func() *flag.FlagSet { return trustFlagSet(&trustArgs{}) },
		run: func(_ context.Context, _ globalFlags, args []string, std stdio) (int, error) {
			return runTrust(args, std.in, std.out)
		},
	}
}
