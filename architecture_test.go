// The map in ARCHITECTURE.md is checked against the code: every package has a row, each row's
// imports are the package's own imports of hooksup's packages, and every file the page names
// is there.
package architecture_test

import (
	"bufio"
	"fmt"
	"go/scanner"
	"go/token"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/agent/agents"
	"github.com/hooksup/hooksup/agent/agents/dialects"
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

// The hook client runs on every hook call of every session: it links the hook protocol alone —
// neither a session's terminal, its transcript tail or the TUI, nor the engine, the configuration
// and the checks, which the installed hook reaches through hooksup (exec) and which, linked in,
// made every relayed call's start-up some 15 % slower than a bare Go client's.
func TestHookClientLinksOnlyWhatAHookNeeds(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "./cmd/hooksup-hook").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, module+"/hooks") {
		t.Fatalf("hooksup-hook does not link the hook protocol; its dependencies: %v", deps)
	}
	for _, dep := range deps {
		for _, unwanted := range []string{"creack/pty", "fsnotify", "bubbletea", "lipgloss", "BurntSushi/toml", "charmbracelet/x/ansi",
			module + "/transcript", module + "/supervisor", module + "/tui", module + "/engine", module + "/config", module + "/checks", module + "/agent/"} {
			if strings.Contains(dep, unwanted) {
				t.Errorf("hooksup-hook links %s", dep)
			}
		}
	}
}

// agentHomes are the folders where an agent may be named: each agent's own package (and the
// packages under it) and the one list of them, agent/agents. Everywhere else an agent is known
// through the agent.Agent interface, so that adding one is a folder and a line in the list. The
// folders are drawn from the list: an agent's is where its Agent type is declared.
func agentHomes(all []agent.Agent) []string {
	homes := []string{"agent/agents/"}
	for _, a := range all {
		if rel, ok := strings.CutPrefix(reflect.TypeOf(a).PkgPath(), module+"/"); ok && strings.HasPrefix(rel, "agent/") {
			homes = append(homes, rel+"/")
		}
	}
	return homes
}

// agentWords are the words code would name each agent of all by: its command, which is also its
// dialect's name and the binary hooksup looks for on PATH; the middle of its binary's variable
// (HOOKSUP_NAME_BIN); and the name of its package. Each agent's product (Product) holds one of
// them (TestAgentWordsAreDrawnFromTheList), so a string naming the product is caught too.
func agentWords(all []agent.Agent) []string {
	var words []string
	for _, a := range all {
		words = append(words, a.Name(), strings.TrimSuffix(strings.TrimPrefix(a.BinEnv(), "HOOKSUP_"), "_BIN"))
		if pkg := reflect.TypeOf(a).PkgPath(); strings.HasPrefix(pkg, module+"/agent/") {
			words = append(words, path.Base(pkg))
		}
	}
	slices.SortFunc(words, func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) })
	return slices.CompactFunc(words, strings.EqualFold)
}

// agentPattern matches any of all's agentWords, in any case, anywhere in an identifier or a
// literal.
func agentPattern(all []agent.Agent) *regexp.Regexp {
	quoted := make([]string, 0, len(all))
	for _, w := range agentWords(all) {
		quoted = append(quoted, regexp.QuoteMeta(w))
	}
	return regexp.MustCompile(`(?i)` + strings.Join(quoted, "|"))
}

// namesAllowedDirs are the folders outside agentHomes whose code may name agents, each with why:
// code that only tests build.
var namesAllowedDirs = map[string]string{
	"cmd/hooksup/internal/e2e/": "the end-to-end tests' shared helpers, imported by tests alone: they run each real agent by its name",
}

