package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hooksup/hooksup/checks"
	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/internal/cli"
	"github.com/hooksup/hooksup/internal/present"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/project"
)

const initTryTimeout = 2 * time.Minute

type initArgs struct {
	noRun      bool
	tryTimeout time.Duration
}

// initFlagSet parses init's flags.
func initFlagSet(a *initArgs) *flag.FlagSet {
	fs := flag.NewFlagSet("init", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&a.noRun, "no-run", false, "")
	fs.DurationVar(&a.tryTimeout, "run-timeout", initTryTimeout, "")
	return fs
}

func runInit(ctx context.Context, args []string, stdout io.Writer) (int, error) {
	var a initArgs
	fs := initFlagSet(&a)
	if err := parseFlags(fs, args); err != nil || fs.NArg() > 0 || a.tryTimeout <= 0 {
		if err == nil {
			err = fmt.Errorf("unexpected %q", fs.Args())
		}
		return 2, fmt.Errorf("%v (usage: hooksup init [--no-run] [--run-timeout DURATION])", err)
	}
	env, err := loadEnvironment()
	if err != nil {
		return 1, err
	}
	// The project's file is found from a subdirectory as every command finds it; a new one goes
	// to the repository's root, where its CI is (else here).
	dir := env.cwd
	if root, ok := config.RepoRoot(env.cwd); ok {
		dir = root
	}
	for _, p := range []string{filepath.Join(env.projectDir, ".hooksup.toml"), filepath.Join(dir, ".hooksup.toml")} {
		if _, err := os.Lstat(p); err == nil {
			return 1, fmt.Errorf("%s already exists: hooksup init never overwrites (edit it, or remove it first)", termsafe.String(p))
		}
	}
	path := filepath.Join(dir, ".hooksup.toml")
	if dir != env.cwd {
		fmt.Fprintf(stdout, "writing %s, at the repository's root\n", termsafe.String(path))
	}
	det := project.Detect(os.DirFS(dir))
	printFound(stdout, det)
	proveChecks(ctx, det, dir, a.tryTimeout, !a.noRun, stdout)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		return 1, fmt.Errorf("%s already exists: hooksup init never overwrites (edit it, or remove it first)", termsafe.String(path))
	}
	if err != nil {
		return 1, err
	}
	if _, err := f.WriteString(project.InitFile(det)); err != nil {
		f.Close()
		return 1, err
	}
	if err := f.Close(); err != nil {
		return 1, err
	}
	printDetection(stdout, det, path)
	printMissing(stdout, det.Checks(), dir)
	return 0, nil
}

// printMissing names the programs the checks start that are not installed, and the checks
// that use each: those fail at every stop until they are.
func printMissing(w io.Writer, configured []config.Check, dir string) {
	var progs []string
	users := map[string][]string{}
	for _, c := range configured {
		if m := checks.Missing(c, dir); m != "" {
			if users[m] == nil {
				progs = append(progs, m)
			}
			users[m] = append(users[m], termsafe.String(c.Name))
		}
	}
	if len(progs) == 0 {
		return
	}
	parts := make([]string, len(progs))
	for i, p := range progs {
		parts[i] = fmt.Sprintf("%s (%s)", termsafe.String(p), strings.Join(users[p], ", "))
	}
	them := "it is"
	if len(progs) > 1 {
		them = "they are"
	}
	fmt.Fprintf(w, "not found on the PATH: %s: those checks fail at every stop until %s installed (or you edit them)\n", strings.Join(parts, ", "), them)
}

// printFound tells the person what init recognised.
func printFound(w io.Writer, det project.Detection) {
	if len(det.Projects) == 0 {
		return
	}
	fmt.Fprintln(w, "found:")
	for _, p := range det.Projects {
		fmt.Fprintf(w, "  %s\n", termsafe.String(p.Line()))
	}
}

// printDetection tells the person which checks init wrote.
func printDetection(w io.Writer, det project.Detection, path string) {
	checks := det.Checks()
	path = termsafe.String(path)
	if len(det.Projects) == 0 {
		fmt.Fprintf(w, "hooksup init %s", termsafe.Text(det.Summary()))
		fmt.Fprintf(w, "wrote %s with no checks: add yours there, then run `hooksup trust` so hooksup may run them\n", path)
		return
	}
	if len(det.Proposals()) == 0 {
		fmt.Fprintf(w, "wrote %s, but recognised no checks: add yours there, then run `hooksup trust` so hooksup may run them\n", path)
		return
	}
	plural := "s"
	if len(checks) == 1 {
		plural = ""
	}
	if len(checks) == 0 {
		fmt.Fprintf(w, "wrote %s with no check enabled: until you enable one, the agent may always stop\n", path)
	} else {
		fmt.Fprintf(w, "wrote %s with %d check%s, run in this order:\n", path, len(checks), plural)
	}
	// Columns by what shows: a name's or a command's controls are shown, wider than they are.
	names, cmds := make([]string, len(checks)), make([]string, len(checks))
	nameW, cmdW := 0, 0
	for i, c := range checks {
		names[i], cmds[i] = termsafe.String(c.Name), termsafe.String(c.Command)
		nameW, cmdW = max(nameW, utf8.RuneCountInString(names[i])), max(cmdW, utf8.RuneCountInString(cmds[i]))
	}
	for i, c := range checks {
		line := "  " + pad(names[i], nameW) + "  " + pad(cmds[i], cmdW)
		if c.Cwd != "" {
			line += "  (in " + termsafe.String(c.Cwd) + ")"
		}
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
	var off []project.Proposal
	for _, p := range det.Proposals() {
		if p.Off != "" {
			off = append(off, p)
		}
	}
	if len(off) > 0 {
		fmt.Fprintln(w, "and, commented out for you to decide:")
		for _, p := range off {
			fmt.Fprintf(w, "  %s  %s  (%s)\n", termsafe.String(p.Check.Name), termsafe.String(p.Check.Command), present.FirstLine(p.Off))
		}
	}
	fmt.Fprintln(w, "look them over, then run `hooksup trust` so hooksup may run them (and `hooksup check` to run them now)")
}

// pad is s followed by spaces up to w characters.
func pad(s string, w int) string {
	return s + strings.Repeat(" ", max(0, w-utf8.RuneCountInString(s)))
}

func initCommand() command {
	return command{
		Command: cli.Command{Name: "init", Group: groupProject, Flags: []cli.Flag{
			{Name: "no-run", Help: "write the checks without proving them on the untouched tree"},
			{Name: "run-timeout", Arg: "DURATION", Help: "how long each check may run when proven (default 2m)"},
		}, Summary: "write a .hooksup.toml with the checks this project runs",
			Help: `write a commented .hooksup.toml with the checks this project runs (its GitHub
Actions' steps, tox, nox, pre-commit, go, npm/pnpm/yarn/bun, pytest, ruff, cargo, make test),
each proven once on the untouched tree: it passes, changes no file, and a test check runs
tests; what is not, or whose program is missing, is written commented out, with why; never
overwrites`},
		flagSet: func() *flag.FlagSet { return initFlagSet(&initArgs{}) },
		run: func(ctx context.Context, _ globalFlags, args []string, std stdio) (int, error) {
			// Ctrl-C ends the checks init tries.
			ictx, stop := signal.NotifyContext(ctx, os.Interrupt)
			defer stop()
			return runInit(ictx, args, std.out)
		},
	}
}
