package project

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
)

// What a Python project's maintainers run besides its CI: tox's environments (tox.ini, setup.cfg's
// [tox:tox], pyproject.toml's [tool.tox], tox.toml), nox's sessions (noxfile.py) and
// pre-commit's hooks (.pre-commit-config.yaml). Each is a project of
// its directory whose checks run the tool itself, so its environments and configuration are the
// maintainers'.

// toolRole is the role of one command of a tox environment or nox session: test, lint, format
// or typecheck, "" for anything else (docs, build, install); fixes is why it changes files.
func toolRole(line string) (role, fixes string) {
	f := strings.Fields(line)
	for len(f) > 0 && (strings.Contains(f[0], "=") && !strings.HasPrefix(f[0], "-") || f[0] == "uv" || f[0] == "poetry" || f[0] == "pdm") {
		if f[0] == "uv" || f[0] == "poetry" || f[0] == "pdm" {
			if len(f) < 2 || f[1] != "run" {
				return "", ""
			}
			f = f[2:]
			continue
		}
		f = f[1:]
	}
	// python -m X, coverage run -m X
	for len(f) > 2 && (strings.HasPrefix(path.Base(f[0]), "python") || f[0] == "{envpython}" || f[0] == "coverage" && f[1] == "run") {
		i := slices.Index(f, "-m")
		if i < 0 || i+1 >= len(f) {
			return "", ""
		}
		f = f[i+1:]
	}
	if len(f) == 0 {
		return "", ""
	}
	has := func(flags ...string) bool {
		return slices.ContainsFunc(f, func(a string) bool { return slices.Contains(flags, a) })
	}
	check := func(role string, checkFlags ...string) (string, string) {
		if has(checkFlags...) {
			return role, ""
		}
		return role, fmt.Sprintf("`%s` changes files", strings.Join(f, " "))
	}
	arg1 := ""
	if len(f) > 1 {
		arg1 = f[1]
	}
	switch prog := path.Base(f[0]); {
	case prog == "pytest" || prog == "py.test" || prog == "unittest" || prog == "stestr" || prog == "trial":
		return "test", ""
	case prog == "ruff" && arg1 == "format":
		return check("format", "--check", "--diff")
	case prog == "ruff":
		if has("--fix") {
			return "lint", fmt.Sprintf("`%s` changes files", strings.Join(f, " "))
		}
		return "lint", ""
	case prog == "flake8" || prog == "pylint" || prog == "pyflakes" || prog == "pycodestyle" || prog == "codespell" && !has("-w", "--write-changes"):
		return "lint", ""
	case prog == "pre-commit" && arg1 == "run":
		return "lint", fmt.Sprintf("`%s` runs the project's pre-commit hooks, which may fix files", strings.Join(f, " "))
	case prog == "mypy" || prog == "pyright" || prog == "basedpyright":
		return "typecheck", ""
	case prog == "black":
		return check("format", "--check", "--diff")
	case prog == "isort":
		return check("format", "--check", "--check-only", "-c", "--diff")
	}
	return "", ""
}

// iniSections reads an ini file: each section's keys and their values, continuation lines
// (indented) joined with newlines, comments out.
func iniSections(content string) map[string]map[string]string {
	out := map[string]map[string]string{}
	var sec map[string]string
	key := ""
	for _, raw := range strings.Split(content, "\n") {
		l := strings.TrimRight(raw, " \r\t")
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, ";") {
			continue
		}
		if strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") && l == t {
			sec = map[string]string{}
			out[strings.TrimSpace(t[1:len(t)-1])] = sec
			key = ""
			continue
		}
		if sec == nil {
			continue
		}
		if l != t && key != "" { // a continuation
			sec[key] = strings.TrimSpace(sec[key] + "\n" + t)
			continue
		}
		k, v, ok := strings.Cut(t, "=")
		if !ok {
			continue
		}
		key = strings.TrimSpace(k)
		sec[key] = strings.TrimSpace(v)
	}
	return out
}

// expandBraces expands tox's generative names: py3{8,9}-tests is py38-tests, py39-tests.
func expandBraces(s string) []string {
	i := strings.Index(s, "{")
	j := strings.Index(s, "}")
	if i < 0 || j < i {
		return []string{s}
	}
	var out []string
	for _, alt := range strings.Split(s[i+1:j], ",") {
		for _, rest := range expandBraces(s[j+1:]) {
			out = append(out, s[:i]+strings.TrimSpace(alt)+rest)
		}
	}
	return out
}

