package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/charmbracelet/x/term"

	"github.com/hooksup/hooksup/hooks"
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
		configDir: supervisor.UserConfigDir(os.Getenv),
		cwd:       cwd,
	}, nil
}

// loadConfig merges the configuration layers and the flags, and tells the person about project
// files it ignored.
func loadConfig(g globalFlags, env environment, stderr io.Writer) (supervisor.Config, error) {
	trust := supervisor.TrustStore{Path: filepath.Join(env.stateDir, "trusted")}
	cfg, layers, err := supervisor.LoadConfig(supervisor.LoadOptions{
		UserConfigDir: env.configDir, ProjectDir: env.cwd, ExplicitFile: g.config, Trusted: trust.Trusted,
	})
	if err != nil {
		return cfg, fmt.Errorf("config: %w", err)
	}
	for _, l := range layers {
		if l.Note != "" {
			fmt.Fprintf(stderr, "hooksup: ignoring %s: %s\n", l.Path, l.Note)
		}
	}
	if g.mode != "" {
		cfg.Mode = g.mode
	}
	if g.theme != "" {
		cfg.Theme = g.theme
	}
	if err := cfg.Validate(); err != nil {
		return cfg, fmt.Errorf("flags: %w", err)
	}
	return cfg, nil
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

func claudeBin(g globalFlags) string {
	if g.claudeBin != "" {
		return g.claudeBin
	}
	if b := os.Getenv("HOOKSUP_CLAUDE_BIN"); b != "" {
		return b
	}
	return "claude"
}

func runClaude(ctx context.Context, g globalFlags, args []string, stdin, stdout, stderr *os.File) (int, error) {
	env, err := loadEnvironment()
	if err != nil {
		return 1, err
	}
	cfg, err := loadConfig(g, env, stderr)
	if err != nil {
		return 1, err
	}
	logger, closeLog := openLogger(env.stateDir, g.debug)
	defer closeLog()
	self, err := os.Executable()
	if err != nil {
		return 1, fmt.Errorf("find hooksup's own binary: %w", err)
	}
	rdir, err := supervisor.RuntimeDir(os.Getenv)
	if err != nil {
		return 1, err
	}
	interactive := term.IsTerminal(stdin.Fd()) && term.IsTerminal(stdout.Fd())
	so := supervisor.Options{
		Config: cfg, ClaudeBin: claudeBin(g), Args: args, HooksupBin: self, HookClient: hookClient(self), ProjectDir: env.cwd,
		StateDir: env.stateDir, RuntimeDir: rdir, Logger: logger,
		Stdin: stdin, Stdout: stdout, Stderr: stderr, ForwardSignals: true,
	}
	if interactive && !g.noTUI {
		return runTUI(ctx, g, cfg, so)
	}
	sup, err := supervisor.New(so)
	if err != nil {
		return 1, err
	}
	// Headless: one line per verdict on stderr, unless claude's own full-screen UI is on this
	// terminal, where lines would tear it.
	printed := make(chan struct{})
	go func() {
		defer close(printed)
		out := io.Writer(stderr)
		if interactive {
			out = io.Discard
		}
		supervisor.PrintVerdicts(out, sup.Events())
	}()
	code, err := sup.Run(ctx)
	<-printed
	return code, err
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
