package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"charm.land/lipgloss/v2"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/agent/agents"
	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/supervisor"
	"github.com/hooksup/hooksup/themes"
	"github.com/hooksup/hooksup/tui"
	"github.com/hooksup/hooksup/verdictlog"
)

// customThemes loads the theme files in $XDG_CONFIG_HOME/hooksup/themes.
func customThemes(env environment) ([]themes.Theme, error) {
	dir := filepath.Join(env.configDir, "themes")
	if _, err := os.Stat(dir); err != nil {
		return nil, nil
	}
	return themes.LoadDir(dir)
}

// resolveTheme picks the theme: --theme, else the config's; NO_COLOR forces mono; auto follows
// the terminal's background (asked before the TUI starts).
func resolveTheme(env environment, name string) (themes.Theme, error) {
	custom, err := customThemes(env)
	if err != nil {
		return themes.Theme{}, err
	}
	dark := true
	if name == "" || name == themes.Auto {
		dark = lipgloss.HasDarkBackground(os.Stdin, os.Stdout)
	}
	return themes.Resolve(name, os.Getenv("NO_COLOR") != "", dark, custom...)
}

// runTUI assembles a session whose agent runs in a pane and shows it in the terminal UI.
// resumeHint is a's rewrite of its resume command on its last screen; nil without an agent.
func resumeHint(a agent.Agent) func(string) (string, bool) {
	if a == nil {
		return nil
	}
	return a.ResumeHint
}

// resume is the command that resumes a session, before its id ("" when none does); ignored are
// the project config files left out (not trusted).
func runTUI(ctx context.Context, cfg config.Config, so supervisor.Options, resume string, ignored, configFiles []string) (int, error) {
	env, err := loadEnvironment()
	if err != nil {
		return 1, err
	}
	theme, err := resolveTheme(env, cfg.Theme)
	if err != nil {
		return 1, fmt.Errorf("%w (hooksup themes lists them)", err)
	}
	cols, rows := tui.AgentPaneSize(tui.TerminalSize(os.Stdout))
	s, err := newPaneSession(so, cols, rows)
	if err != nil {
		return 1, err
	}
	s.escapes = make(chan struct{})
	var goal *verdictlog.Goal
	if g, ok := s.sup.Goal(); ok {
		goal = &g
	}
	// The TUI runs without Bubble Tea's signal handler, and the terminal in raw mode sends no
	// SIGINT: one from elsewhere ends the session here (SIGTERM and SIGHUP do in main).
	ctx, stop := signalContext(ctx, syscall.SIGINT)
	defer stop()
	code, err := s.run(ctx, func(ctx context.Context) error {
		return tui.Run(ctx, s.sup, tui.Options{
			Terminal:       s.pty.File(),
			Mode:           cfg.Mode,
			Agent:          s.sup.Agent().Name(),
			DefaultAgent:   agents.Default().Name(),
			BlockCap:       s.sup.BlockCap(),
			Theme:          theme,
			Prefix:         cfg.Keys.Prefix,
			Bindings:       cfg.Keys.Bindings,
			HoldOnExit:     cfg.UI.HoldOnExit,
			Resume:         resume,
			ResumeHint:     resumeHint(s.sup.Agent()),
			PromptEmpty:    func(rows []string) bool { return agent.PromptEmpty(s.sup.Agent(), rows) },
			Checks:         cfg.Stop.Checks,
			SubagentChecks: cfg.SubagentStop.Checks,
			Ignored:        ignored,
			ConfigFiles:    configFiles,
			Goal:           goal,
			Version:        versionString(),
			Notifier:       newNotifier(cfg, so),
			Escapes:        s.escapes,
		})
	})
	// The pane is gone with the TUI: the resume command stays on the terminal (none for the
	// demo's simulated session, which resume "" says).
	if resume != "" {
		printResume(os.Stdout, s.sup)
	}
	return goalExit(os.Stderr, s.sup, code, err), err
}