// splitList splits a tox list (commas or lines) outside braces.
func splitList(s string) []string {
	var out []string
	depth, cur := 0, ""
	for _, r := range s {
		switch {
		case r == '{':
			depth++
		case r == '}':
			depth--
		case (r == ',' || r == '\n') && depth == 0:
			out = append(out, strings.TrimSpace(cur))
			cur = ""
			continue
		}
		cur += string(r)
	}
	out = append(out, strings.TrimSpace(cur))
	return slices.DeleteFunc(out, func(s string) bool { return s == "" })
}

// pyFactorRe matches the factor of a tox environment's name that picks the interpreter.
var pyFactorRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^((py|pypy|cpython)\d*(\.\d+)?|\d\.\d+)$`) })

// toxEnvCommands are the commands tox runs in env (its name as in envlist): its own section's,
// else [testenv]'s, keeping the lines whose factor conditions ("lint: ruff check") it meets.
func toxEnvCommands(ini map[string]map[string]string, env string) (cmds []string, section string) {
	section = "testenv:" + env
	s, ok := ini[section]
	if !ok || s["commands"] == "" {
		section, s = "testenv", ini["testenv"]
	}
	factors := strings.Split(env, "-")
	for _, l := range strings.Split(s["commands"], "\n") {
		l = strings.TrimSpace(l)
		if cond, cmd, ok := strings.Cut(l, ":"); ok && !strings.ContainsAny(cond, " {") {
			if !slices.ContainsFunc(strings.Split(cond, ","), func(c string) bool {
				c = strings.TrimSpace(c)
				if neg, ok := strings.CutPrefix(c, "!"); ok {
					return !slices.Contains(factors, neg)
				}
				return slices.Contains(factors, c)
			}) {
				continue
			}
			l = strings.TrimSpace(cmd)
		}
		l = strings.TrimPrefix(l, "- ") // tox's "ignore the exit code"
		if l != "" {
			cmds = append(cmds, l)
		}
	}
	return cmds, section
}

// toxProject proposes `tox -e ENV` for the first environment of envlist of each role, the
// interpreter's factor made py (the python tox runs with: the envlist's py38…py313 need
// interpreters a machine seldom has all of).
func (d *dirInfo) toxProject(det *detector) *detected {
	ini, file := det.toxConfig(d)
	if ini == nil {
		return nil
	}
	list := ini["tox"]["envlist"]
	if list == "" {
		list = ini["tox"]["env_list"]
	}
	var envs []string
	for _, item := range splitList(list) {
		for _, e := range expandBraces(item) {
			fs := strings.Split(e, "-")
			var orig = e
			for i, f := range fs {
				if pyFactorRe().MatchString(f) {
					fs[i] = "py"
				}
			}
			e = strings.Join(fs, "-")
			if _, own := ini["testenv:"+orig]; own {
				e = orig // its own section: as named
			}
			if !slices.Contains(envs, e) {
				envs = append(envs, e)
			}
		}
	}
	if len(envs) == 0 && ini["testenv"]["commands"] != "" {
		envs = []string{"py"} // what tox runs without an envlist
	}
	p := &detected{tool: "tox", Project: Project{Kind: "tox (" + file + ")", Notes: []string{
		"tox builds an environment's virtualenv on its first run (pip needs the network then); later runs reuse it"}}}
	runs := toolRuns{p: p, roles: map[string]string{}}
	for _, e := range envs {
		cmds, section := toxEnvCommands(ini, e)
		role, fixes, _ := strongestRole(cmds)
		runs.consider(e, role, fixes, "tox -e "+e, fmt.Sprintf("%s, env %s [%s]: %s", file, e, section, strings.Join(cmds, "; ")))
	}
	return runs.finish("envs")
}

// toxConfig is the directory's tox configuration as tox.ini's sections, and the file that holds
// it, in tox's own order: tox.ini; setup.cfg's [tox:tox]; pyproject.toml's [tool.tox], its
// legacy_tox_ini string or its native tables; tox.toml. nil when there is none.
func (det *detector) toxConfig(d *dirInfo) (map[string]map[string]string, string) {
	read := func(name string) string { return det.read(path.Join(d.dir, name)) }
	if d.files["tox.ini"] {
		return iniSections(read("tox.ini")), "tox.ini"
	}
	if d.files["setup.cfg"] {
		if ini := iniSections(read("setup.cfg")); ini["tox:tox"] != nil {
			ini["tox"] = ini["tox:tox"]
			return ini, "setup.cfg [tox:tox]"
		}
	}
	if d.files["pyproject.toml"] {
		var py struct {
			Tool struct {
				Tox map[string]any `toml:"tox"`
			} `toml:"tool"`
		}
		if _, err := toml.Decode(read("pyproject.toml"), &py); err == nil && py.Tool.Tox != nil {
			if legacy, ok := py.Tool.Tox["legacy_tox_ini"].(string); ok {
				return iniSections(legacy), "pyproject.toml [tool.tox] legacy_tox_ini"
			}
			return toxNative(py.Tool.Tox), "pyproject.toml [tool.tox]"
		}
	}
	if d.files["tox.toml"] {
		var native map[string]any
		if _, err := toml.Decode(read("tox.toml"), &native); err == nil {
			return toxNative(native), "tox.toml"
		}
	}
	return nil, ""
}

// toxNative writes tox's TOML configuration (env_list, env_run_base, env.NAME) as tox.ini's
// sections: a command's words joined, a replacement ({replace = "posargs", default = […]})
// as its default's words.
func toxNative(t map[string]any) map[string]map[string]string {
	words := func(v any) []string {
		var out []string
		var walk func(any)
		walk = func(v any) {
			switch x := v.(type) {
			case string:
				out = append(out, x)
			case []any:
				for _, e := range x {
					walk(e)
				}
			case map[string]any:
				if def, ok := x["default"]; ok {
					walk(def)
				} else if r, _ := x["replace"].(string); r == "posargs" {
					out = append(out, "{posargs}")
				}
			}
		}
		walk(v)
		return out
	}
	commands := func(env any) string {
		m, _ := env.(map[string]any)
		cmds, _ := m["commands"].([]any)
		var lines []string
		for _, c := range cmds {
			if w := words(c); len(w) > 0 {
				lines = append(lines, strings.Join(w, " "))
			}
		}
		return strings.Join(lines, "\n")
	}
	ini := map[string]map[string]string{"tox": {"envlist": strings.Join(words(t["env_list"]), ",")}}
	ini["testenv"] = map[string]string{"commands": commands(t["env_run_base"])}
	envs, _ := t["env"].(map[string]any)
	for name, e := range envs {
		ini["testenv:"+name] = map[string]string{"commands": commands(e)}
	}
	return ini
}

// toolRuns collects the checks of a tool that runs named environments or sessions (tox, nox):
// the first of each role, and why each other one was left out.
type toolRuns struct {
	p         *detected
	roles     map[string]string // role → the name that runs it
	ran, left []string
}

// consider proposes cmd for the environment or session name, whose commands have role and, if
// any changes files, fixes (the reason), unless an earlier one has the role.
func (t *toolRuns) consider(name, role, fixes, cmd, from string) {
	switch {
	case role == "":
		return
	case fixes != "":
		t.left = append(t.left, fmt.Sprintf("%s (%s)", name, fixes))
		return
	case t.roles[role] != "":
		t.left = append(t.left, fmt.Sprintf("%s (%s runs the %s)", name, t.roles[role], plural(role)))
		return
	}
	t.roles[role] = name
	t.ran = append(t.ran, name)
	t.p.add(role, t.p.tool+" "+role, cmd, detectTestTimeout, nil)
	t.p.from[len(t.p.from)-1] = from
}

// finish is the tool's project, its detail naming the noun ("envs", "sessions") that ran and
// those left out; nil when it has none of either.
func (t *toolRuns) finish(noun string) *detected {
	if len(t.ran) == 0 && len(t.left) == 0 {
		return nil
	}
	var detail []string
	if len(t.ran) > 0 {
		detail = append(detail, noun+" "+strings.Join(t.ran, ", "))
	} else {
		t.p.problem = true
		detail = append(detail, "no checks")
	}
	if len(t.left) > 0 {
		detail = append(detail, "left out: "+strings.Join(t.left, ", "))
	}
	t.p.Detail = strings.Join(detail, "; ")
	return t.p
}

// strongestRole is the role of a list of commands, the first in roleOrder that one of them has,
// with that command; fixes is why one of them changes files ("" when none does).
func strongestRole(cmds []string) (role, fixes, what string) {
	for _, c := range cmds {
		r, fx := toolRole(c)
		if fx != "" && fixes == "" {
			fixes = fx
		}
		if r != "" && (role == "" || slices.Index(roleOrder, r) < slices.Index(roleOrder, role)) {
			role, what = r, c
		}
	}
	return role, fixes, what
}

// plural names the checks of a role: tests, linters, format checks, type checks.
func plural(role string) string {
	switch role {
	case "test":
		return "tests"
	case "lint":
		return "linters"
	case "format":
		return "format check"
	}
	return "type check"
}

// noxSessionRe matches a nox session's decorator, its arguments (over lines too), and the
// function below it.
var noxSessionRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^@(?:nox\.)?session\b(\([^)]*\))?[^\n]*\n(?:@[^\n]*\n)*def\s+(\w+)\s*\(`)
})

