// Package themes holds hooksup's colour themes as data: a theme is a set of
// semantic colour slots (border, muted, allow, block, …). The TUI derives its
// styles from a theme once (tui.NewStyles) and previews themes with the same
// code that draws its frames (tui.Preview); this package draws nothing.
//
// Built-in themes are listed by Names and returned by Get; custom themes are
// TOML files read by LoadFile, which may inherit from a built-in. Resolve
// picks the theme to use from the configured name, NO_COLOR and the
// terminal's background.
package themes

import (
	"errors"
	"fmt"
	"image/color"
	"slices"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
)

// Sentinel errors, wrapped by the errors this package returns.
var (
	// ErrUnknownTheme: no built-in or custom theme has the name.
	ErrUnknownTheme = errors.New("unknown theme")
	// ErrUnknownSlot: a theme file sets a key that is not a slot.
	ErrUnknownSlot = errors.New("unknown slot")
	// ErrBadColor: a colour is not "#rgb", "#rrggbb", an ANSI index 0–255
	// or "none".
	ErrBadColor = errors.New("invalid colour")
	// ErrMissingSlots: a theme file without a base leaves slots unset.
	ErrMissingSlots = errors.New("missing slots")
)

// Theme is a complete set of colours, one per semantic slot. A slot set to
// lipgloss.NoColor{} uses the terminal's default colour (the mono theme sets
// every slot so).
type Theme struct {
	// Name identifies the theme ("dark", "catppuccin-mocha", or a custom
	// file's name).
	Name string
	// Dark reports whether the theme is made for a dark background.
	Dark bool

	// Chrome. Ordinary text has no slot: it is the terminal's own foreground.
	Muted         color.Color // secondary text: times, hints, separators, empty panes
	Title         color.Color // pane titles, the check's name, "hooksup" in the header
	Accent        color.Color // a verdict's source, keys in the help
	Border        color.Color // pane borders
	BorderFocus   color.Color // the focused pane's border
	Selection     color.Color // background of the selected verdict
	SelectionText color.Color // text of the selected verdict
	StatusBar     color.Color // background of the status line after claude exited; the decision banner's text
	StatusBarText color.Color // text of the status line after claude exited
	Error         color.Color // hooksup's own errors (the verdict log cannot be written, a required check cannot start)

	// Hook verdicts.
	Allow   color.Color // the agent may stop
	Block   color.Color // the agent must continue
	Halt    color.Color // the turn was ended at once (continue: false)
	Warn    color.Color // allowed with a warning; a limit was reached; a steered subagent
	Pending color.Color // a question waits for the person: the banner and claude's pane border

	// Agent state, in the header.
	Working    color.Color // working or stopping
	Idle       color.Color // starting or waiting for input
	Permission color.Color // asks for permission
	Stopped    color.Color // exited; a subagent that is done

	// Checks, in the checks pane and a verdict's detail.
	CheckRunning color.Color
	CheckPass    color.Color
	CheckFail    color.Color
}

// slot describes one colour slot: its name in theme files and its field.
type slot struct {
	name  string
	field func(*Theme) *color.Color
}

// slotTable lists every slot, in the order used by Slots and theme files.
var slotTable = []slot{
	{"muted", func(t *Theme) *color.Color { return &t.Muted }},
	{"title", func(t *Theme) *color.Color { return &t.Title }},
	{"accent", func(t *Theme) *color.Color { return &t.Accent }},
	{"border", func(t *Theme) *color.Color { return &t.Border }},
	{"border_focus", func(t *Theme) *color.Color { return &t.BorderFocus }},
	{"selection", func(t *Theme) *color.Color { return &t.Selection }},
	{"selection_text", func(t *Theme) *color.Color { return &t.SelectionText }},
	{"status_bar", func(t *Theme) *color.Color { return &t.StatusBar }},
	{"status_bar_text", func(t *Theme) *color.Color { return &t.StatusBarText }},
	{"error", func(t *Theme) *color.Color { return &t.Error }},
	{"allow", func(t *Theme) *color.Color { return &t.Allow }},
	{"block", func(t *Theme) *color.Color { return &t.Block }},
	{"halt", func(t *Theme) *color.Color { return &t.Halt }},
	{"warn", func(t *Theme) *color.Color { return &t.Warn }},
	{"pending", func(t *Theme) *color.Color { return &t.Pending }},
	{"working", func(t *Theme) *color.Color { return &t.Working }},
	{"idle", func(t *Theme) *color.Color { return &t.Idle }},
	{"permission", func(t *Theme) *color.Color { return &t.Permission }},
	{"stopped", func(t *Theme) *color.Color { return &t.Stopped }},
	{"check_running", func(t *Theme) *color.Color { return &t.CheckRunning }},
	{"check_pass", func(t *Theme) *color.Color { return &t.CheckPass }},
	{"check_fail", func(t *Theme) *color.Color { return &t.CheckFail }},
}

