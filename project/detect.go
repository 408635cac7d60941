// Package project recognises what a project is built and tested with (Go, npm and its
// workspaces, Python, Rust, CMake, Make) and what its CI runs (GitHub Actions), and writes the
// .hooksup.toml that `hooksup init` proposes.
package project

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/hooksup/hooksup/config"
)

// Detection is what `hooksup init` recognised in a project directory: the projects in it (the
// directory itself first, then sub-projects one or two levels down) and the checks each runs.
type Detection struct {
	Projects []Project
}

// Project is one kind of project in one directory, as `hooksup init` recognised it.
type Project struct {
	Dir    string         // slash-separated, relative to the project directory; "." for itself
	Kind   string         // what it is and the files that said so: "Node, pnpm (pnpm-lock.yaml)"
	Detail string         // what it found inside: "scripts test, lint"; may be empty
	Notes  []string       // written as comments above its checks
	Checks []config.Check // with their final, unique names and their cwd
	meta   []checkMeta    // beside Checks
	// covered: the checks of another project of its directory stand in for all of its own.
	covered bool
	// standby are its checks that others stood in for (the CI's, tox's, make test): written
	// only once init turns them on (TurnOn), when those of their role fall.
	standby     []config.Check
	standbyMeta []checkMeta
}

// checkMeta is what init knows of a check besides the check itself.
type checkMeta struct {
	role  string   // "test", "lint", "format", "typecheck"
	from  string   // where it comes from, written as a comment above it: the CI step
	off   string   // why it is written commented out; "" when it runs
	notes []string // written as comments above it, after from
	// spare: init may turn it on when the checks of its role fall (a standby check, or one
	// commented out because the CI does not run it); on: it did.
	spare, on bool
}

// Proposal is one check init writes, in the order they run: enabled, or commented out (Off
// says why) for the person to decide.
type Proposal struct {
	Check config.Check
	Role  string // "test", "lint", "format", "typecheck"; "" for another
	From  string // where it comes from, when it is the project's CI
	Off   string // why it is commented out; "" when it runs
	Notes []string
}

// Line is the project in one line: "web: Node, pnpm (pnpm-lock.yaml): scripts test, lint".
func (p Project) Line() string {
	s := p.Kind
	if p.Detail != "" {
		s += ": " + p.Detail
	}
	if p.Dir != "." {
		s = p.Dir + ": " + s
	}
	return s
}

// Checks are the checks init enables, in the order they run.
func (d Detection) Checks() []config.Check {
	var out []config.Check
	for _, p := range d.Proposals() {
		if p.Off == "" {
			out = append(out, p.Check)
		}
	}
	return out
}

// TurnOff has the check by that name written commented out, with why (lines of text). The
// Projects share their checks' metadata with d, so every copy of d sees it.
func (d Detection) TurnOff(name, why string) bool {
	if m := d.meta(name); m != nil {
		m.off = why
		return true
	}
	return false
}

// meta is the metadata of the check by that name, standby ones included; nil for none.
func (d Detection) meta(name string) *checkMeta {
	for _, p := range d.Projects {
		for i := range p.Checks {
			if p.Checks[i].Name == name && i < len(p.meta) {
				return &p.meta[i]
			}
		}
		for i := range p.standby {
			if p.standby[i].Name == name {
				return &p.standbyMeta[i]
			}
		}
	}
	return nil
}

// Standby are the checks init may turn on (TurnOn) when the ones of their role fall: the
// project's own that others stood in for (`go test ./...` for the CI's `go test -run X ./...`),
// and those written commented out because the CI does not run them; none whose command a
// proposal of its directory already runs. The tests first, as they run.
func (d Detection) Standby() []Proposal {
	props := d.Proposals()
	runs := func(c config.Check) bool {
		return slices.ContainsFunc(props, func(p Proposal) bool {
			return p.Off == "" && p.Check.Cwd == c.Cwd && SameCommand(p.Check.Command, c.Command)
		})
	}
	var out []Proposal
	for _, p := range d.Projects {
		for i, c := range p.Checks {
			if m := p.meta[i]; m.spare && m.off != "" && !runs(c) {
				out = append(out, Proposal{Check: c, Role: m.role, From: m.from, Off: m.off})
			}
		}
		for i, c := range p.standby {
			if m := p.standbyMeta[i]; !m.on && !runs(c) && !slices.ContainsFunc(out, func(o Proposal) bool { return o.Check.Cwd == c.Cwd && SameCommand(o.Check.Command, c.Command) }) {
				out = append(out, Proposal{Check: c, Role: m.role, From: m.from})
			}
		}
	}
	rank := func(role string) int {
		if r := slices.Index(roleOrder, role); r >= 0 {
			return r
		}
		return len(roleOrder)
	}
	slices.SortStableFunc(out, func(a, b Proposal) int { return rank(a.Role) - rank(b.Role) })
	return out
}

// TurnOn has the check by that name, one of Standby's, written enabled, with why above it.
func (d Detection) TurnOn(name, why string) bool {
	m := d.meta(name)
	if m == nil || !m.spare {
		return false
	}
	m.on, m.off = true, ""
	m.notes = append(m.notes, strings.Split(why, "\n")...)
	return true
}

// Note has lines of text written as comments above the check by that name.
func (d Detection) Note(name, note string) {
	if m := d.meta(name); m != nil {
		m.notes = append(m.notes, strings.Split(note, "\n")...)
	}
}

// Proposals are all the checks init writes, commented out or not, in the order they run.
func (d Detection) Proposals() []Proposal {
	var out []Proposal
	for _, g := range d.dirs() {
		out = append(out, runOrder(g)...)
	}
	return out
}