// noxRunRe matches session.run("tool", "arg", …): the call's arguments, over lines too.
var noxRunRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`session\.run\(([^)]*)`) })

// noxNameRe matches a session's name= in its decorator.
var noxNameRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`name\s*=\s*["']([^"']+)["']`) })

// leftMarginRe matches the start of a line at the left margin: the end of a function's body.
var leftMarginRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\n\S`) })

// quotedRe matches a Python string literal, in double or single quotes.
var quotedRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"([^"]*)"|'([^']*)'`) })

// noxProject proposes `nox -R -s NAME` for each session of noxfile.py that tests, lints or
// type-checks and changes no files: -R reuses the session's virtualenv and skips its installs
// once it exists, where nox would otherwise build it anew, from the network, at every stop.
func (d *dirInfo) noxProject(det *detector) *detected {
	if !d.files["noxfile.py"] {
		return nil
	}
	src := strings.ReplaceAll(det.read(path.Join(d.dir, "noxfile.py")), "\r", "")
	p := &detected{tool: "nox", Project: Project{Kind: "nox (noxfile.py)", Notes: []string{
		"nox -R reuses a session's virtualenv and skips its installs once it exists; its first run builds it (pip needs the network then)"}}}
	runs := toolRuns{p: p, roles: map[string]string{}}
	for _, m := range noxSessionRe().FindAllStringSubmatchIndex(src, -1) {
		args, name := "", src[m[4]:m[5]]
		if m[2] >= 0 {
			args = src[m[2]:m[3]]
		}
		if n := noxNameRe().FindStringSubmatch(args); n != nil {
			name = n[1]
		}
		// The body: the lines after the def, up to the next line at the left margin.
		body := src[m[1]:]
		if i := leftMarginRe().FindStringIndex(body); i != nil {
			body = body[:i[0]]
		}
		var lines []string
		for _, r := range noxRunRe().FindAllStringSubmatch(body, -1) {
			var words []string
			for _, q := range quotedRe().FindAllStringSubmatch(r[1], -1) {
				words = append(words, q[1]+q[2])
			}
			lines = append(lines, strings.Join(words, " "))
		}
		role, fixes, what := strongestRole(lines)
		if role == "" && fixes == "" {
			// Its commands are the code's to compute (session.run(*args)): its name says what
			// it is, when it tests or lints, never when it may format.
			if role = noxRoleOfName(name); role != "" {
				what = "named so, its commands computed"
			}
		}
		runs.consider(name, role, fixes, "nox -R -s "+name, fmt.Sprintf("noxfile.py, session %s: %s", name, what))
	}
	return runs.finish("sessions")
}

