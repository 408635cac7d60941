package keymap

import (
	"slices"
	"strings"
	"testing"
)

func TestParseKey(t *testing.T) {
	for _, c := range []struct{ in, want, err string }{
		{in: "y", want: "y"},
		{in: "Y", want: "Y"},
		{in: "?", want: "?"},
		{in: "ctrl+]", want: "ctrl+]"},
		{in: "Ctrl+G", err: `write "ctrl+g"`},
		{in: "ctrl+g", want: "ctrl+g"},
		{in: "control+g", want: "ctrl+g"},
		{in: "shift+ctrl+a", want: "ctrl+shift+a"},
		{in: "alt+enter", want: "alt+enter"},
		{in: "alt+Return", want: "alt+enter"},
		{in: "pgdn", want: "pgdown"},
		{in: "escape", want: "esc"},
		{in: "space", want: "space"},
		{in: " ", want: "space"},
		{in: "+", want: "+"},
		{in: "ctrl++", want: "ctrl++"},
		{in: "f12", want: "f12"},
		{in: "shift+tab", want: "shift+tab"},
		{in: "shift+a", err: "never matches"},
		{in: "", err: "no key given"},
		{in: "yy", err: `"yy" is not a key`},
		{in: "cmd+k", err: `"cmd" is not a modifier`},
		{in: "ctrl+ctrl+a", err: "ctrl twice"},
		{in: "ctrl+", err: "is not a key"},
	} {
		got, err := ParseKey(c.in)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("ParseKey(%q) = %q, %v; want an error with %q", c.in, got, err, c.err)
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("ParseKey(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

// Every default key is written as ParseKey writes it, and the defaults resolve cleanly.
func TestDefaultsAreCanonical(t *testing.T) {
	m, err := Resolve("", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range Actions() {
		for _, k := range a.Keys {
			if p, err := ParseKey(k); err != nil || p != k {
				t.Errorf("%s: default key %q parses as %q, %v", a.Name, k, p, err)
			}
		}
		if !slices.Equal(m.Keys(a.Name), a.Keys) {
			t.Errorf("%s: %v, want the defaults %v", a.Name, m.Keys(a.Name), a.Keys)
		}
	}
	if m.Prefix != DefaultPrefix {
		t.Errorf("prefix %q", m.Prefix)
	}
}

func TestResolve(t *testing.T) {
	m, err := Resolve("ctrl+b", map[string]string{Approve: "y", Deny: "n", Cancel: "ctrl+g"})
	if err != nil {
		t.Fatal(err)
	}
	// A binding replaces the defaults: "a" no longer approves.
	if got := m.Keys(Approve); !slices.Equal(got, []string{"y"}) {
		t.Errorf("approve %v", got)
	}
	if got := m.Keys(Deny); !slices.Equal(got, []string{"n"}) {
		t.Errorf("deny %v", got)
	}
	if got := m.Keys(Edit); !slices.Equal(got, []string{"e"}) {
		t.Errorf("edit %v (unbound actions keep their defaults)", got)
	}
	if m.Prefix != "ctrl+b" {
		t.Errorf("prefix %q", m.Prefix)
	}

	for _, c := range []struct {
		prefix   string
		bindings map[string]string
		name     string
		err      string
	}{
		{"", map[string]string{"aprove": "y"}, "aprove", `no such action (did you mean "approve"?)`},
		{"", map[string]string{"frobnicate": "y"}, "frobnicate", "the actions are approve, deny"},
		{"", map[string]string{Approve: "yes"}, Approve, `"yes" is not a key`},
		{"", map[string]string{Approve: "esc"}, Approve, "Escape always interrupts the agent"},
		{"", map[string]string{Approve: "d"}, Approve, `"d" is also the key of deny (after the prefix)`},
		{"", map[string]string{Deny: "a"}, Deny, `"a" is also the key of approve`},
		{"", map[string]string{Zoom: "ctrl+]"}, Zoom, "also the key of prefix"},
		{"ctrl+b", map[string]string{Up: "ctrl+b"}, Up, "also the key of prefix"},
		{"", map[string]string{Cancel: "q"}, Cancel, "could no longer be typed"},
		{"a", nil, "prefix", `"a" is also the key of approve`},
		{"hyper+", nil, "prefix", "is not a key"},
		{"escape", nil, "prefix", "Escape always interrupts the agent"},
	} {
		_, err := Resolve(c.prefix, c.bindings)
		var ke *Error
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("Resolve(%q, %v) = %v; want an error with %q", c.prefix, c.bindings, err, c.err)
			continue
		}
		if ke, _ = err.(*Error); ke == nil || ke.Name != c.name {
			t.Errorf("Resolve(%q, %v) = %#v; want it to name %q", c.prefix, c.bindings, err, c.name)
		}
	}
	// A pane key may be a command key: commands are read after the prefix, pane keys without.
	if _, err := Resolve("", map[string]string{Up: "a"}); err != nil {
		t.Errorf("a pane key equal to a command key: %v", err)
	}
}
