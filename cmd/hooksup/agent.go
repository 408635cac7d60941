package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/charmbracelet/x/term"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/cli"
	"github.com/hooksup/hooksup/internal/logfile"
	"github.com/hooksup/hooksup/internal/runtimedir"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/internal/userdirs"
	"github.com/hooksup/hooksup/supervisor"
)

// environment is what the subcommands read from the process environment.
type environment struct {
	stateDir  string
	configDir string
	home      string // $HOME, absolute
	cwd       string
	// projectDir is where the project's configuration is: the nearest directory from cwd up
	// (to the repository's root) with a .hooksup.toml or .hooksup.local.toml, else cwd.
	projectDir string
}

func loadEnvironment() (environment, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return environment{}, fmt.Errorf("current directory: %w", err)
	}
	stateDir, err := hooks.StateDir(os.Getenv)
	if err != nil {
		return environment{}, err
	}
	configDir, err := config.UserConfigDir(os.Getenv)
	if err != nil {
		return environment{}, err
	}
	home, err := userdirs.Home(os.Getenv) // the agents' own files and settings are under it
	if err != nil {
		return environment{}, err
	}
	projectDir, _ := config.FindProject(cwd)
	return environment{stateDir: stateDir, configDir: configDir, home: home, cwd: cwd, projectDir: projectDir}, nil
}

func trustStore(env environment) config.TrustStore {
	return config.TrustStore{Path: filepath.Join(env.stateDir, "trusted")}
}

// loadConfig merges the configuration layers and the flags, and tells the person about project
// files it ignored.
func loadConfig(g globalFlags, env environment, stderr io.Writer) (config.Config, error) {
	cfg, layers, err := loadLayers(g, env)
	if err != nil {
		return cfg, err
	}
	printIgnored(layers, stderr)
	return cfg, nil
}

// printIgnored tells the person which files were not used, and why.
func printIgnored(layers []config.Layer, w io.Writer) {
	for _, l := range layers {
		if l.Note != "" {
			fmt.Fprintf(w, "hooksup: ignoring %s: %s\n", l.Path, l.Note)
		}
	}
}

// ignoredFiles are the config files left out, relative to dir where they are inside it.
func ignoredFiles(layers []config.Layer, dir string) []string {
	var out []string
	for _, l := range layers {
		if l.Note == "" {
			continue
		}
		p := l.Path
		if rel, err := filepath.Rel(dir, p); err == nil && !strings.HasPrefix(rel, "..") {
			p = rel
		}
		out = append(out, p)
	}
	return out
}

// checkFiles are the configuration files in use that set checks, relative to dir where they are
// inside it (so a file found above dir is named by its whole path).
func checkFiles(layers []config.Layer, dir string) []string {
	var out []string
	for _, l := range layers {
		if !l.Used || !l.SetsChecks {
			continue
		}
		p := l.Path
		if rel, err := filepath.Rel(dir, p); err == nil && !strings.HasPrefix(rel, "..") {
			p = rel
		}
		out = append(out, p)
	}
	return out
}

// loadLayers merges the configuration layers and the flags.
func loadLayers(g globalFlags, env environment) (config.Config, []config.Layer, error) {
	cfg, layers, err := config.Load(config.LoadOptions{
		UserConfigDir: env.configDir, ProjectDir: env.projectDir, ExplicitFile: g.config, Trusted: trustStore(env).Trusted,
	})
	if err != nil {
		return cfg, layers, err // each problem names its file
	}
	if g.mode != "" {
		cfg.Mode = config.Mode(g.mode)
	}
	if g.theme != "" {
		cfg.Theme = g.theme
	}
	g.goal.apply(&cfg.Goal)
	var ces config.Errors
	if err := cfg.Validate(); errors.As(err, &ces) {
		return cfg, layers, fmt.Errorf("--%s: %s", flagOfKey(ces[0].Key), ces[0].Msg) // the flags' values
	}
	return cfg, layers, nil
}

// openLogger opens hooksup's own log in the state directory, rotated past logfile.MaxSize.
// Nothing is logged to the terminal.
func openLogger(stateDir string, debug bool) (*slog.Logger, func()) {
	level := slog.LevelInfo
	if debug {
		level = slog.LevelDebug
	}
	if err := os.MkdirAll(stateDir, 0o700); err == nil {
		f, err := logfile.Open(filepath.Join(stateDir, "hooksup.log"), logfile.MaxSize)
		if err == nil {
			return slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: level})), func() { f.Close() }
		}
	}
	return slog.New(slog.DiscardHandler), func() {}
}

// agentBin is the binary to run for a: its --NAME-bin flag, else its environment variable,
// else its name on PATH.
func agentBin(g globalFlags, a agent.Agent) string {
	var flag string
	if p := g.bins[a.Name()]; p != nil {
		flag = *p
	}
	return agent.Bin(a, flag, os.Getenv)
}