// dirs groups the projects by directory, in order.
func (d Detection) dirs() [][]Project {
	var out [][]Project
	for i, p := range d.Projects {
		if i == 0 || p.Dir != d.Projects[i-1].Dir {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], p)
	}
	return out
}

// roleOrder is the order in which the checks of a directory run, whatever kinds of project it
// holds: the tests first, then the linters, the formatters' checks, the type checkers.
var roleOrder = []string{"test", "lint", "format", "typecheck"}

// runOrder is the checks of one directory's projects in the order they run.
func runOrder(ps []Project) []Proposal {
	type ranked struct {
		p    Proposal
		rank int
	}
	var all []ranked
	add := func(c config.Check, m checkMeta) {
		rank := len(roleOrder)
		if r := slices.Index(roleOrder, m.role); r >= 0 {
			rank = r
		}
		all = append(all, ranked{Proposal{Check: c, Role: m.role, From: m.from, Off: m.off, Notes: m.notes}, rank})
	}
	for _, p := range ps {
		for i, c := range p.Checks {
			m := checkMeta{}
			if i < len(p.meta) {
				m = p.meta[i]
			}
			add(c, m)
		}
		for i, c := range p.standby {
			if p.standbyMeta[i].on {
				add(c, p.standbyMeta[i])
			}
		}
	}
	slices.SortStableFunc(all, func(a, b ranked) int { return a.rank - b.rank })
	out := make([]Proposal, len(all))
	for i, r := range all {
		out[i] = r.p
	}
	return out
}

// nothingKnown says what hooksup looks for when it found none of it.
const nothingKnown = "recognised no project: no go.mod, package.json, pyproject.toml, setup.py, setup.cfg, " +
	"requirements*.txt, tox.ini, noxfile.py, pytest.ini, Cargo.toml, CMakeLists.txt, meson.build, Makefile with a test target or " +
	".pre-commit-config.yaml, here or one or two directories down"

// Summary is one line per recognised project, or a line that says nothing was recognised.
func (d Detection) Summary() string {
	if len(d.Projects) == 0 {
		return nothingKnown + "\n"
	}
	var b strings.Builder
	for _, p := range d.Projects {
		b.WriteString(p.Line())
		b.WriteByte('\n')
	}
	return b.String()
}

// Timeouts of the detected checks: a test suite or a Rust build takes longer than a linter.
const (
	detectTestTimeout = 5 * time.Minute
	detectLintTimeout = 2 * time.Minute
	detectRustTimeout = 10 * time.Minute
	detectMaxRetries  = 10
)

// skipDirs are never sub-projects: dependencies, build output, fixtures and examples.
var skipDirs = map[string]bool{
	"node_modules": true, "vendor": true, "target": true, "dist": true, "build": true, "out": true,
	"testdata": true, "fixtures": true, "examples": true, "example": true, "__pycache__": true,
	"venv": true, "site-packages": true, "third_party": true,
}

// Detect looks at the project directory fsys (its root) and one or two directory levels
// below it, and returns the checks that run there. It only reads a few small files, runs
// nothing, and never fails: a file it cannot read counts as absent, a package.json it cannot
// parse is named in the summary.
func Detect(fsys fs.FS) Detection {
	det := detector{fsys: fsys}
	root := det.dir(".")
	det.root = root

	// Sub-projects: one level down, and two levels down under a directory that is no project.
	var subs []string
	for _, name := range det.subdirs(".") {
		if d := det.dir(name); d.any() {
			subs = append(subs, name)
			continue
		}
		for _, name2 := range det.subdirs(name) {
			subs = append(subs, path.Join(name, name2))
		}
	}
	// The CI's steps name theirs (working-directory), however deep.
	for _, w := range det.ciDirs() {
		if !slices.Contains(subs, w) {
			subs = append(subs, w)
		}
	}
	// A go.work names its modules, however deep.
	for _, u := range root.goWorkUse {
		if !slices.Contains(subs, u) {
			subs = append(subs, u)
		}
	}
	slices.Sort(subs)

	dirs := []*dirProjects{root.projects(&det)}
	for _, s := range subs {
		dp := det.dir(s).projects(&det)
		if len(dp.checks()) > 0 || dp.problem() {
			dirs = append(dirs, dp)
		}
	}
	return Detection{Projects: nameChecks(dirs)}
}

type detector struct {
	fsys fs.FS
	root *dirInfo
	memo map[string]*dirInfo
	// What the root's Python project runs, which covers the Python projects below it.
	rootPytest, rootRuff bool
	ci                   *ciFound // the CI's checks, read once
}

// dirInfo is what one directory holds, read once.
type dirInfo struct {
	dir   string
	files map[string]bool // regular files (and symlinks to them) in the directory
	dirs  map[string]bool

	goMod, goWork bool
	goWorkUse     []string // the modules a go.work uses, relative to the project directory

	pkg      *packageJSON
	pkgErr   error
	pnpmWork []string // pnpm-workspace.yaml's packages

	python []string // Python markers present
	cargo  string   // Cargo.toml's content, "" when absent

	makefile    string // the makefile with a test target, "" when none
	makeContent string // the makefile's content
}

func (d *dirInfo) any() bool {
	return d.goMod || d.goWork || d.pkg != nil || d.pkgErr != nil || len(d.python) > 0 || d.cargo != "" || d.makefile != "" ||
		d.files["CMakeLists.txt"] || d.files["meson.build"]
}

func (det *detector) read(name string) string {
	// Only a regular file: a named pipe in a manifest's place would be waited on for ever.
	if fi, err := fs.Stat(det.fsys, name); err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	f, err := det.fsys.Open(name)
	if err != nil {
		return ""
	}
	defer f.Close()
	// Nobody's manifest is bigger: don't chew on something that is not one.
	b, _ := io.ReadAll(io.LimitReader(f, 1<<20))
	return string(b)
}

