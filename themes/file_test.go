package themes

import (
	"errors"
	"image/color"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestLoadInheritsFromBase(t *testing.T) {
	th, err := Load("themes/ocean.toml", []byte(`
# An ocean theme.
base = "light"
border = "#123456"
'allow' = "2"
block = "none"
dark = true
`))
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	light, _ := Get(Light)
	if th.Name != "ocean" {
		t.Errorf("Name = %q, want the file's base name", th.Name)
	}
	if !th.Dark {
		t.Error("dark = true not applied")
	}
	if th.Border != (color.RGBA{0x12, 0x34, 0x56, 0xff}) || th.Allow != ansi.BasicColor(2) || th.Block != (lipgloss.NoColor{}) {
		t.Errorf("overrides not applied: border %v allow %v block %v", th.Border, th.Allow, th.Block)
	}
	if th.Muted != light.Muted || th.Pending != light.Pending {
		t.Error("slots not set in the file must come from the base")
	}
}

func TestLoadCompleteWithoutBase(t *testing.T) {
	var b strings.Builder
	b.WriteString("name = \"flat\"\n")
	for i, s := range Slots() {
		b.WriteString(s + " = \"" + []string{"1", "#abc", "200"}[i%3] + "\"\n")
	}
	th, err := Load("x.toml", []byte(b.String()))
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if th.Name != "flat" || th.Dark {
		t.Errorf("Name %q Dark %v", th.Name, th.Dark)
	}
	if len(th.missing()) != 0 {
		t.Errorf("missing: %v", th.missing())
	}
}

// fileErrors flattens the errors Load joined.
func fileErrors(t *testing.T, err error) []*FileError {
	t.Helper()
	var errs []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	} else {
		errs = []error{err}
	}
	var out []*FileError
	for _, e := range errs {
		var fe *FileError
		if !errors.As(e, &fe) {
			t.Fatalf("error %v is not a *FileError", e)
		}
		out = append(out, fe)
	}
	return out
}

func TestLoadErrors(t *testing.T) {
	type wantErr struct {
		line int
		key  string
		is   error
		text string // substring of the message
	}
	tests := []struct {
		name    string
		content string
		want    []wantErr
	}{
		{"unknown slot with a hint", "base = \"dark\"\n\nbordr = \"#fff\"\n", []wantErr{{3, "bordr", ErrUnknownSlot, `did you mean "border"?`}}},
		{"unknown slot without a hint", "base = \"dark\"\nsparkle = \"#fff\"\n", []wantErr{{2, "sparkle", ErrUnknownSlot, "unknown slot"}}},
		{"bad colour", "base = \"dark\"\nallow = \"#12345\"\n", []wantErr{{2, "allow", ErrBadColor, "#12345"}}},
		{"colour not a string", "base = \"dark\"\n# comment\nallow = 2\n", []wantErr{{3, "allow", nil, "must be a colour string"}}},
		{"several problems, all reported in order", "base = \"dark\"\nallow = \"#zzz\"\n  muted=\"x\"\nfoo = \"#fff\"\n",
			[]wantErr{{2, "allow", ErrBadColor, ""}, {3, "muted", ErrBadColor, ""}, {4, "foo", ErrUnknownSlot, ""}}},
		{"unknown base", "base = \"solarized\"\n", []wantErr{{1, "base", ErrUnknownTheme, "solarized"}}},
		{"base auto", "\nbase = \"auto\"\n", []wantErr{{2, "base", nil, `use "dark" or "light"`}}},
		{"base not a string", "base = 1\n", []wantErr{{1, "base", nil, "must be a string"}}},
		{"dark not a bool", "base = \"dark\"\ndark = \"yes\"\n", []wantErr{{2, "dark", nil, "must be true or false"}}},
		{"name of a built-in", "name = \"mono\"\nbase = \"dark\"\n", []wantErr{{1, "name", nil, "built-in"}}},
		{"table", "base = \"dark\"\n[colors]\nallow = \"#fff\"\n", []wantErr{{2, "colors", ErrUnknownSlot, ""}}},
		{"dotted key", "base = \"dark\"\ncolors.allow = \"#fff\"\n", []wantErr{{2, "colors", ErrUnknownSlot, ""}}},
		{"missing slots without a base", "allow = \"#fff\"\n", []wantErr{{0, "", ErrMissingSlots, "muted, title"}}},
		{"a slot that was retired", "base = \"dark\"\ntext = \"#fff\"\n", []wantErr{{2, "text", ErrUnknownSlot, "unknown slot (removed: ordinary text is drawn in the terminal's own foreground colour; delete the line)"}}},
		{"syntax error", "base = \"dark\"\nallow = \n", []wantErr{{2, "", nil, ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load("my.toml", []byte(tt.content))
			if err == nil {
				t.Fatal("Load succeeded")
			}
			got := fileErrors(t, err)
			if len(got) != len(tt.want) {
				t.Fatalf("got %d errors (%v), want %d", len(got), err, len(tt.want))
			}
			for i, w := range tt.want {
				g := got[i]
				if g.File != "my.toml" || g.Line != w.line || g.Key != w.key {
					t.Errorf("error %d at %s:%d key %q, want my.toml:%d key %q (%v)", i, g.File, g.Line, g.Key, w.line, w.key, g)
				}
				if w.is != nil && !errors.Is(g, w.is) {
					t.Errorf("error %d = %v, want %v", i, g, w.is)
				}
				if !strings.Contains(g.Error(), w.text) {
					t.Errorf("error %d = %q, want it to mention %q", i, g.Error(), w.text)
				}
				if w.line > 0 && !strings.HasPrefix(g.Error(), "my.toml:"+strconv.Itoa(w.line)+": ") {
					t.Errorf("error %d = %q, want it to start with file:line", i, g.Error())
				}
			}
		})
	}
}

func TestLoadFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "dusk.toml")
	writeFile(t, path, "base = \"gruvbox-dark\"\ntitle = \"#ffffff\"\n")
	th, err := LoadFile(path)
	if err != nil || th.Name != "dusk" || th.Title != (color.RGBA{0xff, 0xff, 0xff, 0xff}) {
		t.Fatalf("LoadFile = %+v, %v", th.Name, err)
	}
	if _, err := LoadFile(filepath.Join(dir, "absent.toml")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v, want fs.ErrNotExist", err)
	}
}

func TestLoadDir(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.toml"), "base = \"dark\"\n")
	writeFile(t, filepath.Join(dir, "b.toml"), "name = \"a\"\nbase = \"light\"\n")
	writeFile(t, filepath.Join(dir, "c.toml"), "base = \"light\"\nnope = \"1\"\n")
	writeFile(t, filepath.Join(dir, "d.toml"), "base = \"light\"\n")
	writeFile(t, filepath.Join(dir, "notes.txt"), "not a theme")
	got, err := LoadDir(dir)
	if len(got) != 2 || got[0].Name != "a" || got[1].Name != "d" {
		t.Errorf("themes = %v", got)
	}
	if err == nil || !errors.Is(err, ErrUnknownSlot) || !strings.Contains(err.Error(), "already defined") {
		t.Errorf("LoadDir error = %v, want the duplicate and the unknown slot", err)
	}
}