// preCommitHook is one hook of .pre-commit-config.yaml.
type preCommitHook struct {
	id, args, entry string
}

// preCommitHooks reads the hooks of a .pre-commit-config.yaml, and whether it configures
// pre-commit.ci (a top-level ci: key).
func preCommitHooks(content string) (hooks []preCommitHook, ci bool) {
	var cur *preCommitHook
	at, argsAt := -1, -1 // the hook's keys' indentation; that of args: when its list is a block
	for _, raw := range strings.Split(strings.ReplaceAll(content, "\t", "    "), "\n") {
		l := strings.TrimRight(raw, " \r")
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		ind := indentOf(l)
		if ind == 0 && strings.HasPrefix(t, "ci:") {
			ci = true
		}
		if item, ok := strings.CutPrefix(t, "- "); ok && strings.HasPrefix(strings.TrimSpace(item), "id:") {
			hooks = append(hooks, preCommitHook{})
			cur, at = &hooks[len(hooks)-1], ind+2
			t, ind = strings.TrimSpace(item), ind+2
		}
		if cur == nil {
			continue
		}
		if ind < at {
			cur = nil
			continue
		}
		if argsAt >= 0 && ind > argsAt && strings.HasPrefix(t, "- ") {
			cur.args += "," + strings.TrimSpace(t[2:])
			continue
		}
		argsAt = -1
		k, v, _ := strings.Cut(t, ":")
		v = unquote(strings.TrimSpace(v))
		switch strings.TrimSpace(k) {
		case "id":
			cur.id = v
		case "args":
			cur.args = strings.Trim(v, "[]")
			if v == "" {
				argsAt = ind
			}
		case "entry":
			cur.entry = v
		}
	}
	return hooks, ci
}