// subdirs lists the directories under dir that may hold sub-projects.
func (det *detector) subdirs(dir string) []string {
	entries, err := fs.ReadDir(det.fsys, dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		n := e.Name()
		if !e.IsDir() || strings.HasPrefix(n, ".") || skipDirs[n] {
			continue
		}
		if _, err := fs.Stat(det.fsys, path.Join(dir, n, "pyvenv.cfg")); err == nil {
			continue // a virtualenv
		}
		out = append(out, n)
	}
	return out
}

func (det *detector) dir(dir string) *dirInfo {
	if d, ok := det.memo[dir]; ok {
		return d
	}
	if det.memo == nil {
		det.memo = map[string]*dirInfo{}
	}
	d := &dirInfo{dir: dir, files: map[string]bool{}, dirs: map[string]bool{}}
	det.memo[dir] = d
	entries, _ := fs.ReadDir(det.fsys, dir)
	for _, e := range entries {
		switch {
		case e.IsDir():
			d.dirs[e.Name()] = true
		case e.Type().IsRegular():
			d.files[e.Name()] = true
		case e.Type()&fs.ModeSymlink != 0:
			if fi, err := fs.Stat(det.fsys, path.Join(dir, e.Name())); err == nil && fi.Mode().IsRegular() {
				d.files[e.Name()] = true
			}
		}
	}
	file := func(name string) string { return det.read(path.Join(dir, name)) }

	d.goMod = d.files["go.mod"]
	if d.files["go.work"] {
		d.goWork = true
		d.goWorkUse = goWorkUses(file("go.work"), dir)
	}
	if d.files["package.json"] {
		d.pkg, d.pkgErr = parsePackageJSON(file("package.json"))
		if d.pkgErr != nil {
			d.pkg = nil
		}
	}
	if d.files["pnpm-workspace.yaml"] {
		d.pnpmWork = pnpmWorkspacePackages(file("pnpm-workspace.yaml"))
	}
	for _, m := range []string{"pyproject.toml", "setup.py", "setup.cfg"} {
		if d.files[m] {
			d.python = append(d.python, m)
		}
	}
	var reqs []string
	for f := range d.files {
		if strings.HasPrefix(f, "requirements") && strings.HasSuffix(f, ".txt") {
			reqs = append(reqs, f)
		}
	}
	slices.Sort(reqs)
	d.python = append(d.python, reqs...)
	for _, m := range []string{"tox.ini", "tox.toml", "pytest.ini"} {
		if d.files[m] {
			d.python = append(d.python, m)
		}
	}
	if d.files["Cargo.toml"] {
		d.cargo = file("Cargo.toml")
		if d.cargo == "" {
			d.cargo = "\n" // present, if empty
		}
	}
	for _, m := range []string{"GNUmakefile", "makefile", "Makefile"} { // make's own order
		if d.files[m] {
			d.makeContent = file(m)
			if makeHasTarget(d.makeContent, "test") {
				d.makefile = m
			}
			break
		}
	}
	return d
}

// dirProjects are the projects of one directory and their checks, before they are named.
type dirProjects struct {
	dir      string
	projects []*detected
}

// detected is one project with its checks; each check has a short name ("test") and one that
// says which tool it is ("go test"), used when a directory holds several kinds of project.
type detected struct {
	Project
	short   []string // the role
	long    []string
	name    []string       // the name it always has, whatever else the directory holds ("" for none)
	from    []string       // where each check comes from (checkMeta.from)
	notes   [][]string     // written above each check (checkMeta.notes)
	off     []string       // why each check is commented out (checkMeta.off)
	dropped []droppedCheck // its checks on standby: others stood in for them (Project.standby)
	problem bool           // something the person should hear of even without checks
	tool    string         // the tool whose own configuration says what it runs: tox, nox, pre-commit
	ciRun   string         // the CI (its step) that runs that tool: its checks are the CI's
}

func (dp *dirProjects) problem() bool {
	return slices.ContainsFunc(dp.projects, func(p *detected) bool { return p.problem })
}

func (dp *dirProjects) checks() []config.Check {
	var out []config.Check
	for _, p := range dp.projects {
		out = append(out, p.Checks...)
	}
	return out
}

func (p *detected) add(short, long, command string, timeout time.Duration, env map[string]string) {
	retry := true
	p.Checks = append(p.Checks, config.Check{
		Name: short, Command: command, Timeout: config.Duration{D: timeout}, Env: env,
		RetryOnFailure: &retry, MaxRetries: detectMaxRetries,
	})
	p.short = append(p.short, short)
	p.long = append(p.long, long)
	p.name = append(p.name, "")
	p.from = append(p.from, "")
	p.notes = append(p.notes, nil)
	p.off = append(p.off, "")
}

// cover marks a project whose checks others stand in for: its notes, which are about its
// checks, go with them.
func (p *detected) cover() {
	if len(p.Checks) == 0 {
		p.covered, p.Notes = true, nil
	}
}

// droppedCheck is a check another stood in for, with its short and long names.
type droppedCheck struct {
	check       config.Check
	short, long string
}

// drop removes the i'th check: another stands in for it. It is kept on standby.
func (p *detected) drop(i int) {
	p.dropped = append(p.dropped, droppedCheck{p.Checks[i], p.short[i], p.long[i]})
	p.remove(i)
}

// remove takes check i out of p, not on standby: it is not one of the project's checks.
func (p *detected) remove(i int) {
	p.Checks = slices.Delete(p.Checks, i, i+1)
	p.short = slices.Delete(p.short, i, i+1)
	p.long = slices.Delete(p.long, i, i+1)
	p.name = slices.Delete(p.name, i, i+1)
	p.from = slices.Delete(p.from, i, i+1)
	p.notes = slices.Delete(p.notes, i, i+1)
	p.off = slices.Delete(p.off, i, i+1)
}

