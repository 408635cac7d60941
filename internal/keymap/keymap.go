// Package keymap is hooksup's key bindings as data: every action a person can rebind in
// `[keys] bindings`, its default key, its hint and its help, and the syntax of a key.
//
// It imports no UI package, so the configuration (which validates `[keys]` where it knows the
// file and the line) and the TUI (which turns the actions into bubbles key bindings and draws
// every hint from them) share one list. Key names are those Bubble Tea v2 reports for a key
// press: "a", "?", "ctrl+]", "alt+enter", "pgdown".
package keymap

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/hooksup/hooksup/internal/suggest"
)

// DefaultPrefix is the key that reaches hooksup instead of claude. Claude Code binds Ctrl-B,
// Ctrl-G, Ctrl-O, Ctrl-R, Ctrl-T and the readline keys; Ctrl-] is free (it is telnet's escape).
const DefaultPrefix = "ctrl+]"

// Escape is the key that always interrupts claude. It cannot be bound to anything else.
const Escape = "esc"

// Scope is where an action's key is read.
type Scope int

const (
	// Command keys are read after the prefix key.
	Command Scope = iota
	// Pane keys move within the focused side pane (without the prefix), or within claude's
	// scrollback after the prefix.
	Pane
	// Editor keys are read while the person edits the reason claude will read.
	Editor
)

func (s Scope) String() string {
	return [...]string{"after the prefix", "in a focused pane", "in the reason editor"}[s]
}

// Action is one rebindable action.
type Action struct {
	Name  string   // its key in [keys] bindings
	Scope Scope    // where its keys are read
	Keys  []string // its default keys; a binding in the config replaces them all
	Hint  string   // a few words for the status line and the decision banner
	Help  string   // a sentence for the help overlay
}

// The actions, in the order the help lists them.
const (
	Approve  = "approve"
	Deny     = "deny"
	Always   = "always"
	Edit     = "edit"
	Halt     = "halt"
	Focus    = "focus"
	FocusBk  = "focus_previous"
	Zoom     = "zoom"
	Help     = "help"
	Quit     = "quit"
	Up       = "up"
	Down     = "down"
	PageUp   = "page_up"
	PageDown = "page_down"
	Open     = "open"
	Send     = "send"
	Newline  = "newline"
	Clear    = "clear"
	Cancel   = "cancel"
)

// Agent stands for the supervised agent in an action's Help: the TUI says the session's agent's
// name in its place (Action.HelpFor).
const Agent = "the agent"

// HelpFor is a's Help naming the agent agent.
func (a Action) HelpFor(agent string) string { return strings.ReplaceAll(a.Help, Agent, agent) }

var actions = []Action{
	{Approve, Command, []string{"a"}, "continue", "approve the forced continuation: " + Agent + " continues"},
	{Deny, Command, []string{"d"}, "let it stop", "deny it: " + Agent + " may stop"},
	{Always, Command, []string{"A"}, "always…", "in hooksup watch: allow " + Agent + "'s permission from now on, by the rule it offers (shown first; press again to confirm)"},
	{Edit, Command, []string{"e"}, "edit reason", "edit the reason " + Agent + " will read, then continue"},
	{Halt, Command, []string{"x"}, "halt", "halt: end the turn now"},
	{Focus, Command, []string{"tab"}, "next pane", "focus the next pane"},
	{FocusBk, Command, []string{"shift+tab"}, "previous pane", "focus the previous pane"},
	{Zoom, Command, []string{"z"}, "zoom", "zoom " + Agent + "'s pane"},
	{Help, Command, []string{"?"}, "help", "show or hide this help"},
	{Quit, Command, []string{"q"}, "quit", "quit: ends " + Agent},
	{Up, Pane, []string{"up", "k"}, "up", "scroll up / the previous verdict"},
	{Down, Pane, []string{"down", "j"}, "down", "scroll down / the next verdict"},
	{PageUp, Pane, []string{"pgup", "u"}, "page up", "a page up"},
	{PageDown, Pane, []string{"pgdown", "space"}, "page down", "a page down"},
	{Open, Pane, []string{"enter"}, "open", "open or close the selected verdict"},
	{Send, Editor, []string{"enter"}, "send", "send the reason: " + Agent + " continues with it"},
	{Newline, Editor, []string{"ctrl+j", "alt+enter", "shift+enter"}, "new line", "start a new line"},
	// Ctrl-L is "clear" in shells and readline. It is 0x0c, which no terminal, tmux, screen or tty
	// line discipline keeps for itself (unlike Ctrl-S, Ctrl-Q, Ctrl-Z), and it is none of the
	// editor's own keys (Ctrl-U and Ctrl-K delete to the line's start and end).
	{Clear, Editor, []string{"ctrl+l"}, "clear", "clear the whole reason, to write another"},
	{Cancel, Editor, []string{"ctrl+c"}, "cancel edit", "cancel the edit; the question stays open"},
}

