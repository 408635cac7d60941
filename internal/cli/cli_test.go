package cli

import (
	"strings"
	"testing"
)

func TestRoff(t *testing.T) {
	for in, want := range map[string]string{
		"--config FILE":         `\-\-config FILE`,
		".hooksup.toml is read": `\&.hooksup.toml is read`,
		"'quoted' first":        `\&'quoted' first`,
		`a \ backslash`:         `a \e backslash`,
		"two\n  lines":          "two lines",
	} {
		if got := roff(in); got != want {
			t.Errorf("roff(%q) = %q, want %q", in, got, want)
		}
	}
}

// --help is one line per command under its group's title, a global flag's whole help where it
// fits its line and its summary where not, and the sections that are not the manual's alone.
func TestHelpLayout(t *testing.T) {
	p := Program{
		Name: "tool", Intro: "tool does things.", Usage: "[flags] command", FlagsTitle: "Flags",
		Command: []Command{
			{Name: "short", Group: "Basic", Summary: "fits on its line", Help: "the whole help, not shown"},
			{Name: "long", Group: "Basic", Flags: []Flag{{Name: "scope", Values: Values{Words: []string{"here", "there", "everywhere"}}}, {Name: "v"}},
				Args: "[FILE...]", Summary: "its summary", Help: strings.Repeat("word ", 20)},
			{Name: "other", Group: "More", Summary: "another"},
			{Name: "secret", Hidden: true},
		},
		Flags: []Flag{{Name: "config", Arg: "FILE", Help: "read FILE (and nothing else)"},
			{Name: "strict", Help: strings.Repeat("word ", 20), Summary: "in short"}},
		Sections: []Section{{Title: "Files", Text: "none"}, {Title: "Manual", Text: "only there", ManOnly: true}},
	}
	want := `tool does things.

Usage: tool [flags] command

Basic:
  short   fits on its line
  long    its summary

More:
  other   another

Flags:
  --config FILE       read FILE (and nothing else)
  --strict            in short

Files: none
`
	got := p.Help()
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if strings.Contains(got, "secret") {
		t.Error("a hidden command is listed")
	}
}

func TestWantsHelp(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{nil, false}, {[]string{"--help"}, true}, {[]string{"--json", "-h"}, true}, {[]string{"-help"}, true},
		{[]string{"--", "--help"}, false}, {[]string{"--reason", "x"}, false}, {[]string{"--helpful"}, false},
	} {
		if got := WantsHelp(c.args); got != c.want {
			t.Errorf("WantsHelp(%q) = %v, want %v", c.args, got, c.want)
		}
	}
}