// runAgent is `hooksup [flags] AGENT [args...]`: a's session, the TUI in a terminal, headless
// otherwise. The agent's exit status is hooksup's, but for a strict headless run (--strict,
// [stop] strict) whose agent exited 0 having stopped last with a check failing: 3.
func runAgent(ctx context.Context, g globalFlags, a agent.Agent, args []string, stdin, stdout, stderr *os.File) (int, error) {
	if err := misplacedFlag(a.Name(), args); err != nil {
		return 2, err
	}
	if err := g.goal.check(); err != nil {
		return 2, err
	}
	env, err := loadEnvironment()
	if err != nil {
		return 1, err
	}
	interactive := term.IsTerminal(stdin.Fd()) && term.IsTerminal(stdout.Fd())
	cfg, layers, err := loadLayers(g, env)
	if err != nil {
		return 1, err
	}
	goal, err := g.goal.goal(cfg, projectFiles(env))
	if err != nil {
		return 2, err
	}
	logger, closeLog := openLogger(env.stateDir, g.debug)
	defer closeLog()
	// An agent hooksup cannot supervise is refused before anything is asked.
	events, err := a.Events(ctx, agentBin(g, a), args, logger)
	if err != nil {
		return 1, err
	}
	if interactive && !g.noTUI {
		// The first interactive run asks to trust a new or changed project file.
		if askTrust(layers, env, stdin, stderr) {
			if cfg, layers, err = loadLayers(g, env); err != nil {
				return 1, err
			}
			printIgnored(layers, stderr)
		}
	} else {
		printIgnored(layers, stderr)
		if env.projectDir != env.cwd { // found above: say which file gates this session
			for _, f := range checkFiles(layers, env.cwd) {
				fmt.Fprintf(stderr, "hooksup: checks from %s\n", termsafe.String(f))
			}
		}
	}
	self, err := os.Executable()
	if err != nil {
		return 1, fmt.Errorf("find hooksup's own binary: %w", err)
	}
	rdir, err := runtimedir.Dir(os.Getenv)
	if err != nil {
		return 1, err
	}
	so := supervisor.Options{
		Config: cfg, Agent: a, Bin: agentBin(g, a), Args: args, Events: events, HooksupBin: self, HookClient: hookClient(self), ProjectDir: env.cwd, ChecksDir: env.projectDir,
		StateDir: env.stateDir, RuntimeDir: rdir, Logger: logger, Goal: goal,
		ConfigWatch: configWatch(g, env, layers),
	}
	if interactive && !g.noTUI {
		return runTUI(ctx, cfg, so, a.Resume(), ignoredFiles(layers, env.cwd), checkFiles(layers, env.cwd))
	}
	s, err := newHeadlessSession(so, stdin, stdout, stderr)
	if err != nil {
		return 1, err
	}
	// Headless: one line per verdict on stderr, unless the agent's own full-screen UI is on this
	// terminal (--no-tui without -p / exec), where lines would tear it; they are in hooksup log
	// then.
	out := io.Writer(stderr)
	if interactive && !a.Headless(args) {
		out = io.Discard
	}
	// The alerts go to stderr when it is a terminal: never to a pipe or file, nor into
	// the agent's stdout.
	var alerts io.Writer
	if term.IsTerminal(stderr.Fd()) {
		alerts = stderr
	}
	var stops lastStop
	code, err := s.run(ctx, s.printVerdicts(out, alerts, newNotifier(cfg, so), &stops))
	if interactive && !a.Headless(args) {
		// the agent's own resume command, above, would run it without hooksup.
		printResume(stderr, s.sup)
	}
	// Strict, a script or CI learns that the agent gave up on failing checks: the agent's own
	// failure, and hooksup's, come first.
	if note := stops.strictNote(); note != "" && (g.strict || cfg.Stop.Strict) && code == 0 && err == nil {
		fmt.Fprintf(stderr, "hooksup: %s\n", note)
		code = strictExit
	}
	return goalExit(stderr, s.sup, code, err), err
}

// printResume tells the person how to resume the session under hooksup once the agent has
// exited.
func printResume(w io.Writer, sup *supervisor.Supervisor) {
	if id := sup.ResumeID(); id != "" {
		if cmd := sup.Agent().Resume(); cmd != "" {
			fmt.Fprintf(w, "Resume this session under hooksup with:\n%s %s\n", cmd, id)
		}
	}
}

// hookClient returns the dedicated hook client installed beside hooksup (go install
// ./cmd/... installs both), or "" to let the hooks run `hooksup hook`.
func hookClient(self string) string {
	p := filepath.Join(filepath.Dir(self), "hooksup-hook")
	if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
		return p
	}
	return ""
}

// agentCommand is `hooksup [flags] NAME [NAME's args...]`: the agent a runs under supervision.
func agentCommand(a agent.Agent) command {
	return command{
		Command: cli.Command{Name: a.Name(), GlobalsFirst: true, Args: "[" + a.Name() + " args...]", Passthrough: true,
			Group: groupAgents, Summary: "run " + a.Product() + " under supervision", Help: a.Help()},
		ownHelp: true,
		run: func(ctx context.Context, g globalFlags, args []string, std stdio) (int, error) {
			return runAgent(ctx, g, a, args, std.in, std.out, std.err)
		},
	}
}