// projects recognises the projects in d and the checks they run.
func (d *dirInfo) projects(det *detector) *dirProjects {
	dp := &dirProjects{dir: d.dir}
	add := func(p *detected) {
		if p != nil {
			p.Dir = d.dir
			dp.projects = append(dp.projects, p)
		}
	}
	add(d.goProject())
	add(d.nodeProject(det))
	add(d.pythonProject(det))
	add(d.rustProject(det))
	add(d.cmakeProject(det))
	if mp := d.mesonProject(det); mp != nil {
		// Beside a CMakeLists.txt of the same project, one build runs the tests: CMake's.
		if i := slices.IndexFunc(dp.projects, func(p *detected) bool { return strings.HasPrefix(p.Kind, "CMake") && len(p.Checks) > 0 }); i >= 0 && len(mp.Checks) > 0 {
			mp.Detail = fmt.Sprintf("`%s` stands in for `%s`", dp.projects[i].Checks[0].Command, mp.Checks[0].Command)
			mp.drop(0)
			mp.cover()
		}
		add(mp)
	}
	// tox's environments and nox's sessions are how the maintainers run their Python tests and
	// linters: they stand in for init's own guesses of the same role.
	for _, tp := range []*detected{d.toxProject(det), d.noxProject(det)} {
		if tp == nil {
			continue
		}
		for _, o := range dp.projects {
			if !strings.HasPrefix(o.Kind, "Python") {
				continue
			}
			for i := 0; i < len(o.Checks); i++ {
				if j := slices.Index(tp.short, o.short[i]); j >= 0 {
					tp.Detail += fmt.Sprintf("; `%s` stands in for `%s`", tp.Checks[j].Command, o.Checks[i].Command)
					o.drop(i)
					i--
					o.cover()
				}
			}
		}
		add(tp)
	}
	// pre-commit's hooks, where they are the project's gate, are its lint.
	if pc := d.preCommitProject(det); pc != nil {
		for _, o := range dp.projects {
			for i := 0; i < len(o.Checks) && len(pc.Checks) > 0 && o.tool == ""; i++ {
				if o.short[i] == "lint" {
					pc.Detail += fmt.Sprintf("; `%s` stands in for `%s`", pc.Checks[0].Command, o.Checks[i].Command)
					o.drop(i)
					i--
					o.cover()
				}
			}
		}
		add(pc)
	}
	cmakeTests := slices.ContainsFunc(dp.projects, func(p *detected) bool {
		return strings.HasPrefix(p.Kind, "CMake") && len(p.Checks) > 0
	})
	if mk := d.makeProject(); mk != nil && len(mk.Checks) == 0 {
		add(mk)
	} else if mk != nil && cmakeTests {
		// Beside a CMakeLists.txt, the makefile is a build of its own (a demo, an install):
		// the CMake build's ctest is how the project's tests run.
		mk.Detail = fmt.Sprintf("`%s` stands in for `make test`", cmakeTestCheck("build", nil, nil, nil))
		mk.remove(0)
		mk.cover()
		add(mk)
	} else if mk != nil {
		var stands []string
		// make test is how this directory wants its tests run: it stands in for the test
		// commands of the other projects here.
		for _, p := range dp.projects {
			for i := 0; i < len(p.Checks); i++ {
				if p.short[i] != "test" {
					continue
				}
				stands = append(stands, fmt.Sprintf("`make test` stands in for `%s`", p.Checks[i].Command))
				p.drop(i)
				i--
			}
		}
		// A makefile calls a bare python: beside a .venv it runs in the activated
		// virtualenv, as the person runs it.
		if d.venv(det) {
			if fi, err := fs.Stat(det.fsys, path.Join(d.dir, ".venv/bin/activate")); err == nil && !fi.IsDir() {
				mk.Checks[0].Command = ". .venv/bin/activate && make test"
				stands = append(stands, "it runs in the activated .venv")
			}
		}
		mk.Detail = strings.Join(stands, "; ")
		add(mk)
	}
	add(d.ciProject(det, dp))
	return dp
}

// GofmtCheck fails when gofmt would change a Go file of the module (vendor/ and testdata/ are
// not the module's code), and prints those files: what the agent reads is what to format.
const GofmtCheck = `! gofmt -l . | grep -v -e '^vendor/' -e '/testdata/' -e '^testdata/' | grep .`

func (d *dirInfo) goProject() *detected {
	switch {
	case d.goMod:
		p := &detected{Project: Project{Kind: "Go module (go.mod)"}}
		p.add("test", "go test", "go test ./...", detectTestTimeout, nil)
		// The project's golangci-lint configuration says how its maintainers lint (go vet
		// among the rest).
		for _, f := range []string{".golangci.yml", ".golangci.yaml", ".golangci.toml", ".golangci.json"} {
			if d.files[f] {
				p.Kind = "Go module (go.mod, " + f + ")"
				p.add("lint", "golangci-lint", "golangci-lint run", detectLintTimeout, nil)
				p.add("format", "gofmt", GofmtCheck, detectLintTimeout, nil)
				return p
			}
		}
		p.add("lint", "go vet", "go vet ./...", detectLintTimeout, nil)
		p.add("format", "gofmt", GofmtCheck, detectLintTimeout, nil)
		return p
	case d.goWork && d.dir == ".":
		return &detected{Project: Project{Kind: "Go workspace (go.work)",
			Detail: "each module gets its own checks (go test ./... stops at a module's border)"}}
	}
	return nil
}