// Actions lists every action with its default keys.
func Actions() []Action {
	out := make([]Action, len(actions))
	for i, a := range actions {
		a.Keys = slices.Clone(a.Keys)
		out[i] = a
	}
	return out
}

// Lookup finds an action by its name.
func Lookup(name string) (Action, bool) {
	for _, a := range actions {
		if a.Name == name {
			a.Keys = slices.Clone(a.Keys)
			return a, true
		}
	}
	return Action{}, false
}

// Names lists the action names, in the order of the help.
func Names() []string {
	out := make([]string, len(actions))
	for i, a := range actions {
		out[i] = a.Name
	}
	return out
}

// Error is a problem with one binding: Name is "prefix" or an action's name. When two bindings
// share a key, Other is the second one.
type Error struct {
	Name  string
	Msg   string
	Other string
	key   string
	scope Scope
}

func (e *Error) Error() string { return e.Name + ": " + e.Msg }

// Flip is a clash of two bindings told from the other one's side (nil for other errors).
func (e *Error) Flip() *Error {
	if e.Other == "" {
		return nil
	}
	return clash(e.Other, e.Name, e.key, e.scope)
}

func clash(name, other, key string, scope Scope) *Error {
	return &Error{Name: name, Other: other, key: key, scope: scope,
		Msg: fmt.Sprintf("%q is also the key of %s (%s); give one of them another key", key, other, scope)}
}

// Map is the effective key of every action: the defaults with the config's bindings over them.
type Map struct {
	Prefix string
	keys   map[string][]string
}

// Keys returns the keys of an action.
func (m Map) Keys(name string) []string { return slices.Clone(m.keys[name]) }

// Resolve applies bindings (action name → key) and a prefix ("" keeps the default) over the
// defaults and checks the result: every name is an action, every key parses, Escape is never
// taken, and no two actions read in the same place share a key. A binding replaces the action's
// default keys.
func Resolve(prefix string, bindings map[string]string) (Map, error) {
	m, err := apply(prefix, bindings)
	if err != nil {
		return m, err
	}
	return m, m.conflicts(bindings)
}

// Check checks what one config file says on its own: every name is an action and every key
// parses. (Whether two actions share a key is known only once the files are merged: Resolve.)
func Check(prefix string, bindings map[string]string) error {
	_, err := apply(prefix, bindings)
	return err
}

func apply(prefix string, bindings map[string]string) (Map, error) {
	m := Map{Prefix: DefaultPrefix, keys: map[string][]string{}}
	if prefix != "" {
		p, err := ParseKey(prefix)
		if err != nil {
			return m, &Error{Name: "prefix", Msg: err.Error()}
		}
		if p == Escape {
			return m, &Error{Name: "prefix", Msg: "Escape always interrupts " + Agent + "; choose another prefix"}
		}
		m.Prefix = p
	}
	for _, a := range actions {
		m.keys[a.Name] = slices.Clone(a.Keys)
	}
	names := make([]string, 0, len(bindings))
	for n := range bindings {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		a, ok := Lookup(n)
		if !ok {
			return m, &Error{Name: n, Msg: "no such action" + didYouMean(n) + "; the actions are " + strings.Join(Names(), ", ")}
		}
		k, err := ParseKey(bindings[n])
		if err != nil {
			return m, &Error{Name: n, Msg: err.Error()}
		}
		if k == Escape {
			return m, &Error{Name: n, Msg: "Escape always interrupts " + Agent + "; it cannot be bound"}
		}
		if a.Scope == Editor && isPrintable(k) {
			return m, &Error{Name: n, Msg: fmt.Sprintf("%q could no longer be typed into the reason; bind a key with ctrl or alt", k)}
		}
		m.keys[n] = []string{k}
	}
	return m, nil
}

