package themes

import (
	"errors"
	"image/color"
	"maps"
	"path/filepath"
	"slices"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

func TestBuiltinsDefineEverySlot(t *testing.T) {
	slots := Slots()
	for name, p := range builtins() {
		if got := slices.Sorted(maps.Keys(p.colors)); !slices.Equal(got, slices.Sorted(slices.Values(slots))) {
			t.Errorf("%s: palette keys %v, want exactly the slots %v", name, got, slots)
		}
	}
	for _, name := range Names() {
		th, err := Get(name)
		if err != nil {
			t.Fatalf("Get(%q): %v", name, err)
		}
		if th.Name != name {
			t.Errorf("Get(%q).Name = %q", name, th.Name)
		}
		if missing := th.missing(); len(missing) > 0 {
			t.Errorf("%s leaves slots unset: %v", name, missing)
		}
		for _, slot := range slots {
			c, ok := th.Color(slot)
			switch {
			case !ok || c == nil:
				t.Errorf("%s: slot %s unset", name, slot)
			case name == Mono && c != (lipgloss.NoColor{}):
				t.Errorf("mono: slot %s has colour %v", slot, c)
			case name != Mono && c == (lipgloss.NoColor{}):
				t.Errorf("%s: slot %s has no colour", name, slot)
			}
		}
	}
}

func TestNamesAreAllGettable(t *testing.T) {
	names := Names()
	if names[0] != Auto {
		t.Errorf("Names()[0] = %q, want auto first", names[0])
	}
	for n := range builtins() {
		if !slices.Contains(names, n) {
			t.Errorf("built-in %q missing from Names()", n)
		}
	}
	if _, err := Get("solarized-neon"); !errors.Is(err, ErrUnknownTheme) {
		t.Errorf("Get(unknown) error = %v, want ErrUnknownTheme", err)
	}
}

func TestColorUnknownSlot(t *testing.T) {
	th, _ := Get(Dark)
	if _, ok := th.Color("nope"); ok {
		t.Error("Color(nope) ok")
	}
}

func TestResolve(t *testing.T) {
	custom, err := Load("ocean.toml", []byte(`base = "dark"`+"\n"+`accent = "#00aaff"`))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "sunset.toml")
	writeFile(t, file, "base = \"light\"\nblock = \"#ff0000\"\n")

	tests := []struct {
		name            string
		noColor, darkBG bool
		want            string
		err             error
	}{
		{"", false, true, Dark, nil},
		{"", false, false, Light, nil},
		{Auto, false, true, Dark, nil},
		{Auto, false, false, Light, nil},
		{GruvboxDark, false, false, GruvboxDark, nil},
		{CatppuccinMocha, true, true, Mono, nil},
		{Auto, true, false, Mono, nil},
		{"ocean", false, true, "ocean", nil},
		{"ocean", true, true, Mono, nil},
		{file, false, true, "sunset", nil},
		{"nope", false, true, "", ErrUnknownTheme},
		{"nope", true, true, "", ErrUnknownTheme}, // a bad name is reported even with NO_COLOR
	}
	for _, tt := range tests {
		got, err := Resolve(tt.name, tt.noColor, tt.darkBG, custom)
		if tt.err != nil {
			if !errors.Is(err, tt.err) {
				t.Errorf("Resolve(%q, %v, %v) error = %v, want %v", tt.name, tt.noColor, tt.darkBG, err, tt.err)
			}
			continue
		}
		if err != nil || got.Name != tt.want {
			t.Errorf("Resolve(%q, %v, %v) = %q, %v; want %q", tt.name, tt.noColor, tt.darkBG, got.Name, err, tt.want)
		}
	}
}

func TestParseColor(t *testing.T) {
	tests := []struct {
		in   string
		want color.Color
		err  bool
	}{
		{"#ff8800", color.RGBA{0xff, 0x88, 0x00, 0xff}, false},
		{"#F80", color.RGBA{0xff, 0x88, 0x00, 0xff}, false},
		{"1", ansi.BasicColor(1), false},
		{"15", ansi.BasicColor(15), false},
		{"208", ansi.IndexedColor(208), false},
		{"none", lipgloss.NoColor{}, false},
		{"", lipgloss.NoColor{}, false},
		{"#ff880", nil, true},
		{"#gg0000", nil, true},
		{"256", nil, true},
		{"-1", nil, true},
		{"red", nil, true},
	}
	for _, tt := range tests {
		got, err := parseColor(tt.in)
		if tt.err {
			if !errors.Is(err, ErrBadColor) {
				t.Errorf("parseColor(%q) error = %v, want ErrBadColor", tt.in, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("parseColor(%q) = %#v, %v; want %#v", tt.in, got, err, tt.want)
		}
	}
}