// preCommitFixers are the hooks that change files whatever their arguments.
var preCommitFixers = []string{
	"trailing-whitespace", "end-of-file-fixer", "mixed-line-ending", "fix-byte-order-marker",
	"fix-encoding-pragma", "requirements-txt-fixer", "sort-simple-yaml", "double-quote-string-fixer",
	"file-contents-sorter", "pyupgrade", "autopep8", "add-trailing-comma", "reorder-python-imports",
	"docformatter", "autoflake", "nbstripout", "go-fmt", "go-imports", "clang-format", "blacken-docs",
	"insert-license", "pyproject-fmt", "setup-cfg-fmt", "remove-crlf", "remove-tabs", "absolufy-imports",
}

// preCommitFormatters change files unless their arguments ask for a check.
var preCommitFormatters = []string{"black", "black-jupyter", "isort", "ruff-format", "prettier", "fmt", "mdformat", "gofmt", "rustfmt"}

// preCommitFixes is why a hook changes files, "" when it only reports.
func preCommitFixes(h preCommitHook, ruffFixes bool) string {
	// Its arguments, and a local hook's entry: what the hook's command line says.
	args := strings.Fields(strings.ReplaceAll(h.args, ",", " ") + " " + h.entry)
	for i := range args {
		args[i] = unquote(args[i])
	}
	has := func(flags ...string) bool {
		return slices.ContainsFunc(args, func(a string) bool {
			a, _, _ = strings.Cut(a, "=")
			return slices.Contains(flags, a)
		})
	}
	switch {
	case slices.Contains(preCommitFixers, h.id):
		return "it fixes files"
	case slices.Contains(preCommitFormatters, h.id):
		if !has("--check", "--check-only", "--diff", "-c") {
			return "it formats files in place"
		}
	case has("--fix", "--write", "-w", "--autofix", "--in-place", "-i", "--write-changes"):
		return "its arguments fix files"
	case (h.id == "ruff" || h.id == "ruff-check") && ruffFixes && !has("--no-fix"):
		return "the ruff configuration says fix = true"
	case h.id == "no-commit-to-branch":
		return "it guards a branch from commits, not the files"
	case h.entry != "":
		if _, fx := toolRole(h.entry + " " + strings.Join(args, " ")); fx != "" {
			return "its entry changes files"
		}
	}
	return ""
}