// goWorkUses reads the use directives of a go.work in dir.
func goWorkUses(content, dir string) []string {
	var out []string
	inBlock := false
	for _, line := range strings.Split(content, "\n") {
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		var p string
		switch {
		case inBlock && len(f) > 0 && f[0] == ")":
			inBlock = false
		case inBlock && len(f) > 0:
			p = f[0]
		case len(f) >= 2 && f[0] == "use" && f[1] == "(":
			inBlock = true
		case len(f) == 2 && f[0] == "use":
			p = f[1]
		}
		p = strings.Trim(p, "\"`")
		if p == "" || path.IsAbs(p) {
			continue
		}
		p = path.Join(dir, p)
		if p != "." && p != ".." && !strings.HasPrefix(p, "../") {
			out = append(out, p)
		}
	}
	return out
}

// packageJSON is the part of a package.json that init reads.
type packageJSON struct {
	Scripts        map[string]any  `json:"scripts"`
	PackageManager string          `json:"packageManager"`
	Workspaces     json.RawMessage `json:"workspaces"`
	workspaces     []string
}

func parsePackageJSON(content string) (*packageJSON, error) {
	var p packageJSON
	if err := json.Unmarshal([]byte(content), &p); err != nil {
		return nil, err
	}
	// "workspaces": ["packages/*"] or {"packages": ["packages/*"]}
	var list []string
	var obj struct {
		Packages []string `json:"packages"`
	}
	if json.Unmarshal(p.Workspaces, &list) == nil {
		p.workspaces = list
	} else if json.Unmarshal(p.Workspaces, &obj) == nil {
		p.workspaces = obj.Packages
	}
	return &p, nil
}

// script is the package.json script by that name, "" when there is none.
func (p *packageJSON) script(name string) string {
	s, _ := p.Scripts[name].(string)
	return strings.TrimSpace(s)
}

// runs reports whether the package has a real script by that name (not npm's placeholder test).
func (p *packageJSON) runs(name string) bool {
	s := p.script(name)
	return s != "" && !(name == "test" && strings.Contains(s, npmPlaceholderTest))
}

// pnpmWorkspacePackages reads the packages list of a pnpm-workspace.yaml (block or flow style).
func pnpmWorkspacePackages(content string) []string {
	var out []string
	in := false
	for _, line := range strings.Split(content, "\n") {
		if i := strings.Index(line, "#"); i >= 0 {
			line = line[:i]
		}
		t := strings.TrimSpace(line)
		if t == "" {
			continue
		}
		if rest, ok := strings.CutPrefix(t, "packages:"); ok && line == strings.TrimLeft(line, " \t") {
			in = true
			if rest = strings.TrimSpace(rest); strings.HasPrefix(rest, "[") {
				for _, p := range strings.Split(strings.Trim(rest, "[]"), ",") {
					out = append(out, strings.Trim(strings.TrimSpace(p), `'"`))
				}
				in = false
			}
			continue
		}
		if line == strings.TrimLeft(line, " \t") && !strings.HasPrefix(t, "-") {
			in = false
		}
		if in && strings.HasPrefix(t, "-") {
			out = append(out, strings.Trim(strings.TrimSpace(t[1:]), `'"`))
		}
	}
	return out
}

// inWorkspace reports whether dir matches one of a workspace's package patterns.
func inWorkspace(patterns []string, dir string) bool {
	for _, p := range patterns {
		p = strings.TrimPrefix(path.Clean(p), "./")
		if p == "" || strings.HasPrefix(p, "!") {
			continue
		}
		if base, ok := strings.CutSuffix(p, "/**"); ok {
			if strings.HasPrefix(dir, base+"/") {
				return true
			}
			continue
		}
		if ok, _ := path.Match(p, dir); ok {
			return true
		}
	}
	return false
}

