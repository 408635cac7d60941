package themes

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// render writes s through a colour profile writer pinned to p, as `hooksup
// themes` writes through one detected from the terminal.
func render(t *testing.T, s string, p colorprofile.Profile) string {
	t.Helper()
	var buf bytes.Buffer
	w := &colorprofile.Writer{Forward: &buf, Profile: p}
	if _, err := w.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (run with -update to create it): %v", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file; run with -update if the change is intended.\n got:\n%s\nwant:\n%s",
			name, ansi.Strip(got), ansi.Strip(string(want)))
	}
}

func TestPreviewGolden(t *testing.T) {
	for _, name := range Names() {
		th, err := Get(name)
		if err != nil {
			t.Fatal(err)
		}
		golden(t, "preview-"+name+".truecolor.golden", render(t, Preview(th), colorprofile.TrueColor))
	}
	dark, _ := Get(Dark)
	golden(t, "preview-dark.ansi256.golden", render(t, Preview(dark), colorprofile.ANSI256))
	golden(t, "preview-dark.ansi.golden", render(t, Preview(dark), colorprofile.ANSI))
	// NO_COLOR: mono, written for a terminal without colour.
	mono, err := Resolve(Dark, true, true)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "preview-nocolor.ascii.golden", render(t, Preview(mono), colorprofile.ASCII))
}

// The preview's layout does not depend on the theme: below the header
// every line has the same width whatever the colours.
func TestPreviewLayoutIsThemeIndependent(t *testing.T) {
	var ref []int
	for _, name := range Names() {
		th, _ := Get(name)
		lines := strings.Split(Preview(th), "\n")[1:]
		widths := make([]int, len(lines))
		for i, l := range lines {
			widths[i] = ansi.StringWidth(l)
		}
		if ref == nil {
			ref = widths
			continue
		}
		if !slices.Equal(widths, ref) {
			t.Errorf("%s: line widths %v, want %v", name, widths, ref)
		}
	}
}
