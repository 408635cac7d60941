package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/agent/agents"
	"github.com/hooksup/hooksup/checks"
	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/engine"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/notify"
	"github.com/hooksup/hooksup/internal/present"
	"github.com/hooksup/hooksup/internal/projectlock"
	"github.com/hooksup/hooksup/internal/runtimedir"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/project"
)

// installFlagSet parses install's and uninstall's flags.
func installFlagSet(name string, scope, agentName *string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(scope, "scope", "", "")
	fs.StringVar(agentName, "agent", agents.Default().Name(), "")
	return fs
}

// defaultHookTimeout is Claude Code's and Codex's default timeout for a command hook (10
// minutes), the floor of every hook hooksup installs.
const defaultHookTimeout = 10 * time.Minute

// installedHookTimeout is the timeout of an installed stop hook: the one hooksup injects under a
// supervisor, for the checks configured now, and never below defaultHookTimeout, since the
// checks may grow after the install.
func installedHookTimeout(g globalFlags, env environment) time.Duration {
	timeout := defaultHookTimeout
	if cfg, err := loadConfig(g, env, io.Discard); err == nil {
		timeout = max(timeout, cfg.StopHookTimeout())
	}
	return timeout
}

func runInstall(g globalFlags, args []string, stdout, stderr io.Writer, uninstall bool) (int, error) {
	name := "install"
	if uninstall {
		name = "uninstall"
	}
	var scope, agentName string
	fs := installFlagSet(name, &scope, &agentName)
	var names, scopes []string
	for _, a := range agents.All() {
		if in, ok := a.(agent.Installer); ok {
			names = append(names, a.Name())
			for _, sc := range in.Scopes() {
				if !slices.Contains(scopes, sc) {
					scopes = append(scopes, sc)
				}
			}
		}
	}
	if err := parseFlags(fs, args); err != nil {
		return 2, fmt.Errorf("%v (usage: hooksup %s [--agent %s] [--scope %s])", err, name, strings.Join(names, "|"), strings.Join(scopes, "|"))
	}
	env, err := loadEnvironment()
	if err != nil {
		return 1, err
	}
	a, _ := agents.ByName(agentName)
	in, ok := a.(agent.Installer)
	if !ok {
		return 2, fmt.Errorf("--agent %q: hooksup installs for %s", agentName, orList(names))
	}
	o := agent.Install{Scope: scope, ProjectDir: env.cwd, Home: env.home, Getenv: os.Getenv, Stdout: stdout,
		Bin: hookBin, Timeout: func() time.Duration { return installedHookTimeout(g, env) },
		SharedBin: func() string { return sharedHookBin(stderr) }}
	if uninstall {
		err = in.Uninstall(o)
	} else {
		err = in.Install(o)
	}
	var se *agent.ScopeError
	switch {
	case errors.As(err, &se):
		return 2, err
	case err != nil:
		return 1, err
	}
	return 0, nil
}

// hookBin is the binary the installed hooks run: the small hook client when it is installed
// beside hooksup (it starts in a fraction of hooksup's time, and the hook runs at every stop),
// else hooksup itself.
func hookBin() (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("find hooksup's own binary: %w", err)
	}
	bin := self
	if c := hookClient(self); c != "" {
		bin = c
	}
	return bin, hooks.CheckProgramPath(bin)
}

// sharedHookBin is the program the hooks of a settings file shared with others run: hooksup by
// name, which each machine finds on its PATH, so that the file holds no path of this machine.
// The hook client beside hooksup would start faster, but not every install has it (go install
// of cmd/hooksup alone). stderr is told when this machine's PATH finds no hooksup, or another
// one than this.
func sharedHookBin(stderr io.Writer) string {
	const name = "hooksup"
	found, err := exec.LookPath(name)
	if err != nil {
		fmt.Fprintf(stderr, "hooksup: warning: no hooksup on your PATH, so the hook does not run here: put hooksup's directory on your PATH, or install with --scope local (this machine only)\n")
		return name
	}
	self, err := os.Executable()
	if err != nil {
		return name
	}
	a, errA := os.Stat(found)
	b, errB := os.Stat(self)
	if errA == nil && errB == nil && !os.SameFile(a, b) {
		fmt.Fprintf(stderr, "hooksup: warning: the hook runs the hooksup on your PATH, %s, not this one (%s)\n", termsafe.String(found), termsafe.String(self))
	}
	return name
}

