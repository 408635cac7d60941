package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"

	"github.com/hooksup/hooksup/internal/keymap"
	"github.com/hooksup/hooksup/internal/present"
)

// DefaultPrefix is the key that reaches hooksup instead of claude.
const DefaultPrefix = keymap.DefaultPrefix

// keyMap is hooksup's own bindings, built from internal/keymap's actions with the config's
// bindings applied: every hint the TUI shows is drawn from it. Each scope is its own value.
type keyMap struct {
	agent   string // the agent's name, for the help
	Prefix  key.Binding
	Command commandKeys
	Pane    navKeys
	Editor  editorKeys
}

// commandKeys are read after the prefix key.
type commandKeys struct {
	Approve, Deny, Always, Edit, Halt, Focus, FocusBk, Zoom, Help, Quit key.Binding
}

// navKeys are the keys a focused pane reads (claude's pane after the prefix); each pane
// decides what they do there.
type navKeys struct {
	Up, Down, PageUp, PageDown, Open key.Binding
}

// editorKeys are read while the reason is edited.
type editorKeys struct {
	Send, Newline, Clear, Cancel key.Binding
}

// newKeyMap turns resolved bindings into key bindings; the help of each is its keys as shown
// and the action's hint.
func newKeyMap(km keymap.Map) keyMap { return newAgentKeyMap(km, "") }

// newAgentKeyMap is newKeyMap for the agent named agent: the help names it.
func newAgentKeyMap(km keymap.Map, agent string) keyMap {
	agent = present.AgentName(agent)
	b := func(name string) key.Binding {
		a, _ := keymap.Lookup(name)
		keys := km.Keys(name)
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(displayKeys(keys), a.Hint))
	}
	return keyMap{
		agent:  agent,
		Prefix: key.NewBinding(key.WithKeys(km.Prefix), key.WithHelp(keymap.Display(km.Prefix), "hooksup command (twice: send it to "+agent+")")),
		Command: commandKeys{
			Approve: b(keymap.Approve), Deny: b(keymap.Deny), Always: b(keymap.Always), Edit: b(keymap.Edit), Halt: b(keymap.Halt),
			Focus: b(keymap.Focus), FocusBk: b(keymap.FocusBk), Zoom: b(keymap.Zoom), Help: b(keymap.Help), Quit: b(keymap.Quit),
		},
		Pane: navKeys{
			Up: b(keymap.Up), Down: b(keymap.Down), PageUp: b(keymap.PageUp), PageDown: b(keymap.PageDown), Open: b(keymap.Open),
		},
		Editor: editorKeys{Send: b(keymap.Send), Newline: b(keymap.Newline), Clear: b(keymap.Clear), Cancel: b(keymap.Cancel)},
	}
}

// defaultKeyMap is the keymap without configuration.
func defaultKeyMap() keyMap {
	km, _ := keymap.Resolve("", nil)
	return newKeyMap(km)
}

func displayKeys(keys []string) string {
	shown := make([]string, len(keys))
	for i, k := range keys {
		shown[i] = keymap.Display(k)
	}
	return strings.Join(shown, "/")
}

// helpSection is one group of the help overlay: where its keys are read, and its lines.
type helpSection struct {
	title string
	lines []helpLine
}

// helpLine is one or more bindings (their keys shown together) and what they do.
type helpLine struct {
	bindings []key.Binding
	text     string
}

func (l helpLine) keys() string {
	ks := make([]string, len(l.bindings))
	for i, b := range l.bindings {
		ks[i] = b.Help().Key
	}
	return strings.Join(ks, " · ")
}

// sections lists every binding for the help overlay, grouped by where it is read. Opposite
// actions share a line.
func (k keyMap) sections() []helpSection {
	line := func(b key.Binding, name string) helpLine {
		a, _ := keymap.Lookup(name)
		return helpLine{[]key.Binding{b}, a.HelpFor(k.agent)}
	}
	pair := func(b1, b2 key.Binding, text string) helpLine { return helpLine{[]key.Binding{b1, b2}, text} }
	c, p, e := k.Command, k.Pane, k.Editor
	return []helpSection{
		{"after " + k.Prefix.Help().Key + ":", []helpLine{
			line(c.Approve, keymap.Approve), line(c.Deny, keymap.Deny), line(c.Always, keymap.Always), line(c.Edit, keymap.Edit), line(c.Halt, keymap.Halt),
			pair(c.Focus, c.FocusBk, "focus the next / the previous pane"), line(c.Zoom, keymap.Zoom), line(c.Help, keymap.Help),
			line(c.Quit, keymap.Quit),
		}},
		{"in a focused pane (" + k.agent + "'s: after " + k.Prefix.Help().Key + "):", []helpLine{
			pair(p.Up, p.Down, "scroll up / down; the previous / next verdict"), pair(p.PageUp, p.PageDown, "a page up / down"),
			line(p.Open, keymap.Open),
		}},
		{"while editing the reason:", []helpLine{line(e.Send, keymap.Send), line(e.Newline, keymap.Newline), line(e.Clear, keymap.Clear),
			line(e.Cancel, keymap.Cancel)}},
	}
}

// hintText is a binding's hint as plain text: its keys and a few words.
func hintText(b key.Binding) string {
	h := b.Help()
	return h.Key + " " + h.Desc
}

// hintLine joins the hints of bindings with sep, as plain text.
func hintLine(sep string, bs ...key.Binding) string {
	items := make([]string, len(bs))
	for i, b := range bs {
		items[i] = hintText(b)
	}
	return strings.Join(items, sep)
}