// ruffFixRe matches ruff's fix = true.
var ruffFixRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*fix\s*=\s*true\b`) })

// preCommitProject proposes `pre-commit run --all-files` when pre-commit is the project's gate
// (pre-commit.ci runs it, its CI runs it, or it has no CI), in check mode: the hooks that fix
// files are skipped (SKIP), and when all of them do there is no check.
func (d *dirInfo) preCommitProject(det *detector) *detected {
	if d.dir != "." || !d.files[".pre-commit-config.yaml"] {
		return nil // pre-commit runs on the repository's root and reads the configuration there
	}
	hooks, ci := preCommitHooks(det.read(path.Join(d.dir, ".pre-commit-config.yaml")))
	if len(hooks) == 0 {
		return nil
	}
	ruffFixes := false
	for _, f := range []string{"ruff.toml", ".ruff.toml", "pyproject.toml"} {
		if d.files[f] && ruffFixRe().MatchString(det.read(path.Join(d.dir, f))) {
			ruffFixes = true
		}
	}
	p := &detected{tool: "pre-commit", Project: Project{Kind: "pre-commit (.pre-commit-config.yaml)", Notes: []string{
		"pre-commit installs its hooks' environments on the first run (it needs the network then); later runs reuse them"}}}
	var run, skip, why []string
	var instead []preCommitCheck
	for _, h := range hooks {
		if fx := preCommitFixes(h, ruffFixes); fx != "" {
			if !slices.Contains(skip, h.id) {
				skip = append(skip, h.id)
				why = append(why, fmt.Sprintf("%s (%s)", h.id, fx))
				if c, ok := preCommitChecking(h); ok {
					instead = append(instead, c)
				}
			}
			continue
		}
		run = append(run, h.id)
	}
	if ci {
		p.ciRun = "pre-commit.ci (the ci: key of .pre-commit-config.yaml)"
	}
	if len(run) == 0 && len(instead) == 0 {
		p.problem = true
		p.Detail = "no check: every hook changes files: " + strings.Join(why, ", ")
		return p
	}
	var detail []string
	if len(run) > 0 {
		var env map[string]string
		if len(skip) > 0 {
			env = map[string]string{"SKIP": strings.Join(skip, ",")}
		}
		p.add("lint", "pre-commit lint", "pre-commit run --all-files", detectTestTimeout, env)
		p.from[len(p.from)-1] = ".pre-commit-config.yaml"
		detail = append(detail, "hooks "+strings.Join(run, ", "))
	}
	if len(skip) > 0 {
		detail = append(detail, "skipped, as they change files: "+strings.Join(why, ", "))
	}
	// The formatters and ruff, skipped, run in their check mode instead: what they would fix
	// fails the check, and nothing is changed. Each is named by its tool ("ruff lint", "black
	// format"), never by its role alone: "lint" is pre-commit's own check, which stands in for
	// the other projects' lint checks of the directory, and two formatters may share a role.
	var checking []string
	for _, c := range instead {
		p.add(c.role, c.name, c.command, detectLintTimeout, nil)
		p.name[len(p.name)-1] = c.name
		p.from[len(p.from)-1] = fmt.Sprintf(".pre-commit-config.yaml, hook %s, in check mode", c.hook)
		checking = append(checking, "`"+c.command+"`")
	}
	if len(instead) > 0 {
		detail = append(detail, "in check mode instead: "+strings.Join(checking, ", "))
		p.Notes = append(p.Notes, "the formatters and linters in check mode are the ones on your PATH (pre-commit keeps its own copies in its environments)")
	}
	p.Detail = strings.Join(detail, "; ")
	return p
}

// preCommitCheck is the check-mode command of a hook that fixes files.
type preCommitCheck struct {
	hook, role, name, command string
}

// preCommitChecking is the command that reports what a fixing hook would change, without
// changing it: ruff check --no-fix, ruff format --check, black --check, isort --check-only,
// prettier --check, with the hook's own arguments but those that fix.
func preCommitChecking(h preCommitHook) (preCommitCheck, bool) {
	if h.entry != "" {
		return preCommitCheck{}, false // a local hook's own command
	}
	var args []string
	for _, a := range strings.Split(h.args, ",") {
		for _, w := range strings.Fields(a) {
			w = unquote(w)
			name, _, _ := strings.Cut(w, "=")
			if !slices.Contains([]string{"--fix", "--unsafe-fixes", "--exit-non-zero-on-fix", "--show-fixes", "--write", "-w"}, name) {
				args = append(args, w)
			}
		}
	}
	words := func(w ...string) string { return strings.Join(append(w, args...), " ") }
	switch h.id {
	case "ruff", "ruff-check":
		return preCommitCheck{h.id, "lint", "ruff lint", words("ruff", "check", "--no-fix")}, true
	case "ruff-format":
		return preCommitCheck{h.id, "format", "ruff format", words("ruff", "format", "--check")}, true
	case "black", "black-jupyter":
		return preCommitCheck{h.id, "format", "black format", words("black", "--check") + " ."}, true
	case "isort":
		return preCommitCheck{h.id, "format", "isort format", words("isort", "--check-only") + " ."}, true
	case "prettier":
		return preCommitCheck{h.id, "format", "prettier format", words("prettier", "--check") + " ."}, true
	}
	return preCommitCheck{}, false
}

// hasTox reports whether the directory has a tox configuration.
func (det *detector) hasTox(d *dirInfo) bool {
	ini, _ := det.toxConfig(d)
	return ini != nil
}

// noxRoleOfName is the role of a nox session by its name: tests (tests, unit, pytest,
// integration-tests), lint (lint, flake8, ruff), typecheck (typecheck, type-check, mypy); ""
// for any other, a formatter's among them (it may change files).
func noxRoleOfName(name string) string {
	n := strings.ToLower(name)
	switch {
	case strings.Contains(n, "type") || n == "mypy" || n == "pyright":
		return "typecheck"
	case strings.Contains(n, "lint") || n == "flake8" || n == "ruff":
		return "lint"
	case strings.Contains(n, "test") || n == "unit" || n == "pytest":
		return "test"
	}
	return ""
}