// initTryTimeout is how long init lets each check run when it tries it on the untouched tree.
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

// missingProblem says that a check's program is not installed, "" when it is or hooksup
// cannot tell.
func missingProblem(c config.Check, dir string) string {
	m := checks.Missing(c, dir)
	switch {
	case m == "":
		return ""
	case strings.Contains(m, "/"):
		return fmt.Sprintf("check \"%s\": %s not found", termsafe.String(c.Name), termsafe.String(m))
	}
	return fmt.Sprintf("check \"%s\": %s not found on the PATH", termsafe.String(c.Name), termsafe.String(m))
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

func runDoctor(ctx context.Context, g globalFlags, stdout io.Writer) (int, error) {
	env, err := loadEnvironment()
	if err != nil {
		return 1, err
	}
	problems := 0
	// What doctor reports names paths, hook commands and configuration from outside hooksup:
	// each line is shown visibly, but for its own line breaks.
	bad := func(format string, a ...any) {
		problems++
		fmt.Fprintf(stdout, "  ✗ %s\n", termsafe.Text(fmt.Sprintf(format, a...)))
	}
	ok := func(format string, a ...any) {
		fmt.Fprintf(stdout, "  ✓ %s\n", termsafe.Text(fmt.Sprintf(format, a...)))
	}

	for _, a := range agents.All() {
		d, isDoctor := a.(agent.Doctor)
		if !isDoctor {
			continue
		}
		fmt.Fprintln(stdout, a.Name())
		d.Doctor(ctx, agent.Check{Bin: agentBin(g, a), ProjectDir: env.cwd, Home: env.home, Getenv: os.Getenv, Out: stdout, OK: ok, Bad: bad})
	}

	fmt.Fprintln(stdout, "hooksup configuration")
	cfg, layers, err := loadLayers(g, env)
	if err != nil {
		bad("%s", errorText(err))
	}
	if !slices.ContainsFunc(layers, func(l config.Layer) bool { return l.Used || l.Note != "" }) && err == nil {
		fmt.Fprintf(stdout, "  · no configuration file: the defaults, and no checks (no .hooksup.toml in %s or above it, up to the repository's root; hooksup init writes one)\n",
			termsafe.String(env.cwd))
	}
	for _, l := range layers {
		switch {
		case l.Used:
			ok("%s (%s)", termsafe.String(l.Path), l.Source)
		case l.Note != "":
			bad("%s (%s): %s", termsafe.String(l.Path), l.Source, termsafe.String(l.Note))
			var ces config.Errors
			if errors.As(l.Problem, &ces) {
				for _, ce := range ces {
					bad("%s", termsafe.String(ce.Error()))
				}
			} else if l.Problem != nil {
				bad("%s", errorText(l.Problem))
			}
		}
	}

	for _, c := range append(slices.Clone(cfg.Stop.Checks), cfg.SubagentStop.Checks...) {
		if p := missingProblem(c, env.projectDir); p != "" {
			bad("%s: it fails at every stop until that is installed", p)
		}
	}

	fmt.Fprintln(stdout, "socket directory")
	if dir, err := runtimedir.Dir(os.Getenv); err != nil {
		bad("%v", err)
	} else {
		fi, _ := os.Stat(dir)
		ok("%s (mode %o, yours only)", dir, fi.Mode().Perm())
	}
	n := notify.New(cfg.Notifications.Notifier)
	fmt.Fprintf(stdout, "notifications\n  · notify reaches you here as %s: %s\n", n.Choice.Method, n.Choice.Why)
	fmt.Fprintf(stdout, "state: %s\n", termsafe.String(env.stateDir))
	if problems > 0 {
		fmt.Fprintf(stdout, "%d problem(s) found\n", problems)
		return 1, nil
	}
	fmt.Fprintln(stdout, "no problems found")
	return 0, nil
}