// fixFlagRe matches the flags with which linters and formatters change files instead of
// reporting: eslint's and others' --fix, prettier's and biome's --write.
var fixFlagRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:^|\s)(--fix|--write)(?:[\s=]|$)`) })

// fixesFiles is the flag with which a script changes files, "" when it only reports.
func fixesFiles(script string) string {
	if m := fixFlagRe().FindStringSubmatch(script); m != nil {
		return m[1]
	}
	return ""
}

// npmPlaceholderTest is what `npm init` puts in scripts.test.
const npmPlaceholderTest = "no test specified"

// nodeManagers are the lockfiles that name a package manager, in the order they are looked for.
var nodeManagers = []struct{ lockfile, manager string }{
	{"package-lock.json", "npm"}, {"npm-shrinkwrap.json", "npm"}, {"pnpm-lock.yaml", "pnpm"},
	{"yarn.lock", "yarn"}, {"bun.lockb", "bun"}, {"bun.lock", "bun"},
}

// nodeManager finds the package manager of the Node project in d: its packageManager field or
// lockfile, else those of the directories above it (a workspace keeps them at its root).
func (det *detector) nodeManager(d *dirInfo) (manager, evidence string) {
	for dir := d.dir; ; dir = path.Dir(dir) {
		di := det.dir(dir)
		if di.pkg != nil && di.pkg.PackageManager != "" {
			name, _, _ := strings.Cut(di.pkg.PackageManager, "@")
			switch name {
			case "npm", "pnpm", "yarn", "bun":
				return name, "packageManager " + di.pkg.PackageManager + where(dir, d.dir, "package.json")
			}
		}
		for _, m := range nodeManagers {
			if di.files[m.lockfile] {
				if dir == d.dir {
					return m.manager, m.lockfile
				}
				return m.manager, strings.TrimPrefix(where(dir, d.dir, m.lockfile), " in ")
			}
		}
		if dir == "." {
			return "npm", "no lockfile"
		}
	}
}

// where names a file found in dir while looking at from: nothing when they are the same.
func where(dir, from, file string) string {
	switch {
	case dir == from:
		return ""
	case dir == ".":
		return " in the root's " + file
	default:
		return " in " + dir + "/" + file
	}
}

// nodeRun is the command that runs a package.json script with that manager. npm test and
// npm run are npm's; bun test would run bun's own test runner, not the script, so bun run.
func nodeRun(manager, script string) string {
	if manager == "npm" && script == "test" {
		return "npm test"
	}
	return manager + " run " + script
}

func (d *dirInfo) nodeProject(det *detector) *detected {
	if d.pkgErr != nil {
		return &detected{problem: true, Project: Project{Kind: "Node (package.json)",
			Detail: fmt.Sprintf("%s is not valid JSON (%v): no checks", path.Join(d.dir, "package.json"), d.pkgErr)}}
	}
	if d.pkg == nil {
		return nil
	}
	manager, evidence := det.nodeManager(d)
	files := []string{evidence}
	if d.files["pnpm-workspace.yaml"] {
		files = append(files, "pnpm-workspace.yaml")
	}
	p := &detected{Project: Project{Kind: fmt.Sprintf("Node, %s (%s)", manager, strings.Join(files, ", "))}}

	// A workspace member leaves to the workspace's root the scripts the root runs itself.
	var rootPkg *packageJSON
	if root := det.root; d.dir != "." && root.pkg != nil {
		if inWorkspace(append(slices.Clone(root.pkg.workspaces), root.pnpmWork...), d.dir) {
			rootPkg = root.pkg
		}
	}
	var found, covered, notes []string
	for _, k := range []struct {
		kind    string
		scripts []string
	}{{"test", []string{"test"}}, {"lint", []string{"lint"}}, {"typecheck", []string{"typecheck", "type-check"}}} {
		for _, name := range k.scripts {
			s := d.pkg.script(name)
			if s == "" {
				continue
			}
			if name == "test" && strings.Contains(s, npmPlaceholderTest) {
				notes = append(notes, "the test script is npm's placeholder, not a test")
				break
			}
			if rootPkg != nil && rootPkg.runs(name) {
				covered = append(covered, name)
				break
			}
			if fix := fixesFiles(s); fix != "" {
				notes = append(notes, fmt.Sprintf("no check of the %s script: it changes files (%s)", name, fix))
				break
			}
			found = append(found, name)
			timeout := detectLintTimeout
			if k.kind == "test" {
				timeout = detectTestTimeout
			}
			// CI=true keeps test runners out of their watch modes, and every script of the
			// project sees the same environment.
			p.add(k.kind, manager+" "+k.kind, nodeRun(manager, name), timeout, map[string]string{"CI": "true"})
			break
		}
	}
	var detail []string
	switch len(found) {
	case 0:
		if len(covered) == 0 {
			detail = append(detail, "no test, lint or typecheck script")
		}
	case 1:
		detail = append(detail, "script "+found[0])
	default:
		detail = append(detail, "scripts "+strings.Join(found, ", "))
	}
	if len(covered) > 0 {
		detail = append(detail, "the workspace's root runs "+strings.Join(covered, ", "))
	}
	p.Detail = strings.Join(append(detail, notes...), "; ")
	return p
}

// pythonRunners are the tools whose lockfile says they run the project's commands.
var pythonRunners = []struct{ lockfile, runner string }{
	{"uv.lock", "uv"}, {"poetry.lock", "poetry"}, {"pdm.lock", "pdm"},
}

// tomlHeaderRe matches a TOML table header line (compiled on first use).
var tomlHeaderRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$`) })

// iniHasSection reports whether an ini or TOML file has a [section] (or, when prefix, a section
// that starts with section.).
func iniHasSection(content, section string, prefix bool) bool {
	for _, m := range tomlHeaderRe().FindAllStringSubmatch(content, -1) {
		h := strings.ReplaceAll(m[1], `"`, "")
		if h == section || prefix && strings.HasPrefix(h, section+".") {
			return true
		}
	}
	return false
}

