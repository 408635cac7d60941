package themes

import (
	"errors"
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/hooksup/hooksup/internal/suggest"
	"github.com/hooksup/hooksup/internal/tomltext"
)

// FileError is a problem in a theme file, at a line (0 when it concerns the
// whole file) and a key (empty for syntax errors).
type FileError struct {
	File string
	Line int
	Key  string
	Err  error
}

// Error formats the error as "file:line: key: problem".
func (e *FileError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Key != "" {
		fmt.Fprintf(&b, "%s: ", e.Key)
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns the underlying error (often ErrUnknownSlot, ErrBadColor,
// ErrUnknownTheme or ErrMissingSlots).
func (e *FileError) Unwrap() error { return e.Err }

// LoadFile reads a theme file. See Load for the format.
func LoadFile(path string) (Theme, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Theme{}, fmt.Errorf("read theme: %w", err)
	}
	return Load(path, data)
}

// LoadDir reads every *.toml file of dir as a theme, in name order. Two
// files defining the same theme name are an error.
func LoadDir(dir string) ([]Theme, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.toml"))
	if err != nil {
		return nil, fmt.Errorf("list themes: %w", err)
	}
	slices.Sort(paths)
	var (
		out  []Theme
		errs []error
		seen = map[string]string{}
	)
	for _, p := range paths {
		t, err := LoadFile(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if prev, dup := seen[t.Name]; dup {
			errs = append(errs, &FileError{File: p, Key: "name",
				Err: fmt.Errorf("theme %q is already defined by %s", t.Name, prev)})
			continue
		}
		seen[t.Name] = p
		out = append(out, t)
	}
	return out, errors.Join(errs...)
}

// Load parses a theme file's content; file names it in errors and, without
// a name key, gives the theme its name (the base name without ".toml").
//
// A theme file sets slots by name, at the top level:
//
//	name = "ocean"     # optional
//	base = "dark"      # optional: a built-in theme to inherit from
//	dark = true        # optional: made for a dark background (default: the base's)
//	border = "#334455" # "#rgb", "#rrggbb", an ANSI index 0-255, or "none"
//	allow = "2"
//
// Without a base every slot (see Slots) must be set. Unknown keys, values of
// the wrong type and invalid colours are errors naming the file, the line
// and the key; all of them are reported, joined.
func Load(file string, data []byte) (Theme, error) {
	var raw map[string]any
	md, err := toml.Decode(string(data), &raw)
	if err != nil {
		fe := &FileError{File: file, Err: err}
		var pe toml.ParseError
		if errors.As(err, &pe) {
			fe.Line, fe.Err = pe.Position.Line, errors.New(pe.Message)
		}
		return Theme{}, fe
	}
	var (
		errs      []error
		overrides = map[string]color.Color{}
		t         Theme
	)
	fail := func(key string, err error) {
		errs = append(errs, &FileError{File: file, Line: tomltext.KeyLine(data, key), Key: key, Err: err})
	}
	name := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	base := ""
	dark, darkSet := false, false
	reported := map[string]bool{}
	for _, k := range md.Keys() {
		key := k[0]
		if len(k) > 1 {
			// Inside a table or a dotted key: report the top-level name once.
			if !reported[key] {
				reported[key] = true
				fail(key, fmt.Errorf("%w (theme files have no tables)", ErrUnknownSlot))
			}
			continue
		}
		if reported[key] {
			continue
		}
		reported[key] = true
		v := raw[key]
		switch {
		case key == "name" || key == "base":
			s, ok := v.(string)
			if !ok {
				fail(key, fmt.Errorf("must be a string, not %s", md.Type(key)))
				continue
			}
			if key == "name" {
				name = s
			} else {
				base = s
			}
		case key == "dark":
			b, ok := v.(bool)
			if !ok {
				fail(key, fmt.Errorf("must be true or false, not %s", md.Type(key)))
				continue
			}
			dark, darkSet = b, true
		case slices.Contains(Slots(), key):
			s, ok := v.(string)
			if !ok {
				fail(key, fmt.Errorf("must be a colour string, not %s", md.Type(key)))
				continue
			}
			c, err := parseColor(s)
			if err != nil {
				fail(key, err)
				continue
			}
			overrides[key] = c
		case retiredSlots[key] != "":
			fail(key, fmt.Errorf("%w (removed: %s)", ErrUnknownSlot, retiredSlots[key]))
		default:
			if hint := suggest.Closest(key, append(Slots(), "name", "base", "dark")); hint != "" {
				fail(key, fmt.Errorf("%w (did you mean %q?)", ErrUnknownSlot, hint))
			} else {
				fail(key, ErrUnknownSlot)
			}
		}
	}

	switch {
	case name == "":
		fail("name", errors.New("must not be empty"))
	case name == Auto || slices.Contains(Names(), name):
		fail("name", fmt.Errorf("%q is the name of a built-in theme", name))
	}
	switch base {
	case "":
	case Auto:
		fail("base", errors.New(`"auto" is not a theme of its own: use "dark" or "light"`))
	default:
		b, err := Get(base)
		if err != nil {
			fail("base", err)
		} else {
			t = b
		}
	}
	if len(errs) > 0 {
		return Theme{}, errors.Join(errs...)
	}

	t.Name = name
	if darkSet {
		t.Dark = dark
	}
	for _, s := range slotTable {
		if c, ok := overrides[s.name]; ok {
			*s.field(&t) = c
		}
	}
	if missing := t.missing(); len(missing) > 0 {
		return Theme{}, &FileError{File: file,
			Err: fmt.Errorf("%w: %s (set them, or inherit with base = \"dark\")", ErrMissingSlots, strings.Join(missing, ", "))}
	}
	return t, nil
}