// namesAllowed are the files outside agentHomes whose code may still name an agent, each with
// why; a file not named here that names an agent fails TestOnlyAgentHomesNameAgents.
var namesAllowed = map[string]string{
	// To stay: test support that runs each real agent offline, or simulates one.
	"cmd/hooksup/internal/mockapi/classify.go":   "the tests' mock APIs speak each real agent's API: its headers and model names",
	"cmd/hooksup/internal/mockapi/chat.go":       "the mock Chat Completions API reads what Copilot CLI adds to a user message",
	"cmd/hooksup/internal/mockapi/chat_reply.go": "the mock Chat Completions API's scripted tool calls are qwen's and copilot's tools",
	"cmd/hooksup/internal/mockapi/copilotenv.go": "the environment that runs the real copilot offline for the tests",
	"cmd/hooksup/internal/mockapi/qwenenv.go":    "the environment that runs the real qwen offline for the tests, kept apart from gemini's settings",
	"cmd/hooksup/internal/mockapi/codexenv.go":   "the environment that runs the real codex offline for the tests",
	"cmd/hooksup/internal/mockapi/env.go":        "the environment that runs the real claude offline for the tests",
	"cmd/hooksup/internal/mockapi/gemini.go":     "the tests' mock Gemini API",
	"cmd/hooksup/internal/mockapi/geminienv.go":  "the environment that runs the real gemini offline for the tests",
	"cmd/hooksup/internal/mockapi/reply.go":      "the mock Messages API's model name",
	"cmd/hooksup/internal/mockapi/request.go":    "the headers claude sends the Messages API",
	"cmd/hooksup/internal/mockapi/responses.go":  "the header codex sends the Responses API",
	"cmd/hooksup/internal/mockapi/server.go":     "the mock Messages API's model names",
	"transcript/internal/gen/gen.go":             "synthetic transcripts for the parser's benchmarks name the models a real one does",
	"internal/agentsim/agentsim.go":              "hooksup demo's agent and the tests' fake behave like Claude Code at the hook boundary, its environment and words included",
	"internal/agentsim/demo.go":                  "the simulated agent's screen says it simulates Claude Code",
	"internal/agentsim/main.go":                  "the simulated agent answers --version as claude does",
	"transcript/location.go":                     "the parser's own format is Claude Code's, and so is where its files are (ConfigDir, ProjectDir)",
	"project/template.go":                        "the .hooksup.toml that init writes is text for people, naming the agents in its comments",
}

// Outside an agent's own folder and the list, no Go file's code names an agent: no identifier
// and no string holds a word of agentWords, drawn from agents.All (comments may, and tests may).
func TestOnlyAgentHomesNameAgents(t *testing.T) {
	homes, names := agentHomes(agents.All()), agentPattern(agents.All())
	var offenders []string
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "third_party") {
				return filepath.SkipDir
			}
			// What a release writes (.gitignore'd), maybe while this runs: CI builds the
			// snapshot beside the tests.
			if path == "dist" || path == "build" {
				return filepath.SkipDir
			}
			if slices.ContainsFunc(homes, func(h string) bool { return path+"/" == h }) {
				return filepath.SkipDir
			}
			if _, ok := namesAllowedDirs[path+"/"]; ok {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		found := agentNamesIn(names, path, src)
		if len(found) == 0 {
			if _, ok := namesAllowed[path]; ok {
				t.Errorf("%s is in namesAllowed but names no agent: take it out", path)
			}
			return nil
		}
		if _, ok := namesAllowed[path]; !ok {
			offenders = append(offenders, path+": "+strings.Join(found, ", "))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for p := range namesAllowed {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("namesAllowed names %s, which is not there", p)
		}
	}
	for p := range namesAllowedDirs {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("namesAllowedDirs names %s, which is not there", p)
		}
	}
	if len(offenders) > 0 {
		t.Errorf("%d files outside %s name an agent in code (name it through agent.Agent instead):\n%s",
			len(offenders), strings.Join(homes, ", "), strings.Join(offenders, "\n"))
	}
}

// agentNamesIn lists the identifiers and literals of the Go source src (the file at path) that
// names matches, each with its line.
func agentNamesIn(names *regexp.Regexp, path string, src []byte) []string {
	fset := token.NewFileSet()
	var s scanner.Scanner
	s.Init(fset.AddFile(path, -1, len(src)), src, nil, 0) // comments are skipped
	var out []string
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		if (tok == token.IDENT || tok == token.STRING || tok == token.CHAR) && names.MatchString(lit) {
			out = append(out, fmt.Sprintf("%d:%s", fset.Position(pos).Line, lit))
		}
	}
}

// zed is an agent in no list but this file's: everything but its names is the default agent's.
type zed struct{ agent.Agent }

func (zed) Name() string    { return "zed" }
func (zed) Product() string { return "Zed Agent CLI" }
func (zed) BinEnv() string  { return "HOOKSUP_ZED_BIN" }

