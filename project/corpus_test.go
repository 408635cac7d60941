package project

import (
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// corpusExpect is a corpus project's expect.toml: the checks init must propose for it, enabled
// and commented out, and the bug its checks must catch.
type corpusExpect struct {
	Source string         `toml:"source"` // where its files' shapes come from
	Check  []corpusCheck  `toml:"check"`  // enabled, in the order they run
	Off    []corpusCheck  `toml:"off"`    // written commented out, in order
	Seed   []corpusSeeded `toml:"seed"`   // the seeded bug: replacements in its files
	// Runs says what the seeded-bug test needs on the PATH to run its test checks ("" for
	// a project it cannot run here).
	Runs []string `toml:"runs"`
}

type corpusCheck struct {
	Name    string            `toml:"name"`
	Command string            `toml:"command"`
	Cwd     string            `toml:"cwd"`
	Env     map[string]string `toml:"env"`
}

type corpusSeeded struct {
	File string `toml:"file"`
	Old  string `toml:"old"`
	New  string `toml:"new"`
}

// corpusProjects are the projects of testdata/corpus with their expect.toml.
func corpusProjects(t *testing.T) map[string]corpusExpect {
	t.Helper()
	root := filepath.Join("testdata", "corpus")
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]corpusExpect{}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		var want corpusExpect
		md, err := toml.DecodeFile(filepath.Join(root, e.Name(), "expect.toml"), &want)
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		if u := md.Undecoded(); len(u) > 0 {
			t.Fatalf("%s/expect.toml: unknown keys %v", e.Name(), u)
		}
		out[e.Name()] = want
	}
	if len(out) == 0 {
		t.Fatal("no projects in testdata/corpus")
	}
	return out
}

// TestCorpus: for each project of testdata/corpus (real projects' CI and tool configuration,
// one directory each), init proposes exactly the checks its expect.toml lists: name, command,
// cwd and environment, enabled or commented out.
func TestCorpus(t *testing.T) {
	for name, want := range corpusProjects(t) {
		t.Run(name, func(t *testing.T) {
			d := Detect(os.DirFS(filepath.Join("testdata", "corpus", name)))
			var on, off []corpusCheck
			for _, p := range d.Proposals() {
				c := corpusCheck{Name: p.Check.Name, Command: p.Check.Command, Cwd: p.Check.Cwd, Env: maps.Clone(p.Check.Env)}
				if p.Off != "" {
					off = append(off, c)
				} else {
					on = append(on, c)
				}
			}
			if !reflect.DeepEqual(on, want.Check) {
				t.Errorf("checks:\n  got  %s\n  want %s\n%s", showChecks(on), showChecks(want.Check), d.Summary())
			}
			if !reflect.DeepEqual(off, want.Off) {
				t.Errorf("commented out:\n  got  %s\n  want %s\n%s", showChecks(off), showChecks(want.Off), d.Summary())
			}
		})
	}
}

func showChecks(cs []corpusCheck) string {
	var b strings.Builder
	for _, c := range cs {
		b.WriteString("\n    " + c.Name + " | " + c.Command)
		if c.Cwd != "" {
			b.WriteString(" | cwd " + c.Cwd)
		}
		if len(c.Env) > 0 {
			b.WriteString(" | env ")
			for _, k := range slices.Sorted(maps.Keys(c.Env)) {
				b.WriteString(k + "=" + c.Env[k] + " ")
			}
		}
	}
	return b.String()
}