// retiredSlots are keys that theme files no longer take, with what to do
// instead.
var retiredSlots = map[string]string{
	"text": "ordinary text is drawn in the terminal's own foreground colour; delete the line",
}

// Slots returns the names of all colour slots, as used in theme files.
func Slots() []string {
	names := make([]string, len(slotTable))
	for i, s := range slotTable {
		names[i] = s.name
	}
	return names
}

// Color returns the colour of the named slot.
func (t Theme) Color(slotName string) (color.Color, bool) {
	for _, s := range slotTable {
		if s.name == slotName {
			return *s.field(&t), true
		}
	}
	return nil, false
}

// missing returns the names of the slots t leaves nil.
func (t *Theme) missing() []string {
	var names []string
	for _, s := range slotTable {
		if *s.field(t) == nil {
			names = append(names, s.name)
		}
	}
	return names
}

// Names of the built-in themes, in the order Names lists them.
const (
	Auto            = "auto"
	Dark            = "dark"
	Light           = "light"
	HighContrast    = "high-contrast"
	Mono            = "mono"
	CatppuccinMocha = "catppuccin-mocha"
	GruvboxDark     = "gruvbox-dark"
)

// Names returns the names of the built-in themes: auto (dark or light by
// the terminal's background), dark, light, high-contrast (for dark
// backgrounds), mono (no colour; what NO_COLOR selects), catppuccin-mocha
// and gruvbox-dark.
func Names() []string {
	return []string{Auto, Dark, Light, HighContrast, Mono, CatppuccinMocha, GruvboxDark}
}

// Get returns the built-in theme called name. "auto" is resolved for a dark
// background, lipgloss's assumption when the background is unknown; use
// Resolve to pick by the real background.
func Get(name string) (Theme, error) {
	if name == Auto {
		t, err := Get(Dark)
		t.Name = Auto
		return t, err
	}
	p, ok := builtins()[name]
	if !ok {
		return Theme{}, fmt.Errorf("%w %q (built-in themes: %s)", ErrUnknownTheme, name, strings.Join(Names(), ", "))
	}
	t, err := p.theme(name)
	if err != nil {
		// A built-in palette with a bad colour is a bug in this package.
		panic(fmt.Sprintf("themes: built-in %s: %v", name, err))
	}
	return t, nil
}

// Resolve returns the theme to use.
//
// name is a built-in name, the name of one of the custom themes, or the path
// of a theme file ending in ".toml"; empty means "auto". "auto" becomes
// "dark" or "light" by darkBackground. With noColor (NO_COLOR is set) the
// result is the mono theme, once name has been checked.
func Resolve(name string, noColor, darkBackground bool, custom ...Theme) (Theme, error) {
	if name == "" {
		name = Auto
	}
	var (
		t   Theme
		err error
	)
	switch i := slices.IndexFunc(custom, func(c Theme) bool { return c.Name == name }); {
	case i >= 0:
		t = custom[i]
	case name == Auto:
		if darkBackground {
			t, err = Get(Dark)
		} else {
			t, err = Get(Light)
		}
	case strings.HasSuffix(name, ".toml"):
		t, err = LoadFile(name)
	default:
		t, err = Get(name)
	}
	if err != nil {
		return Theme{}, fmt.Errorf("resolve theme: %w", err)
	}
	if noColor {
		return Get(Mono)
	}
	return t, nil
}

// parseColor parses a theme colour: "#rgb", "#rrggbb", an ANSI index
// "0"–"255" (which follows the terminal's palette), or "none"/"" for the
// terminal's default.
func parseColor(s string) (color.Color, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "" || strings.EqualFold(s, "none"):
		return lipgloss.NoColor{}, nil
	case strings.HasPrefix(s, "#"):
		hex := s[1:]
		if len(hex) != 3 && len(hex) != 6 {
			return nil, fmt.Errorf("%w %q: want #rgb or #rrggbb", ErrBadColor, s)
		}
		if _, err := strconv.ParseUint(hex, 16, 32); err != nil {
			return nil, fmt.Errorf("%w %q: not hexadecimal", ErrBadColor, s)
		}
		return lipgloss.Color(s), nil
	default:
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || n > 255 {
			return nil, fmt.Errorf("%w %q: want #rgb, #rrggbb, 0-255 or none", ErrBadColor, s)
		}
		return lipgloss.Color(s), nil
	}
}
