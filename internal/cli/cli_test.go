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

func TestHelpLayout(t *testing.T) {
	p := Program{
		Name: "tool", Intro: "tool does things.", FlagsTitle: "Flags",
		Command: []Command{
			{Name: "short", Help: "fits on its line"},
			{Name: "long", Flags: []Flag{{Name: "scope", Values: Values{Words: []string{"here", "there", "everywhere"}}}, {Name: "v"}},
				Args: "[FILE...]", Help: strings.Repeat("word ", 20)},
			{Name: "secret", Hidden: true},
		},
		Flags:    []Flag{{Name: "config", Arg: "FILE", Help: "read FILE"}},
		Sections: []Section{{Title: "Files", Text: "none"}},
	}
	want := `tool does things.

Usage:
  tool short                                fits on its line
  tool long [--scope here|there|everywhere] [-v] [FILE...]
                                            word word word word word word word
                                            word word word word word word word
                                            word word word word word word

Flags:
  --config FILE       read FILE

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