func (d *dirInfo) pythonProject(det *detector) *detected {
	if len(d.python) == 0 {
		return nil
	}
	file := func(name string) string {
		if !d.files[name] {
			return ""
		}
		return det.read(path.Join(d.dir, name))
	}
	evidence := []string{d.python[0]}
	runner := ""
	for _, r := range pythonRunners {
		if d.files[r.lockfile] {
			runner = r.runner
			evidence = append(evidence, r.lockfile)
			break
		}
	}
	venv := runner == "" && d.venv(det)
	kind := "Python"
	switch {
	case runner != "":
		kind += ", " + runner
	case venv:
		kind += ", .venv"
	}
	p := &detected{Project: Project{Kind: fmt.Sprintf("%s (%s)", kind, strings.Join(evidence, ", "))}}

	pyproject := file("pyproject.toml")
	var pytest string
	switch {
	case d.files["pytest.ini"]:
		pytest = "pytest.ini"
	case iniHasSection(pyproject, "tool.pytest.ini_options", false):
		pytest = "[tool.pytest.ini_options]"
	case iniHasSection(pyproject, "tool.pytest", false):
		pytest = "[tool.pytest]"
	case iniHasSection(file("setup.cfg"), "tool:pytest", false):
		pytest = "setup.cfg [tool:pytest]"
	case iniHasSection(file("tox.ini"), "pytest", false):
		pytest = "tox.ini [pytest]"
	case d.files["conftest.py"]:
		pytest = "conftest.py"
	case d.dirs["tests"]:
		pytest = "tests/"
	case d.dirs["test"]:
		pytest = "test/"
	}
	var ruff string
	switch {
	case d.files["ruff.toml"]:
		ruff = "ruff.toml"
	case d.files[".ruff.toml"]:
		ruff = ".ruff.toml"
	case iniHasSection(pyproject, "tool.ruff", true):
		ruff = "[tool.ruff]"
	}

	if d.dir == "." {
		det.rootPytest, det.rootRuff = pytest != "", ruff != ""
	} else {
		// The root's pytest collects the tests below it; the root's ruff lints them.
		if det.rootPytest {
			pytest = ""
		}
		if det.rootRuff {
			ruff = ""
		}
		if pytest == "" && ruff == "" && len(det.root.python) > 0 {
			return nil
		}
	}
	var detail []string
	if pytest != "" {
		detail = append(detail, "pytest ("+pytest+")")
		cmd := "python3 -m pytest -q"
		switch {
		case runner == "uv":
			// --locked: the check never rewrites uv.lock; it fails where the lock no longer
			// matches pyproject.toml, as uv sync --locked does in CI.
			cmd = "uv run --locked " + uvSelect(pyproject, "pytest") + "pytest -q"
		case runner != "":
			cmd = runner + " run pytest -q"
		case venv:
			cmd = ".venv/bin/python -m pytest -q"
		}
		p.add("test", "pytest", cmd, detectTestTimeout, nil)
		// Where pytest is not installed, the standard library's runner runs a tests directory
		// of unittest's TestCases: on standby, for init to prove when pytest fails.
		tests := "tests"
		if !d.dirs[tests] {
			tests = "test"
		}
		if runner == "" && d.dirs[tests] {
			py := "python3"
			if venv {
				py = ".venv/bin/python"
			}
			retry := true
			p.dropped = append(p.dropped, droppedCheck{config.Check{Command: py + " -m unittest discover -s " + tests,
				Timeout: config.Duration{D: detectTestTimeout}, RetryOnFailure: &retry, MaxRetries: detectMaxRetries}, "test", "unittest"})
		}
	}
	if ruff != "" {
		detail = append(detail, "ruff ("+ruff+")")
		// --no-fix: a check reports, it never changes the person's files, whatever the
		// configuration's fix = true says.
		cmd := "ruff check --no-fix ."
		if runner == "uv" {
			cmd = "uv run --locked " + uvSelect(pyproject, "ruff") + cmd
		} else if runner != "" {
			cmd = runner + " run " + cmd
		} else if fi, err := fs.Stat(det.fsys, path.Join(d.dir, ".venv/bin/ruff")); venv && err == nil && !fi.IsDir() {
			cmd = ".venv/bin/" + cmd
		}
		p.add("lint", "ruff", cmd, detectLintTimeout, nil)
	}
	if len(detail) == 0 {
		detail = append(detail, "no pytest configuration or tests directory, no ruff configuration")
	}
	if runner == "" && !venv && len(p.Checks) > 0 {
		var tools []string
		if pytest != "" {
			tools = append(tools, "python3")
		}
		if ruff != "" {
			tools = append(tools, "ruff")
		}
		p.Notes = append(p.Notes, fmt.Sprintf("%s: the ones on your PATH when hooksup starts; activate the project's virtualenv first, or edit the commands",
			strings.Join(tools, " and ")))
	}
	p.Detail = strings.Join(detail, ", ")
	return p
}

// venv reports whether the directory holds a virtualenv, .venv.
func (d *dirInfo) venv(det *detector) bool {
	fi, err := fs.Stat(det.fsys, path.Join(d.dir, ".venv/bin/python"))
	return err == nil && !fi.IsDir()
}

func (d *dirInfo) rustProject(det *detector) *detected {
	if d.cargo == "" {
		return nil
	}
	if d.dir != "." && iniHasSection(det.root.cargo, "workspace", true) {
		return nil // a member of the root's workspace: the root's --workspace checks cover it
	}
	if cargoFuzzRe().MatchString(d.cargo) {
		// Its targets are test = false and it builds with cargo fuzz on nightly: the crate's
		// own checks build what it fuzzes.
		return &detected{problem: true, Project: Project{Kind: "cargo-fuzz harness (Cargo.toml, cargo-fuzz = true)",
			Detail: "no checks: cargo fuzz runs it, on nightly"}}
	}
	p := &detected{Project: Project{Kind: "Rust crate (Cargo.toml)",
		Notes: []string{"clippy needs its component: rustup component add clippy"}}}
	ws := ""
	if iniHasSection(d.cargo, "workspace", true) {
		p.Kind, ws = "Rust workspace (Cargo.toml [workspace])", " --workspace"
	}
	p.add("test", "cargo test", "cargo test"+ws, detectRustTimeout, nil)
	p.add("lint", "cargo clippy", "cargo clippy"+ws+" -- -D warnings", detectRustTimeout, nil)
	return p
}

// cargoFuzzRe matches the metadata line by which cargo fuzz marks its harness's Cargo.toml.
var cargoFuzzRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*cargo-fuzz\s*=\s*true\b`) })

func (d *dirInfo) makeProject() *detected {
	if d.makefile == "" {
		return nil
	}
	p := &detected{Project: Project{Kind: "Makefile with a test target"}}
	if d.makefile != "Makefile" {
		p.Kind = d.makefile + " with a test target"
	}
	if what, in := makeFetches(d.makeContent, "test", 0); what != "" {
		p.problem = true
		p.Detail = fmt.Sprintf("no check: `make test` fetches from the network (%s, in %s)", what, in)
		return p
	}
	p.add("test", "make test", "make test", detectTestTimeout, nil)
	return p
}

// makeRuleRe matches a rule's targets: "test:", "test check: build", "test:: x"; not the
// assignments "test := x", "test ::= x", nor recipe lines.
var makeRuleRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^([^\s:#=][^:#=]*?)\s*::?(?:[^=]|$)`) })

