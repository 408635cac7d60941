package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/term"

	"github.com/hooksup/hooksup/agent/agents"
	"github.com/hooksup/hooksup/internal/cli"
	"github.com/hooksup/hooksup/themes"
	"github.com/hooksup/hooksup/tui"
)

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

func themesCommand() command {
	return command{
		Command: cli.Command{Name: "themes", Group: groupMore, Args: "[NAME...]", ArgValues: cli.Values{Dynamic: completeThemes},
			Summary: "list and preview the colour themes", Help: "list and preview the colour themes"},
		run: func(_ context.Context, _ globalFlags, args []string, std stdio) (int, error) {
			return runThemes(args, std.out)
		},
	}
}
