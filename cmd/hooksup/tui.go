package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/term"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/agent/agents"
	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/supervisor"
	"github.com/hooksup/hooksup/themes"
	"github.com/hooksup/hooksup/tui"
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
			Checks:         cfg.Stop.Checks,
			SubagentChecks: cfg.SubagentStop.Checks,
			Ignored:        ignored,
			ConfigFiles:    configFiles,
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

// runThemes is `hooksup themes [NAME...]`: every theme (built-in and custom), each previewed
// by the TUI's own renderer. With NO_COLOR the TUI draws in mono whatever the theme, so the
// themes are listed and mono is shown once.
func runThemes(args []string, stdout io.Writer) (int, error) {
	env, err := loadEnvironment()
	if err != nil {
		return 1, err
	}
	custom, err := customThemes(env)
	if err != nil {
		return 1, err
	}
	names := themes.Names()
	for _, c := range custom {
		names = append(names, c.Name)
	}
	if len(args) > 0 {
		names = args
	}
	noColor := os.Getenv("NO_COLOR") != ""
	w, h := previewSize(stdout)
	bold := lipgloss.NewStyle().Bold(true)
	for _, n := range names {
		t, err := themes.Resolve(n, noColor, true, custom...)
		if err != nil {
			return 1, err
		}
		if noColor {
			continue // every name is checked; mono is shown once below
		}
		note := " · for light backgrounds"
		switch {
		case n == themes.Auto:
			note = " · dark or light, by the terminal's background"
		case t.Name == themes.Mono:
			note = " · no colour"
		case t.Dark:
			note = " · for dark backgrounds"
		}
		lipgloss.Fprintf(stdout, "%s%s\n%s\n\n", bold.Render(n), note, tui.Preview(t, agents.Default().Name(), w, h))
	}
	if noColor {
		mono, _ := themes.Get(themes.Mono)
		lipgloss.Fprintf(stdout, "%s\nNO_COLOR is set: hooksup draws in mono, whatever the theme.\n\n%s\n\n",
			bold.Render(strings.Join(names, ", ")), tui.Preview(mono, agents.Default().Name(), w, h))
	}
	fmt.Fprintf(stdout, "Choose one with --theme NAME or theme = \"NAME\"; custom themes go in %s (NO_COLOR forces mono).\n",
		filepath.Join(env.configDir, "themes", "NAME.toml"))
	fmt.Fprintf(stdout, "A theme file sets any of these slots to \"#rrggbb\", an ANSI index 0-255 or \"none\", and may inherit the rest with base = \"NAME\":\n  %s\n",
		strings.Join(themes.Slots(), " "))
	return 0, nil
}

// previewSize is the size of a theme's preview: the TUI's wide layout, or the terminal's width
// (and the layout the TUI uses there) when it is narrower.
func previewSize(stdout io.Writer) (w, h int) {
	if f, ok := stdout.(*os.File); ok {
		if cols, _, err := term.GetSize(f.Fd()); err == nil && cols > 0 && cols < tui.PreviewWidth {
			return cols, tui.PreviewNarrowHeight
		}
	}
	return tui.PreviewWidth, tui.PreviewHeight
}
