package themes

import "fmt"

// palette is a built-in theme as written: slot name → colour.
type palette struct {
	dark   bool
	colors map[string]string
}

// theme parses the palette into a Theme.
func (p palette) theme(name string) (Theme, error) {
	t := Theme{Name: name, Dark: p.dark}
	for _, s := range slotTable {
		v, ok := p.colors[s.name]
		if !ok {
			return Theme{}, fmt.Errorf("%w: %s", ErrMissingSlots, s.name)
		}
		c, err := parseColor(v)
		if err != nil {
			return Theme{}, fmt.Errorf("slot %s: %w", s.name, err)
		}
		*s.field(&t) = c
	}
	return t, nil
}

// builtins returns the built-in palettes by name ("auto" is not one: it
// picks dark or light).
func builtins() map[string]palette {
	return map[string]palette{
		Dark: {dark: true, colors: map[string]string{
			"muted": "#8b8b94", "title": "#f4f4f5", "accent": "#7aa2f7",
			"border": "#3f3f46", "border_focus": "#7aa2f7",
			"selection": "#2e3a59", "selection_text": "#f4f4f5",
			"status_bar": "#27272a", "status_bar_text": "#d4d4d8", "error": "#f87171",
			"allow": "#4ade80", "block": "#f87171", "halt": "#c084fc", "warn": "#facc15", "pending": "#fb923c",
			"working": "#60a5fa", "idle": "#a1a1aa", "permission": "#f472b6", "stopped": "#71717a",
			"check_running": "#60a5fa", "check_pass": "#4ade80", "check_fail": "#f87171",
		}},
		Light: {dark: false, colors: map[string]string{
			"muted": "#71717a", "title": "#18181b", "accent": "#2563eb",
			"border": "#d4d4d8", "border_focus": "#2563eb",
			"selection": "#dbeafe", "selection_text": "#18181b",
			"status_bar": "#e4e4e7", "status_bar_text": "#27272a", "error": "#dc2626",
			"allow": "#16a34a", "block": "#dc2626", "halt": "#9333ea", "warn": "#a16207", "pending": "#ea580c",
			"working": "#2563eb", "idle": "#52525b", "permission": "#db2777", "stopped": "#a1a1aa",
			"check_running": "#2563eb", "check_pass": "#16a34a", "check_fail": "#dc2626",
		}},
		// High contrast, for dark backgrounds: pure white text, saturated
		// signal colours, selection and status bar in inverse.
		HighContrast: {dark: true, colors: map[string]string{
			"muted": "#d0d0d0", "title": "#ffffff", "accent": "#00ffff",
			"border": "#ffffff", "border_focus": "#ffff00",
			"selection": "#ffff00", "selection_text": "#000000",
			"status_bar": "#ffffff", "status_bar_text": "#000000", "error": "#ff5f5f",
			"allow": "#00ff00", "block": "#ff3030", "halt": "#ff00ff", "warn": "#ffff00", "pending": "#ff9900",
			"working": "#00ffff", "idle": "#ffffff", "permission": "#ff80ff", "stopped": "#c0c0c0",
			"check_running": "#00ffff", "check_pass": "#00ff00", "check_fail": "#ff3030",
		}},
		// No colour at all: the terminal's default for every slot. Styles
		// tell things apart by bold, faint and reverse video instead.
		Mono: {dark: true, colors: map[string]string{
			"muted": "none", "title": "none", "accent": "none",
			"border": "none", "border_focus": "none",
			"selection": "none", "selection_text": "none",
			"status_bar": "none", "status_bar_text": "none", "error": "none",
			"allow": "none", "block": "none", "halt": "none", "warn": "none", "pending": "none",
			"working": "none", "idle": "none", "permission": "none", "stopped": "none",
			"check_running": "none", "check_pass": "none", "check_fail": "none",
		}},
		// Catppuccin Mocha (https://catppuccin.com/palette): text #cdd6f4,
		// overlay1 #7f849c, lavender #b4befe, mauve #cba6f7, surface1
		// #45475a, surface2 #585b70, mantle #181825, subtext1 #bac2de, red
		// #f38ba8, green #a6e3a1, maroon #eba0ac, yellow #f9e2af, peach
		// #fab387, blue #89b4fa, overlay2 #9399b2, pink #f5c2e7, overlay0
		// #6c7086, sky #89dceb.
		CatppuccinMocha: {dark: true, colors: map[string]string{
			"muted": "#7f849c", "title": "#b4befe", "accent": "#cba6f7",
			"border": "#45475a", "border_focus": "#cba6f7",
			"selection": "#585b70", "selection_text": "#cdd6f4",
			"status_bar": "#181825", "status_bar_text": "#bac2de", "error": "#f38ba8",
			"allow": "#a6e3a1", "block": "#f38ba8", "halt": "#eba0ac", "warn": "#f9e2af", "pending": "#fab387",
			"working": "#89b4fa", "idle": "#9399b2", "permission": "#f5c2e7", "stopped": "#6c7086",
			"check_running": "#89dceb", "check_pass": "#a6e3a1", "check_fail": "#f38ba8",
		}},
		// Gruvbox dark (https://github.com/morhetz/gruvbox): fg #ebdbb2,
		// gray #928374, yellow #fabd2f, aqua #8ec07c, bg2 #504945, bg3
		// #665c54, bg1 #3c3836, fg2 #d5c4a1, red #fb4934, green #b8bb26,
		// purple #d3869b, orange #fe8019, blue #83a598, fg4 #a89984, neutral
		// yellow #d79921.
		GruvboxDark: {dark: true, colors: map[string]string{
			"muted": "#928374", "title": "#fabd2f", "accent": "#8ec07c",
			"border": "#504945", "border_focus": "#8ec07c",
			"selection": "#665c54", "selection_text": "#ebdbb2",
			"status_bar": "#3c3836", "status_bar_text": "#d5c4a1", "error": "#fb4934",
			"allow": "#b8bb26", "block": "#fb4934", "halt": "#d3869b", "warn": "#fabd2f", "pending": "#fe8019",
			"working": "#83a598", "idle": "#a89984", "permission": "#d79921", "stopped": "#928374",
			"check_running": "#83a598", "check_pass": "#b8bb26", "check_fail": "#fb4934",
		}},
	}
}
