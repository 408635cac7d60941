package main

import (
	"bufio"
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
	"github.com/hooksup/hooksup/internal/runtimedir"
	"github.com/hooksup/hooksup/supervisor"
)

// environment is what the subcommands read from the process environment.
type environment struct {
	stateDir  string
	configDir string
	cwd       string
}

func loadEnvironment() (environment, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return environment{}, fmt.Errorf("current directory: %w", err)
	}
	return environment{
		stateDir:  hooks.StateDir(os.Getenv),
		configDir: config.UserConfigDir(os.Getenv),
		cwd:       cwd,
	}, nil
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

// loadLayers merges the configuration layers and the flags.
func loadLayers(g globalFlags, env environment) (config.Config, []config.Layer, error) {
	cfg, layers, err := config.Load(config.LoadOptions{
		UserConfigDir: env.configDir, ProjectDir: env.cwd, ExplicitFile: g.config, Trusted: trustStore(env).Trusted,
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
	var ces config.Errors
	if err := cfg.Validate(); errors.As(err, &ces) {
		return cfg, layers, fmt.Errorf("--%s: %s", ces[0].Key, ces[0].Msg) // the flags' values
	}
	return cfg, layers, nil
}

// askTrust shows the person the commands of each untrusted project file and asks, once,
// whether to trust that exact content. It returns whether anything was trusted.
func askTrust(layers []config.Layer, env environment, in io.Reader, out io.Writer) bool {
	trusted := false
	br := bufio.NewReader(in)
	for _, l := range layers {
		if l.Note == "" {
			continue
		}
		content, err := os.ReadFile(l.Path)
		if err != nil {
			fmt.Fprintf(out, "hooksup: ignoring %s: %v\n", l.Path, err)
			continue
		}
		c := config.Defaults()
		if err := config.Decode(l.Path, content, &c); err != nil {
			fmt.Fprintf(out, "hooksup: ignoring %s: %v\n", l.Path, err)
			continue
		}
		fmt.Fprintf(out, "hooksup: %s is not trusted. When claude stops it would run:\n", l.Path)
		for _, ch := range append(c.Stop.Checks, c.SubagentStop.Checks...) {
			fmt.Fprintf(out, "  %-12s %s\n", ch.Name, ch.Command)
			if ch.Cwd != "" {
				fmt.Fprintf(out, "  %-12s   in %s\n", "", ch.Cwd)
			}
			for k, v := range ch.Env {
				fmt.Fprintf(out, "  %-12s   with %s=%s\n", "", k, v)
			}
		}
		fmt.Fprint(out, "Trust this exact content? [y/N] ")
		line, _ := br.ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
			fmt.Fprintf(out, "hooksup: ignoring %s (hooksup trust trusts it later)\n", l.Path)
			continue
		}
		if err := trustStore(env).TrustContent(l.Path, content); err != nil {
			fmt.Fprintf(out, "hooksup: %v\n", err)
			continue
		}
		trusted = true
	}
	return trusted
}

// openLogger opens hooksup's own log in the state directory. Nothing is logged to the terminal.
func openLogger(stateDir string, debug bool) (*slog.Logger, func()) {
	level := slog.LevelInfo
	if debug {
		level = slog.LevelDebug
	}
	if err := os.MkdirAll(stateDir, 0o700); err == nil {
		f, err := os.OpenFile(filepath.Join(stateDir, "hooksup.log"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err == nil {
			return slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: level})), func() { f.Close() }
		}
	}
	return slog.New(slog.DiscardHandler), func() {}
}

// agentBin is the binary to run for a: its --NAME-bin flag, else its environment variable,
// else its name on PATH.
func agentBin(g globalFlags, a agent.Agent) string {
	flag := map[string]string{agent.Claude{}.Name(): g.claudeBin, agent.Codex{}.Name(): g.codexBin, agent.Gemini{}.Name(): g.geminiBin}[a.Name()]
	return agent.Bin(a, flag, os.Getenv)
}

func claudeBin(g globalFlags) string { return agentBin(g, agent.Claude{}) }

// runAgent is `hooksup [flags] AGENT [args...]`: a's session, the TUI in a terminal, headless
// otherwise. The agent's exit status is hooksup's.
func runAgent(ctx context.Context, g globalFlags, a agent.Agent, args []string, stdin, stdout, stderr *os.File) (int, error) {
	env, err := loadEnvironment()
	if err != nil {
		return 1, err
	}
	interactive := term.IsTerminal(stdin.Fd()) && term.IsTerminal(stdout.Fd())
	cfg, layers, err := loadLayers(g, env)
	if err != nil {
		return 1, err
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
		Config: cfg, Agent: a, Bin: agentBin(g, a), Args: args, Events: events, HooksupBin: self, HookClient: hookClient(self), ProjectDir: env.cwd,
		StateDir: env.stateDir, RuntimeDir: rdir, Logger: logger,
	}
	if interactive && !g.noTUI {
		return runTUI(ctx, cfg, so, a.Resume(), ignoredFiles(layers, env.cwd))
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
	code, err := s.run(ctx, s.printVerdicts(out, alerts, newNotifier(cfg, so)))
	if interactive && !a.Headless(args) {
		// the agent's own resume command, above, would run it without hooksup.
		printResume(stderr, s.sup)
	}
	return code, err
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

// printMode reports claude's -p/--print: no full-screen UI of its own.
func printMode(args []string) bool { return agent.Claude{}.Headless(args) }