// The guard's words are drawn from the list: every agent's command, product, binary's variable,
// package and dialect is matched, and an agent added to the list (zed here) is guarded with no
// change to the test.
func TestAgentWordsAreDrawnFromTheList(t *testing.T) {
	names := agentPattern(agents.All())
	for _, a := range agents.All() {
		pkg := path.Base(reflect.TypeOf(a).PkgPath())
		for _, s := range []string{a.Name(), a.Product(), a.BinEnv(), pkg, pkg + ".Agent{}", `"` + a.Name() + `"`} {
			if !names.MatchString(s) {
				t.Errorf("the guard's pattern %s misses %q", names, s)
			}
		}
	}
	for _, d := range dialects.All() {
		if !names.MatchString(d.Name()) {
			t.Errorf("the guard's pattern %s misses the dialect %q", names, d.Name())
		}
	}
	if len(agentHomes(agents.All())) != len(agents.All())+1 {
		t.Errorf("agent homes %v: not one for each of %d agents and the list", agentHomes(agents.All()), len(agents.All()))
	}

	src := []byte("package tui\n\n// zed is named in a comment, which is fine.\nvar bin = \"zed\"\n\nfunc zedArgs() {}\nvar product = \"Zed Agent CLI\"\n")
	if found := agentNamesIn(names, "tui/x.go", src); len(found) != 0 {
		t.Fatalf("zed is named before it is in the list: %v", found)
	}
	withZed := append(agents.All(), zed{agents.Default()})
	found := agentNamesIn(agentPattern(withZed), "tui/x.go", src)
	if want := []string{`4:"zed"`, "6:zedArgs", `7:"Zed Agent CLI"`}; !slices.Equal(found, want) {
		t.Errorf("with zed in the list, the guard finds %q in code naming it; want %q", found, want)
	}
	for _, a := range agents.All() {
		if !agentPattern(withZed).MatchString(a.Name()) {
			t.Errorf("with zed in the list, the guard misses %s", a.Name())
		}
	}
}

// linked lists the packages in the dependency closure of the module's package rel, as go list
// -deps reports them (the package's tests left out).
func linked(t *testing.T, rel string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "./"+rel).Output()
	if err != nil {
		t.Fatalf("go list -deps ./%s: %v", rel, err)
	}
	return strings.Fields(string(out))
}

// The front ends name a session's states, events and questions through package session: hub,
// web and internal/present link neither the supervisor nor the engine, the pty, the file watcher
// or an agent, and tui (which drives its session through tui.Session, the supervisor as
// cmd/hooksup wires it) neither the supervisor, the engine nor the agents' list.
func TestArchitectureFrontEndsLinkNoSupervisor(t *testing.T) {
	runtime := []string{"supervisor", "engine", "agent", "agent/"}
	unwanted := map[string][]string{
		"hub":              runtime,
		"web":              runtime,
		"internal/present": runtime,
		"tui":              {"supervisor", "engine", "agent/agents"},
	}
	for pkg, not := range unwanted {
		for _, dep := range linked(t, pkg) {
			if pkg != "tui" && (strings.Contains(dep, "creack/pty") || strings.Contains(dep, "fsnotify")) {
				t.Errorf("%s links %s", pkg, dep)
			}
			rel, ok := strings.CutPrefix(dep, module+"/")
			if !ok {
				continue
			}
			for _, n := range not {
				if rel == n || strings.HasSuffix(n, "/") && strings.HasPrefix(rel, n) {
					t.Errorf("%s links %s", pkg, rel)
				}
			}
		}
	}
}

// The supervisor runs the agent it is given: it knows an agent through the agent.Agent interface
// alone, neither the list of them (agent/agents) nor any one agent's package; the command layer
// picks the agent.
func TestArchitectureSupervisorIsGivenItsAgent(t *testing.T) {
	for _, dep := range linked(t, "supervisor") {
		if rel, ok := strings.CutPrefix(dep, module+"/"); ok && strings.HasPrefix(rel, "agent/") {
			t.Errorf("supervisor links %s", rel)
		}
	}
}

// Package session is data: it links the standard library and the few packages of data it
// names (the hook protocol's input, the verdict log's line, the project lock's holder), and
// nothing that runs a session.
func TestArchitectureSessionIsData(t *testing.T) {
	allowed := []string{"session", "hooks", "verdictlog", "internal/projectlock",
		"internal/atomicfile", "internal/termsafe", "internal/userdirs"}
	for _, dep := range linked(t, "session") {
		first, _, _ := strings.Cut(dep, "/")
		if !strings.Contains(first, ".") {
			continue // the standard library
		}
		rel, ok := strings.CutPrefix(dep, module+"/")
		if !ok || !slices.Contains(allowed, rel) {
			t.Errorf("session links %s", dep)
		}
	}
}
