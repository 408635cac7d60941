// The map in ARCHITECTURE.md is checked against the code: every package has a row, each row's
// imports are the package's own imports of hooksup's packages, and every file the page names
// is there.
package architecture_test

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/hooksup/hooksup"

// carried reports whether a package is a carried copy of another project's (third_party/):
// described in prose, not in the table.
func carried(rel string) bool { return strings.HasPrefix(rel, "third_party/") }

// modulePackages lists every package of the module with its imports of the module's packages,
// both relative to the module's root, as go list reports them.
func modulePackages(t *testing.T) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		rel := relative(f[0])
		if carried(rel) {
			continue
		}
		imports := []string{}
		for _, imp := range f[1:] {
			if r := relative(imp); r != "" && r != imp && !carried(r) {
				imports = append(imports, r)
			}
		}
		slices.Sort(imports)
		pkgs[rel] = imports
	}
	return pkgs
}

// relative is path relative to the module ("" for the module itself), or path unchanged when it
// is outside the module.
func relative(path string) string {
	if path == module {
		return ""
	}
	if r, ok := strings.CutPrefix(path, module+"/"); ok {
		return r
	}
	return path
}

var backticked = regexp.MustCompile("`([^`]+)`")

// tableRows reads the package table of ARCHITECTURE.md: package → the backticked names in its
// imports column.
func tableRows(t *testing.T, page string) map[string][]string {
	t.Helper()
	rows := map[string][]string{}
	in := false
	sc := bufio.NewScanner(strings.NewReader(page))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "## Packages":
			in = true
		case in && strings.HasPrefix(line, "## "):
			return rows
		case in && strings.HasPrefix(line, "| `"):
			cells := strings.Split(strings.Trim(line, "|"), " | ")
			if len(cells) != 3 {
				t.Fatalf("a row of the package table has %d cells, not 3: %s", len(cells), line)
			}
			pkg := strings.Trim(strings.TrimSpace(cells[0]), "`")
			imports := []string{}
			deps, _, _ := strings.Cut(cells[2], ";") // after ";": libraries from outside, in words
			for _, m := range backticked.FindAllStringSubmatch(deps, -1) {
				imports = append(imports, m[1])
			}
			slices.Sort(imports)
			if _, dup := rows[pkg]; dup {
				t.Errorf("ARCHITECTURE.md has two rows for %s", pkg)
			}
			rows[pkg] = imports
		}
	}
	return rows
}

func TestArchitectureTable(t *testing.T) {
	b, err := os.ReadFile("ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := tableRows(t, string(b))
	pkgs := modulePackages(t)
	if len(rows) == 0 || len(pkgs) == 0 {
		t.Fatalf("%d rows, %d packages", len(rows), len(pkgs))
	}
	for pkg, imports := range pkgs {
		if pkg == "" {
			continue // this test's own package
		}
		row, ok := rows[pkg]
		if !ok {
			t.Errorf("ARCHITECTURE.md has no row for the package %s (it imports %s)", pkg, strings.Join(imports, ", "))
			continue
		}
		if !slices.Equal(row, imports) {
			t.Errorf("ARCHITECTURE.md says %s imports %v; it imports %v", pkg, row, imports)
		}
	}
	for pkg := range rows {
		if _, ok := pkgs[pkg]; !ok {
			t.Errorf("ARCHITECTURE.md has a row for %s, which is not a package", pkg)
		}
	}
}

// Every file of the repository that ARCHITECTURE.md names by its path is there.
func TestArchitectureNamesFilesThatExist(t *testing.T) {
	b, err := os.ReadFile("ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	path := regexp.MustCompile(`^[a-z0-9_.-]+(/[a-zA-Z0-9_.-]+)+$`)
	n := 0
	for _, m := range backticked.FindAllStringSubmatch(string(b), -1) {
		p := m[1]
		if !path.MatchString(p) || strings.Contains(p, "*") || !strings.Contains(filepath.Base(p), ".") {
			continue
		}
		n++
		if _, err := os.Stat(p); err != nil {
			t.Errorf("ARCHITECTURE.md names %s, which is not there", p)
		}
	}
	if n < 20 {
		t.Fatalf("only %d file paths found in ARCHITECTURE.md: is the pattern right?", n)
	}
}

// The hook client runs on every stop of every session: it links what a hook needs (the hook
// protocol, and the engine for the standalone hook), and nothing of a session's terminal, its
// transcript tail or the TUI.
func TestHookClientLinksOnlyWhatAHookNeeds(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "./cmd/hooksup-hook").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, module+"/engine") {
		t.Fatalf("hooksup-hook does not link the engine; its dependencies: %v", deps)
	}
	for _, dep := range deps {
		for _, unwanted := range []string{"creack/pty", "fsnotify", "bubbletea", "lipgloss", module + "/transcript", module + "/supervisor", module + "/tui"} {
			if strings.Contains(dep, unwanted) {
				t.Errorf("hooksup-hook links %s", dep)
			}
		}
	}
}
