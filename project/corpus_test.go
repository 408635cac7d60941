package project

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/hooksup/hooksup/config"
)

// corpusExpect is a corpus project's expect.toml: the checks init must propose for it, enabled
// and commented out, and the bug its checks must catch.
type corpusExpect struct {
	Source string         `toml:"source"` // where its files' shapes come from
	Check  []corpusCheck  `toml:"check"`  // enabled, in the order they run
	Off    []corpusCheck  `toml:"off"`    // written commented out, in order
	Seed   []corpusSeeded `toml:"seed"`   // the seeded bug: replacements in its files
	// Runs says what the seeded-bug test needs on the PATH to run its test checks: .ci/run
	// installs them, and in CI a missing one fails the test.
	Runs []string `toml:"runs"`
	// NodeModules names the project's directories whose test checks need its npm dependencies
	// (vitest and the like): the seeded-bug test links the node_modules .ci/run installed, from
	// the npm registry, at $HOOKSUP_TEST_CORPUS_NODE (whose .bin, pnpm's included, goes on the
	// PATH) into each.
	NodeModules []string `toml:"node_modules"`
	// Cannot says why a project without a seeded bug cannot run on the machines this
	// project's CI has.
	Cannot string `toml:"cannot"`
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

// TestCorpusCatchesSeededBugs: in each corpus project that can run here (its expect.toml's
// runs are on the PATH), the test checks init proposes pass on its tree and fail once its
// seeded bug is in: the checks init writes catch what they are for. In CI (CI set) a program
// of runs that is missing fails the test: .ci/run installs them. A project without a seeded
// bug must say why it cannot run (cannot). HOOKSUP_TEST_NODE22's directory goes first on the
// PATH, where it is set.
func TestCorpusCatchesSeededBugs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs each project's tests")
	}
	pathEnv := os.Getenv("PATH")
	if n := os.Getenv("HOOKSUP_TEST_NODE22"); n != "" {
		pathEnv = filepath.Dir(n) + string(os.PathListSeparator) + pathEnv
	}
	var mu sync.Mutex
	var runnable, caught []string
	projects := corpusProjects(t)
	// The projects run side by side; the figure is logged once all have run.
	t.Run("projects", func(t *testing.T) {
		for _, name := range slices.Sorted(maps.Keys(projects)) {
			want := projects[name]
			if len(want.Seed) == 0 {
				if want.Cannot == "" {
					t.Errorf("%s: no seeded bug, and no word (cannot) of why it cannot run", name)
				}
				t.Logf("%s cannot run: %s", name, want.Cannot)
				continue
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				seededBugCaught(t, name, want, pathEnv, &mu, &runnable, &caught)
			})
		}
	})
	slices.Sort(runnable)
	t.Logf("figure: the seeded bug caught by init's test checks in %d of %d runnable corpus projects (%s), of %d in the corpus",
		len(caught), len(runnable), strings.Join(runnable, ", "), len(projects))
}

// seededBugCaught runs one corpus project's test checks on its tree, then on its seeded tree,
// and counts it runnable and, when a check fails on the seeded tree, caught.
func seededBugCaught(t *testing.T, name string, want corpusExpect, pathEnv string, mu *sync.Mutex, runnable, caught *[]string) {
	nodeDeps := os.Getenv("HOOKSUP_TEST_CORPUS_NODE")
	if len(want.NodeModules) > 0 {
		if nodeDeps == "" {
			if os.Getenv("CI") != "" {
				t.Fatal("HOOKSUP_TEST_CORPUS_NODE is not set: .ci/run must install the corpus's npm dependencies")
			}
			t.Skip("HOOKSUP_TEST_CORPUS_NODE is not set: no npm dependencies for its test checks")
		}
		pathEnv = filepath.Join(nodeDeps, "node_modules", ".bin") + string(os.PathListSeparator) + pathEnv
	}
	for _, tool := range want.Runs {
		if _, err := lookPathIn(tool, pathEnv); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is not on the PATH: .ci/run must install it", tool)
			}
			t.Skipf("%s is not on the PATH", tool)
		}
	}
	mu.Lock()
	*runnable = append(*runnable, name)
	mu.Unlock()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "corpus", name))); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "expect.toml")); err != nil {
		t.Fatal(err)
	}
	var tests []config.Check
	for _, p := range Detect(os.DirFS(dir)).Projects {
		for i, c := range p.Checks {
			if p.meta[i].role == "test" && p.meta[i].off == "" {
				tests = append(tests, c)
			}
		}
	}
	if len(tests) == 0 {
		t.Fatal("init proposes no test check")
	}
	// Linked once init has read the tree, as a clone's are installed after it is made.
	for _, d := range want.NodeModules {
		if err := os.Symlink(filepath.Join(nodeDeps, "node_modules"), filepath.Join(dir, d, "node_modules")); err != nil {
			t.Fatal(err)
		}
	}
	run := func(c config.Check) (string, error) {
		cmd := exec.Command("sh", "-c", c.Command)
		cmd.Dir = filepath.Join(dir, c.Cwd)
		cmd.Env = append(os.Environ(), "PATH="+pathEnv)
		for k, v := range c.Env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	for _, c := range tests {
		if out, err := run(c); err != nil {
			t.Fatalf("check %q (%s) fails on the untouched tree: %v\n%s", c.Name, c.Command, err, out)
		}
	}
	for _, s := range want.Seed {
		f := filepath.Join(dir, s.File)
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), s.Old) {
			t.Fatalf("seed: %s has no %q", s.File, s.Old)
		}
		if err := os.WriteFile(f, []byte(strings.Replace(string(b), s.Old, s.New, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var failed []string
	for _, c := range tests {
		if _, err := run(c); err != nil {
			failed = append(failed, c.Name)
		}
	}
	if len(failed) == 0 {
		var names []string
		for _, c := range tests {
			names = append(names, c.Command)
		}
		t.Errorf("no test check catches the seeded bug: %q all pass", names)
		return
	}
	mu.Lock()
	*caught = append(*caught, name)
	mu.Unlock()
	t.Logf("caught by %s", strings.Join(failed, ", "))
}

// lookPathIn is exec.LookPath over the given PATH.
func lookPathIn(tool, pathEnv string) (string, error) {
	for _, d := range filepath.SplitList(pathEnv) {
		p := filepath.Join(d, tool)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", exec.ErrNotFound
}
