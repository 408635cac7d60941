package tui

import (
	"charm.land/bubbles/v2/key"
)

// DefaultPrefix is the key that reaches hooksup instead of claude. Claude Code binds Ctrl-B,
// Ctrl-G, Ctrl-O, Ctrl-R, Ctrl-T and the readline keys; Ctrl-] is free (it is telnet's escape).
const DefaultPrefix = "ctrl+]"

// keyMap is hooksup's own bindings, pressed after the prefix key. Data, with help text.
type keyMap struct {
	Prefix   key.Binding
	Approve  key.Binding
	Deny     key.Binding
	Edit     key.Binding
	Halt     key.Binding
	Focus    key.Binding
	FocusBk  key.Binding
	Zoom     key.Binding
	Up       key.Binding
	Down     key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	Open     key.Binding
	Help     key.Binding
	Quit     key.Binding
}

// newKeyMap builds the bindings with prefix as the prefix key and overrides (action → key)
// from the config's [keys.bindings].
func newKeyMap(prefix string, overrides map[string]string) keyMap {
	if prefix == "" {
		prefix = DefaultPrefix
	}
	k := keyMap{
		Prefix:   key.NewBinding(key.WithKeys(prefix), key.WithHelp(prefix, "hooksup command (twice: send it to claude)")),
		Approve:  key.NewBinding(key.WithKeys("a", "y"), key.WithHelp("a", "approve: claude continues")),
		Deny:     key.NewBinding(key.WithKeys("d", "n"), key.WithHelp("d", "deny: claude may stop")),
		Edit:     key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "edit the reason, then continue")),
		Halt:     key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "halt: end the turn now")),
		Focus:    key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "focus the next pane")),
		FocusBk:  key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "focus the previous pane")),
		Zoom:     key.NewBinding(key.WithKeys("z"), key.WithHelp("z", "zoom the claude pane")),
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "scroll up / previous")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "scroll down / next")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "u"), key.WithHelp("pgup/u", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "space"), key.WithHelp("pgdn", "page down")),
		Open:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open / close the selected verdict")),
		Help:     key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "this help")),
		Quit:     key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit (ends claude)")),
	}
	byName := map[string]*key.Binding{
		"approve": &k.Approve, "deny": &k.Deny, "edit": &k.Edit, "halt": &k.Halt, "focus": &k.Focus,
		"zoom": &k.Zoom, "help": &k.Help, "quit": &k.Quit, "open": &k.Open,
	}
	for action, keys := range overrides {
		if b, ok := byName[action]; ok && keys != "" {
			h := b.Help()
			b.SetKeys(keys)
			b.SetHelp(keys, h.Desc)
		}
	}
	return k
}

// help lists the bindings for the help overlay.
func (k keyMap) help() []key.Binding {
	return []key.Binding{k.Approve, k.Deny, k.Edit, k.Halt, k.Focus, k.Zoom, k.Up, k.Down, k.PageUp, k.PageDown, k.Open, k.Help, k.Quit}
}