// conflicts reports two actions of one scope on the same key, and a command or pane key that is
// the prefix (the prefix is read first, so such an action could never be reached). It names the
// action the bindings set, where the person can change it.
func (m Map) conflicts(bindings map[string]string) error {
	for _, scope := range []Scope{Command, Pane, Editor} {
		owner := map[string]string{}
		if scope != Editor {
			owner[m.Prefix] = "prefix"
		}
		for _, a := range actions {
			if a.Scope != scope {
				continue
			}
			for _, k := range m.keys[a.Name] {
				if o, ok := owner[k]; ok {
					name, other := a.Name, o
					if _, set := bindings[a.Name]; !set {
						name, other = o, a.Name
					}
					return clash(name, other, k, scope)
				}
				owner[k] = a.Name
			}
		}
	}
	return nil
}

// didYouMean names the action a misspelt name most likely meant.
func didYouMean(name string) string {
	if best := suggest.Closest(name, Names()); best != "" {
		return fmt.Sprintf(" (did you mean %q?)", best)
	}
	return ""
}

// modifiers in the order Bubble Tea writes them.
var modifiers = []string{"ctrl", "alt", "shift", "meta", "hyper", "super"}

// named are the keys Bubble Tea reports by name: made when a key is first parsed, not at the
// start of every program that links the configuration (the hook client among them).
var named = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, n := range []string{"enter", "tab", "backspace", "esc", "space", "up", "down", "left", "right",
		"home", "end", "pgup", "pgdown", "insert", "delete", "begin", "find", "select"} {
		m[n] = true
	}
	for i := 1; i <= 24; i++ {
		m[fmt.Sprintf("f%d", i)] = true
	}
	return m
})

// aliases are spellings people write for a named key.
var aliases = map[string]string{
	"escape": "esc", "return": "enter", "pagedown": "pgdown", "pgdn": "pgdown", "pageup": "pgup",
	"del": "delete", "ins": "insert", "bs": "backspace", " ": "space",
}

// errKeySyntax says how a key is written.
const keySyntax = `write one character ("y", "?"), a key's name (enter, tab, space, up, pgdown, f1 …), ` +
	`or modifiers before either ("ctrl+g", "alt+enter")`

// ParseKey checks a key as written in the config and returns it as Bubble Tea names it when
// it is pressed, so that it matches: modifiers lower-case and in Bubble Tea's order, names
// canonical ("escape" → "esc", "pgdn" → "pgdown").
func ParseKey(s string) (string, error) {
	if s == "" {
		return "", fmt.Errorf("no key given: %s", keySyntax)
	}
	if s == " " {
		return "space", nil
	}
	parts := strings.Split(s, "+")
	base := parts[len(parts)-1]
	mods := parts[:len(parts)-1]
	if base == "" && len(parts) >= 2 && parts[len(parts)-2] == "" { // "ctrl++": the plus key
		base, mods = "+", parts[:len(parts)-2]
	}
	have := map[string]bool{}
	for _, md := range mods {
		md = strings.ToLower(md)
		if md == "control" {
			md = "ctrl"
		}
		if !slices.Contains(modifiers, md) {
			return "", fmt.Errorf("%q is not a key: %q is not a modifier (ctrl, alt, shift, meta, hyper, super); %s", s, md, keySyntax)
		}
		if have[md] {
			return "", fmt.Errorf("%q is not a key: %s twice", s, md)
		}
		have[md] = true
	}
	var b strings.Builder
	for _, md := range modifiers {
		if have[md] {
			b.WriteString(md + "+")
		}
	}
	runes := []rune(base)
	switch {
	case len(runes) == 1 && runes[0] > ' ' && runes[0] != 0x7f:
		r := runes[0]
		if len(mods) == 0 {
			return base, nil
		}
		if have["shift"] && len(mods) == 1 {
			return "", fmt.Errorf("%q never matches: a shifted character arrives as the character it types; write it (e.g. \"A\", \"?\")", s)
		}
		if r >= 'A' && r <= 'Z' {
			return "", fmt.Errorf("%q never matches: with ctrl or alt a letter arrives lower-case; write %q", s, b.String()+strings.ToLower(base))
		}
		b.WriteRune(r)
	default:
		name := strings.ToLower(base)
		if a, ok := aliases[name]; ok {
			name = a
		}
		if !named()[name] {
			return "", fmt.Errorf("%q is not a key: %s", s, keySyntax)
		}
		b.WriteString(name)
	}
	return b.String(), nil
}

// isPrintable reports a key that types a character.
func isPrintable(k string) bool { return len([]rune(k)) == 1 || k == "space" }

// Display is how a hint shows a key: arrows as arrows, the rest as written in the config.
func Display(k string) string {
	switch k {
	case "up":
		return "↑"
	case "down":
		return "↓"
	case "left":
		return "←"
	case "right":
		return "→"
	case "pgdown":
		return "pgdn"
	}
	return k
}