// makeHasTarget reports whether a makefile defines the target.
func makeHasTarget(content, target string) bool {
	for _, m := range makeRuleRe().FindAllStringSubmatch(content, -1) {
		if slices.Contains(strings.Fields(m[1]), target) {
			return true
		}
	}
	return false
}

// nameChecks gives every check its final name and cwd: a directory with several kinds of
// project names each check by its tool ("go test"), a sub-project's checks carry its
// directory's name ("web: test", its path when two have the same name), and what is still the
// same gets a number.
func nameChecks(dirs []*dirProjects) []Project {
	label := map[string]string{}
	count := map[string]int{}
	for _, dp := range dirs {
		if dp.dir != "." {
			count[path.Base(dp.dir)]++
		}
	}
	for _, dp := range dirs {
		switch {
		case dp.dir == ".":
		case count[path.Base(dp.dir)] > 1:
			label[dp.dir] = dp.dir + ": "
		default:
			label[dp.dir] = path.Base(dp.dir) + ": "
		}
	}
	var out []Project
	seen := map[string]int{}
	for _, dp := range dirs {
		kinds := 0
		for _, p := range dp.projects {
			// A tool that the maintainers run (tox, nox, pre-commit) stands in for the checks
			// of its roles: its checks are named by their role alone.
			if p.tool == "" && slices.Contains(p.off, "") {
				kinds++
			}
		}
		for _, p := range dp.projects {
			for i := range p.Checks {
				name := p.short[i]
				switch {
				case p.name[i] != "":
					name = p.name[i]
				case kinds > 1:
					name = p.long[i]
				}
				name = label[dp.dir] + name
				if seen[name]++; seen[name] > 1 {
					name = fmt.Sprintf("%s (%d)", name, seen[name])
				}
				p.Checks[i].Name = name
				p.meta = append(p.meta, checkMeta{role: p.short[i], from: p.from[i], notes: p.notes[i], off: p.off[i], spare: p.off[i] == ciDoesNotRun})
				if dp.dir != "." {
					p.Checks[i].Cwd = dp.dir
				}
			}
		}
	}
	// The standby checks, after all the others: by their short name when no check has it,
	// else by their tool's.
	for _, dp := range dirs {
		for _, p := range dp.projects {
			for _, dc := range p.dropped {
				c := dc.check
				name := label[dp.dir] + dc.short
				if seen[name] > 0 {
					name = label[dp.dir] + dc.long
				}
				if seen[name]++; seen[name] > 1 {
					name = fmt.Sprintf("%s (%d)", name, seen[name])
				}
				c.Name = name
				if dp.dir != "." {
					c.Cwd = dp.dir
				}
				p.standby = append(p.standby, c)
				p.standbyMeta = append(p.standbyMeta, checkMeta{role: dc.short, spare: true})
			}
			out = append(out, p.Project)
		}
	}
	return out
}

// ciDoesNotRun is why a check of a role the CI does not run is written commented out.
const ciDoesNotRun = "the project's CI does not run it"

// uvSelect is the uv run option that installs the package pkg where pyproject.toml keeps it in
// a dependency group uv does not install by default ("--group test "), or in an extra
// ("--extra test "); "" when uv run installs it as it is (the project's dependencies, the dev
// group, tool.uv's default-groups) or pyproject.toml does not name it.
func uvSelect(pyproject, pkg string) string {
	var py struct {
		Project struct {
			Dependencies []string            `toml:"dependencies"`
			Optional     map[string][]string `toml:"optional-dependencies"`
		} `toml:"project"`
		Groups map[string][]any `toml:"dependency-groups"`
		Tool   struct {
			UV struct {
				DefaultGroups any      `toml:"default-groups"`
				DevDeps       []string `toml:"dev-dependencies"`
			} `toml:"uv"`
		} `toml:"tool"`
	}
	if _, err := toml.Decode(pyproject, &py); err != nil {
		return ""
	}
	names := func(reqs []any) bool {
		return slices.ContainsFunc(reqs, func(r any) bool {
			s, ok := r.(string)
			return ok && requirementName(s) == pkg
		})
	}
	strs := func(reqs []string) []any {
		out := make([]any, len(reqs))
		for i, r := range reqs {
			out[i] = r
		}
		return out
	}
	if names(strs(py.Project.Dependencies)) || names(strs(py.Tool.UV.DevDeps)) {
		return ""
	}
	defaults := []string{"dev"}
	switch g := py.Tool.UV.DefaultGroups.(type) {
	case string: // "all"
		if g == "all" {
			return ""
		}
	case []any:
		defaults = nil
		for _, e := range g {
			if s, ok := e.(string); ok {
				defaults = append(defaults, s)
			}
		}
	}
	for _, g := range slices.Sorted(maps.Keys(py.Groups)) {
		if names(py.Groups[g]) {
			if slices.Contains(defaults, g) {
				return ""
			}
			return "--group " + g + " "
		}
	}
	for _, e := range slices.Sorted(maps.Keys(py.Project.Optional)) {
		if names(strs(py.Project.Optional[e])) {
			return "--extra " + e + " "
		}
	}
	return ""
}

// requirementName is the normalised package name of a requirement: "pytest" for
// "pytest>=8; python_version > '3.9'", "Pytest_Cov[toml]" is "pytest-cov".
func requirementName(req string) string {
	if i := strings.IndexAny(req, " <>=!~;[(@"); i >= 0 {
		req = req[:i]
	}
	return strings.ReplaceAll(strings.ReplaceAll(strings.ToLower(strings.TrimSpace(req)), "_", "-"), ".", "-")
}
