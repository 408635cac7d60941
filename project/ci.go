package project

import (
	"cmp"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// ciStep is one step of a GitHub Actions job, as far as init reads it.
type ciStep struct {
	file, job, name string
	run             string            // the shell script; "" for a uses step
	uses            string            // the action; "" for a run step
	with            map[string]string // the action's inputs
	secrets         bool              // the step reads a secret
	services        bool              // its job starts services (a database, …)
	workdir         string            // working-directory
	// env is what the workflow, the job and the step set for it (the step's winning), its
	// plain values only: one from an expression (${{ … }}) is the workflow's to know.
	env map[string]string
}

// where names the step in a comment: `.github/workflows/ci.yml, job "test", step "Run tests"`.
func (s ciStep) where() string {
	name := s.name
	if name == "" {
		name = oneLine(s.run)
		if name == "" {
			name = s.uses
		}
	}
	return fmt.Sprintf("%s, job %q, step %q", s.file, s.job, name)
}

// workflowSteps reads the steps of the GitHub Actions workflows in .github/workflows.
func (det *detector) workflowSteps() []ciStep {
	entries, err := fs.ReadDir(det.fsys, ".github/workflows")
	if err != nil {
		return nil
	}
	var out []ciStep
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !(strings.HasSuffix(n, ".yml") || strings.HasSuffix(n, ".yaml")) {
			continue
		}
		file := ".github/workflows/" + n
		out = append(out, parseWorkflow(file, det.read(file))...)
	}
	return out
}

// indentOf is a line's indentation.
func indentOf(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }

// parseWorkflow reads the jobs and steps of a workflow file, line by line: the subset of YAML
// workflows are written in (block mappings and sequences, block scalars for run).
func parseWorkflow(file, content string) []ciStep {
	lines := strings.Split(strings.ReplaceAll(content, "\t", "    "), "\n")
	var out []ciStep
	jobsAt, jobAt, stepsAt := -1, -1, -1
	job, services := "", false
	// defaults: run: working-directory: of the workflow, and of the job.
	wfWorkdir, jobWorkdir := "", ""
	// env: of the workflow, and of the job.
	wfEnv, jobEnv := map[string]string{}, map[string]string{}
	inWfEnv := false
	var step *ciStep
	stepKeyAt := -1
	flush := func() {
		if step != nil {
			step.services = services
			if step.workdir == "" {
				step.workdir = cmp.Or(jobWorkdir, wfWorkdir)
			}
			env := map[string]string{}
			for _, m := range []map[string]string{wfEnv, jobEnv, step.env} {
				for k, v := range m {
					env[k] = v
				}
			}
			step.env = env
			out = append(out, *step)
			step = nil
		}
	}
	for i := 0; i < len(lines); i++ {
		raw := strings.TrimRight(lines[i], " \r")
		t := strings.TrimSpace(raw)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		ind := indentOf(raw)
		switch {
		case ind == 0:
			flush()
			jobsAt, jobAt, stepsAt, job = -1, -1, -1, ""
			if t == "jobs:" {
				jobsAt = 0
			}
			inWfEnv = t == "env:"
			continue
		case jobsAt < 0:
			if w, ok := strings.CutPrefix(t, "working-directory:"); ok {
				wfWorkdir = unquote(strings.TrimSpace(w))
			}
			if inWfEnv {
				envLine(wfEnv, t)
			}
			continue
		case jobAt < 0 || ind <= jobAt:
			// A job's name.
			flush()
			jobAt, stepsAt, services, jobWorkdir, jobEnv = ind, -1, false, "", map[string]string{}
			job = strings.TrimSuffix(t, ":")
			continue
		}
		if stepsAt >= 0 && ind < stepsAt || stepsAt >= 0 && ind == stepsAt && !strings.HasPrefix(t, "- ") {
			flush()
			stepsAt = -1
		}
		if stepsAt < 0 {
			switch {
			case t == "steps:":
				stepsAt = itemIndent(lines[i+1:], ind)
			case strings.HasPrefix(t, "services:"):
				services = true
			case strings.HasPrefix(t, "working-directory:"): // under defaults: run:
				jobWorkdir = unquote(strings.TrimSpace(strings.TrimPrefix(t, "working-directory:")))
			case t == "env:":
				for j := i + 1; j < len(lines); j++ {
					lj := strings.TrimRight(lines[j], " \r")
					if strings.TrimSpace(lj) != "" && indentOf(lj) <= ind {
						break
					}
					envLine(jobEnv, strings.TrimSpace(lj))
					i = j
				}
			}
			continue
		}
		if ind == stepsAt && strings.HasPrefix(t, "- ") {
			flush()
			step = &ciStep{file: file, job: job, with: map[string]string{}}
			stepKeyAt = ind + 2 + len(t[2:]) - len(strings.TrimLeft(t[2:], " "))
			t = strings.TrimLeft(t[2:], " ")
			ind = stepKeyAt
		}
		if step == nil {
			continue
		}
		if strings.Contains(t, "secrets.") {
			step.secrets = true
		}
		if ind != stepKeyAt {
			continue
		}
		key, val, ok := strings.Cut(t, ":")
		if !ok {
			continue
		}
		val = strings.TrimSpace(val)
		// A block below the key: a block scalar's lines, or a mapping's.
		var block []string
		for j := i + 1; j < len(lines); j++ {
			lj := strings.TrimRight(lines[j], " \r")
			if strings.TrimSpace(lj) != "" && indentOf(lj) <= ind {
				break
			}
			block = append(block, lj)
			i = j
		}
		for _, b := range block {
			if strings.Contains(b, "secrets.") {
				step.secrets = true
			}
		}
		switch key {
		case "name":
			step.name = unquote(val)
		case "uses":
			step.uses = unquote(val)
		case "working-directory":
			step.workdir = unquote(val)
		case "run":
			switch {
			case strings.HasPrefix(val, "|"):
				step.run = dedent(block)
			case strings.HasPrefix(val, ">"): // folded: its lines are one
				step.run = oneLine(dedent(block))
			default:
				step.run = unquote(val)
			}
		case "env":
			step.env = map[string]string{}
			for _, b := range block {
				if indentOf(b) > ind {
					envLine(step.env, strings.TrimSpace(b))
				}
			}
		case "with":
			for _, b := range block {
				k, v, ok := strings.Cut(strings.TrimSpace(b), ":")
				if ok && indentOf(b) > ind {
					step.with[k] = unquote(strings.TrimSpace(v))
				}
			}
		}
	}
	flush()
	return out
}

// envLine reads one "NAME: value" line of an env: mapping into env: a plain value, not one an
// expression gives (${{ … }}: a matrix's, a secret's), nor a comment.
func envLine(env map[string]string, t string) {
	if t == "" || strings.HasPrefix(t, "#") {
		return
	}
	k, v, ok := strings.Cut(t, ":")
	k = strings.TrimSpace(k)
	if !ok || k == "" || strings.ContainsAny(k, " {}[]\"'") {
		return
	}
	v = strings.TrimSpace(v)
	if i := strings.Index(v, " #"); i >= 0 && !strings.HasPrefix(v, "'") && !strings.HasPrefix(v, "\"") {
		v = strings.TrimSpace(v[:i])
	}
	if strings.Contains(v, "${{") || strings.HasPrefix(v, "|") || strings.HasPrefix(v, ">") {
		return
	}
	env[k] = unquote(v)
}

// itemIndent is the indentation of the list that starts the lines (at least min), -1 when
// they start no list.
func itemIndent(lines []string, min int) int {
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if strings.HasPrefix(t, "- ") && indentOf(l) >= min {
			return indentOf(l)
		}
		return -1
	}
	return -1
}

// unquote takes a YAML scalar's quotes off, and a trailing comment.
func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	if i := strings.Index(s, " #"); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	return s
}

// dedent is a block scalar's text.
func dedent(block []string) string {
	least := -1
	for _, l := range block {
		if strings.TrimSpace(l) != "" && (least < 0 || indentOf(l) < least) {
			least = indentOf(l)
		}
	}
	var out []string
	for _, l := range block {
		if len(l) >= least && least >= 0 {
			l = l[least:]
		}
		out = append(out, l)
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}

// oneLine puts a script on one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// ciCheck is a command of the CI that init proposes as a check.
type ciCheck struct {
	role, long, command string
	from                string
	env                 map[string]string
	dir                 string // where it runs: its step's working-directory, "." for the root
	tool                string // not a check: the CI runs this tool (tox, nox, pre-commit) with its configuration here
	// sub is the directory its script changed to (cd), relative to its step's; elsewhere says
	// why that is no directory of the project ("" when it is).
	sub, elsewhere string
	at             string // where it runs, relative to the project, when its step's directory is not
	notes          []string
}

// cdRe matches a script line that changes directory: cd DIR, or cd DIR && command.
var cdRe = regexp.MustCompile(`^cd\s+("[^"]*"|'[^']*'|[^\s;&|]+)\s*(?:&&\s*(.*))?$`)

// cdPrefix reads a line that changes directory: the directory, and the command after &&
// ("" for a cd alone).
func cdPrefix(line string) (dir, rest string, ok bool) {
	m := cdRe.FindStringSubmatch(line)
	if m == nil {
		return "", "", false
	}
	return strings.Trim(m[1], `"'`), strings.TrimSpace(m[2]), true
}

// cdTo is where cd d goes from sub (relative to the step's directory dir): the new sub, or
// why it is no directory of the project. A directory the job made (made) is one.
func (det *detector) cdTo(dir, sub, d string, made map[string]bool) (string, string) {
	if strings.ContainsAny(d, "$~`") || d == "-" {
		return sub, fmt.Sprintf("it runs in %s, which the script computes", d)
	}
	if path.IsAbs(d) {
		return sub, fmt.Sprintf("it runs in %s, outside the project", d)
	}
	next := path.Join(sub, d)
	full := path.Join(dir, next)
	if full == ".." || strings.HasPrefix(full, "../") {
		return sub, fmt.Sprintf("it runs in %s, outside the project", d)
	}
	if fi, err := fs.Stat(det.fsys, full); (err != nil || !fi.IsDir()) && !made[full] {
		return sub, fmt.Sprintf("it runs in %s, which is not here (an earlier step makes it?)", full)
	}
	if next == "." {
		next = ""
	}
	return next, ""
}

// networkRe matches what fetches from the network in a recipe or a script.
var networkRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(go get|go install|go mod download|curl|wget|npm install|npm ci|pnpm install|yarn install|pip install|pip3 install|uv sync|cargo install|git clone|docker|apt-get|brew)\b`)
})

// roleOfName is the role of a make target or package script by its name; "" for one that is
// no check (build, docs, automd, release: what builds or writes files).
func roleOfName(name string) string {
	n := strings.ToLower(name)
	words := strings.FieldsFunc(n, func(r rune) bool { return !('a' <= r && r <= 'z' || '0' <= r && r <= '9') })
	switch {
	case strings.Contains(n, "type"):
		return "typecheck"
	case strings.Contains(n, "fmt") || strings.Contains(n, "format"):
		return "format"
	case strings.Contains(n, "lint") || strings.Contains(n, "vet") || strings.Contains(n, "check") && !strings.Contains(n, "test"):
		return "lint"
	case strings.Contains(n, "test") || slices.ContainsFunc(words, func(w string) bool {
		return slices.Contains([]string{"ci", "spec", "e2e", "unit", "coverage", "cover", "vitest", "jest", "mocha"}, w)
	}):
		return "test"
	}
	return ""
}

// nodeTestRunners are the test runners a package's CI runs by their own name (pnpm vitest,
// npx jest), not through a script.
var nodeTestRunners = []string{"vitest", "jest", "mocha", "ava", "tap", "uvu", "c8", "nyc"}

// nodeBin is the program a Node CI line runs from the package's dependencies: pnpm vitest,
// npx jest, pnpm exec tsc, yarn eslint; "" when it runs none (or a script of that name).
func nodeBin(f []string, pkg *packageJSON) (bin string, args []string) {
	if len(f) < 2 {
		return "", nil
	}
	i := 1
	switch f[0] {
	case "npx", "pnpx", "bunx":
	case "npm", "pnpm", "yarn", "bun":
		if f[1] == "exec" || f[1] == "dlx" || f[0] == "bun" && f[1] == "x" {
			i = 2
		} else if f[0] == "npm" || pkg == nil || pkg.script(f[1]) != "" {
			return "", nil
		}
	default:
		return "", nil
	}
	for i < len(f) && strings.HasPrefix(f[i], "-") {
		i++ // npx --yes …
	}
	if i >= len(f) {
		return "", nil
	}
	return f[i], f[i+1:]
}

// classify says whether one line of a CI script is a check init proposes (role != ""), one it
// leaves out (why != ""), or neither (setup, build, upload: nothing said).
func (det *detector) classify(line string, di *dirInfo, job *ciJob) (c ciCheck, why string) {
	f := strings.Fields(line)
	// Assignments for the command.
	for len(f) > 0 && strings.Contains(f[0], "=") && !strings.HasPrefix(f[0], "-") {
		f = f[1:]
	}
	assigns := strings.Fields(line)[:len(strings.Fields(line))-len(f)]
	whole := line
	// A Python runner and its options (uv run --group test pytest): what it runs is the check,
	// run through it, after the line's assignments.
	var runner []string
	if len(f) > 2 && (f[0] == "uv" || f[0] == "poetry" || f[0] == "pdm") && f[1] == "run" {
		n := 2
		for n < len(f) && strings.HasPrefix(f[n], "-") {
			if slices.Contains(uvValued, f[n]) {
				n++
			}
			n++
		}
		if n < len(f) {
			runner, f = f[:n], f[n:]
			line = strings.Join(f, " ")
		}
	}
	// The Python tools, run through a runner: uvx tox, pipx run nox, python -m tox, python -m
	// flake8.
	for _, pre := range [][]string{{"uvx"}, {"pipx", "run"}, {"python", "-m"}, {"python3", "-m"}} {
		if len(f) > len(pre) && slices.Equal(f[:len(pre)], pre) && slices.Contains(pythonTools, f[len(pre)]) {
			f = f[len(pre):]
		}
	}
	if len(f) == 0 {
		return c, ""
	}
	arg := func(i int) string {
		if i < len(f) {
			return f[i]
		}
		return ""
	}
	has := func(flag string) bool { return slices.Contains(f, flag) }
	c.command = line
	var nodeRole string // a package's own tool by its name (nodeTestRunnerRole)
	if di.pkg != nil {
		nodeRole = nodeTestRunnerRole(f, di.pkg)
	}
	switch prog := f[0]; {
	case prog == "go" && arg(1) == "test":
		c.role, c.long = "test", "go test"
	case prog == "go" && arg(1) == "vet":
		c.role, c.long = "lint", "go vet"
	case prog == "golangci-lint" && arg(1) == "run":
		c.role, c.long = "lint", "golangci-lint"
	case prog == "staticcheck":
		c.role, c.long = "lint", "staticcheck"
	case prog == "cargo" && arg(1) == "test":
		c.role, c.long = "test", "cargo test"
	case prog == "ctest":
		c.role, c.long = "test", "ctest"
	case prog == "cargo" && arg(1) == "clippy":
		c.role, c.long = "lint", "cargo clippy"
	case prog == "cargo" && arg(1) == "fmt":
		c.role, c.long = "format", "cargo fmt"
		if !has("--check") {
			return ciCheck{}, fmt.Sprintf("`%s` changes files", line)
		}
	case prog == "make" && arg(1) != "" && !strings.HasPrefix(arg(1), "-"):
		target := arg(1)
		root := di
		if root.makeContent == "" || !makeHasTarget(root.makeContent, target) {
			return ciCheck{}, ""
		}
		if what, in := makeFetches(root.makeContent, target, 0); what != "" {
			return ciCheck{}, fmt.Sprintf("`%s` fetches from the network (%s, in %s)", line, what, in)
		}
		if what, in := makeChanges(root.makeContent, target, 0); what != "" {
			return ciCheck{}, fmt.Sprintf("`%s` changes files (%s, in %s)", line, what, in)
		}
		c.role, c.long = roleOfName(target), "make "+target
		if c.role == "format" && !strings.Contains(target, "check") {
			return ciCheck{}, fmt.Sprintf("`%s` may change files", line)
		}
	case nodeRole != "":
		// A package's own tool, as the CI runs it, beside the package.json whose dependencies
		// it comes from: CI=true keeps vitest and jest out of watch mode.
		bin, args := nodeBin(f, di.pkg)
		c.role, c.long = nodeRole, f[0]+" "+bin
		c.env = map[string]string{"CI": "true"}
		if fix := fixesFiles(strings.Join(args, " ")); fix != "" {
			return ciCheck{}, fmt.Sprintf("`%s` changes files (%s)", line, fix)
		}
	case (prog == "npm" || prog == "pnpm" || prog == "yarn" || prog == "bun") && di.pkg != nil:
		script := arg(1)
		if script == "run" || script == "run-script" {
			script = arg(2)
		}
		if prog == "npm" && script == "test" || di.pkg.script(script) != "" {
			c.role, c.long = roleOfName(script), prog+" "+script
			c.env = map[string]string{"CI": "true"} // as init's own Node checks: no watch mode
			if fix := fixesFiles(di.pkg.script(script)); fix != "" {
				return ciCheck{}, fmt.Sprintf("`%s` changes files (%s)", line, fix)
			}
		}
	case prog == "pytest" || (prog == "python" || prog == "python3") && arg(1) == "-m" && arg(2) == "pytest":
		c.role, c.long = "test", "pytest"
	case prog == "ruff" && arg(1) == "check":
		c.role, c.long = "lint", "ruff"
		if has("--fix") {
			return ciCheck{}, fmt.Sprintf("`%s` changes files", line)
		}
		if !has("--no-fix") {
			c.command = line + " --no-fix"
		}
	case prog == "ruff" && arg(1) == "format":
		c.role, c.long = "format", "ruff format"
		if !has("--check") && !has("--diff") {
			return ciCheck{}, fmt.Sprintf("`%s` changes files", line)
		}
	case (prog == "python" || prog == "python3") && arg(1) == "-m" && arg(2) == "unittest":
		c.role, c.long = "test", "unittest"
	case prog == "mypy" || prog == "pyright" || prog == "basedpyright" || prog == "ty" && arg(1) == "check":
		c.role, c.long = "typecheck", prog
	case prog == "flake8" || prog == "pylint":
		c.role, c.long = "lint", prog
	case prog == "black" || prog == "isort":
		// Their check mode reports; without it they rewrite the files.
		c.role, c.long = "format", prog
		if !has("--check") && !has("--check-only") && !has("-c") {
			return ciCheck{}, fmt.Sprintf("`%s` changes files", line)
		}
	case prog == "cog":
		// cog --check fails where a file's generated part is out of date; cog -r rewrites it.
		if has("-r") {
			return ciCheck{}, fmt.Sprintf("`%s` changes files", line)
		}
		if has("--check") {
			c.role, c.long = "lint", "cog"
		}
	case prog == "tox" && det.hasTox(di) || prog == "nox" && di.files["noxfile.py"] ||
		prog == "pre-commit" && arg(1) == "run" && di.files[".pre-commit-config.yaml"]:
		// Its configuration says what it runs: init proposes that (toxProject, noxProject,
		// preCommitProject), as the CI's.
		return ciCheck{tool: prog}, ""
	case prog == "tox" || prog == "nox":
		c.role, c.long = "test", prog
	}
	if c.role == "" {
		return ciCheck{}, ""
	}
	if helpOrVersion(f) {
		return ciCheck{}, fmt.Sprintf("`%s` only prints its version or help", line)
	}
	if c.long == "go test" && has("-v") {
		// Its passes would bury the failure in the output; the failures print without it.
		c.command = strings.Join(slices.DeleteFunc(slices.Clone(strings.Fields(c.command)), func(w string) bool { return w == "-v" }), " ")
	}
	if strings.Contains(whole, "${{") {
		return ciCheck{}, fmt.Sprintf("`%s` depends on the workflow's expressions", whole)
	}
	if runner != nil {
		c.command = strings.Join(append(slices.Clone(assigns), pythonRunner(runner, di, job), c.command), " ")
	}
	return c, ""
}

// pythonTools are the Python programs a CI may run as python -m TOOL, uvx TOOL or pipx run TOOL.
var pythonTools = []string{"tox", "nox", "pre-commit", "pytest", "flake8", "pylint", "black", "isort", "mypy", "pyright", "cog"}

// verbosityFlags are the flags that only make a runner say more or less.
var verbosityFlags = []string{"-v", "-vv", "-vvv", "--verbose", "-q", "-qq", "-qqq", "--quiet"}

// suiteKey is what a command runs, its verbosity flags aside: the same key is the same suite.
// python -m pytest and pytest are the same runner.
func suiteKey(command string) string {
	f := strings.Fields(command)
	if len(f) > 2 && (f[0] == "python" || f[0] == "python3") && f[1] == "-m" {
		f = f[2:]
	}
	return strings.Join(slices.DeleteFunc(f, func(w string) bool { return slices.Contains(verbosityFlags, w) }), " ")
}

// verbosity is how much a command's flags ask its runner to say: -v and -vv more, -q less.
func verbosity(command string) int {
	n := 0
	for _, w := range strings.Fields(command) {
		switch {
		case w == "--verbose":
			n++
		case w == "--quiet":
			n--
		case slices.Contains(verbosityFlags, w) && w[1] == 'v':
			n += len(w) - 1
		case slices.Contains(verbosityFlags, w):
			n -= len(w) - 1
		}
	}
	return n
}

// nodeTestRunnerRole is the role of a Node CI line that runs a package's tool by its name:
// a test runner, eslint, prettier --check, tsc --noEmit; "" for any other.
func nodeTestRunnerRole(f []string, pkg *packageJSON) string {
	bin, args := nodeBin(f, pkg)
	switch {
	case slices.Contains(nodeTestRunners, bin):
		return "test"
	case bin == "eslint":
		return "lint"
	case bin == "prettier" && (slices.Contains(args, "--check") || slices.Contains(args, "-c")):
		return "format"
	case (bin == "tsc" || bin == "vue-tsc") && slices.Contains(args, "--noEmit"):
		return "typecheck"
	}
	return ""
}

// fixJob is why a job's commands change files (it commits or pushes what they change), "" when
// it does not.
func fixJob(steps []ciStep) string {
	for _, s := range steps {
		for _, a := range []string{"autofix-ci/action", "stefanzweifel/git-auto-commit-action", "EndBug/add-and-commit", "peter-evans/create-pull-request"} {
			if strings.HasPrefix(s.uses, a) {
				return "its job commits what it changes: " + a
			}
		}
		if strings.Contains(s.run, "git commit") || strings.Contains(s.run, "git push") {
			return "its job commits what it changes: git commit"
		}
	}
	return ""
}

// uvValued are uv run's and uv sync's options whose value is the next word.
var uvValued = []string{"--group", "--extra", "--only-group", "--no-group", "--with", "--with-editable",
	"--with-requirements", "--python", "-p", "--package", "--env-file", "--directory", "--project",
	"--index", "--default-index", "--index-url", "--extra-index-url", "--find-links", "-f", "--config-file",
	"--cache-dir", "--resolution", "--prerelease", "--no-extra"}

// uvSelects are the options that say which dependency groups and extras uv installs.
var uvSelects = []string{"--group", "--extra", "--only-group", "--no-group", "--all-extras", "--all-groups",
	"--no-dev", "--dev", "--only-dev", "--no-extra", "--no-default-groups"}

// uvSyncPart reads `uv sync …` of a CI script: the groups and extras it installs, which a later
// `uv run` of the job runs with. ok says it was one.
func uvSyncPart(job *ciJob, part string) bool {
	f := strings.Fields(part)
	if len(f) < 2 || f[0] != "uv" || f[1] != "sync" {
		return false
	}
	for i := 2; i < len(f); i++ {
		if slices.Contains(uvSelects, f[i]) {
			job.uvSync = append(job.uvSync, f[i])
			if slices.Contains(uvValued, f[i]) && i+1 < len(f) {
				job.uvSync = append(job.uvSync, f[i+1])
				i++
			}
		}
	}
	return true
}

// pythonRunner is the runner a CI's check runs through, as a check: uv run with the groups and
// extras its job's uv sync installed (when it names none of its own), and with --locked beside a
// uv.lock, so that the check fails where the lockfile no longer matches pyproject.toml, as CI's
// uv sync --locked does, instead of rewriting uv.lock.
func pythonRunner(runner []string, di *dirInfo, job *ciJob) string {
	r := slices.Clone(runner)
	if r[0] != "uv" {
		return strings.Join(r, " ")
	}
	if job != nil && !slices.ContainsFunc(r, func(w string) bool { return slices.Contains(uvSelects, w) }) {
		r = append(r, job.uvSync...)
	}
	if di.files["uv.lock"] && !slices.Contains(r, "--locked") && !slices.Contains(r, "--frozen") {
		r = slices.Insert(r, 2, "--locked")
	}
	return strings.Join(r, " ")
}

// SameCommand reports whether two commands are the same but for the current directory named
// as their last argument: ruff format --check and ruff format --check .
func SameCommand(a, b string) bool {
	trim := func(s string) string { return strings.TrimSuffix(strings.Join(strings.Fields(s), " "), " .") }
	return trim(a) == trim(b)
}

// helpOrVersion reports whether a command only prints its version or help.
func helpOrVersion(f []string) bool {
	return slices.ContainsFunc(f, func(w string) bool {
		return w == "--version" || w == "-version" || w == "--help" || w == "-h"
	})
}

// changesRe matches what changes the project's files in a recipe: go mod tidy edits go.mod and
// go.sum, the formatters write, --fix fixes.
var changesRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(go mod tidy|go mod vendor|go generate|go fmt|(?:gofmt|gofumpt|goimports|gci)\s.*-w\b|cargo fmt|ruff format|black|isort)\b|\s(--fix|--write)\b`)
})

// makeGoVarRe matches the make variable that names the go command: $(GO), ${GOCMD}.
var makeGoVarRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$[({]GO(?:CMD|BIN)?[)}]`) })

// makeChanges is what a target's recipe, or its prerequisites', does that changes files, and
// the target whose recipe does: a check never changes the person's files.
func makeChanges(content, target string, depth int) (what, in string) {
	if depth > 4 {
		return "", ""
	}
	prereqs, recipe := makeRule(content, target)
	for _, l := range recipe {
		l = makeGoVarRe().ReplaceAllString(l, "go") // $(GO) mod tidy
		m := changesRe().FindStringSubmatch(l)
		switch {
		case m == nil:
			continue
		case strings.Contains(l, "--check") || strings.Contains(l, "--diff") || strings.Contains(l, "-diff"):
			continue // go mod tidy -diff, black --check, cargo fmt --check: they report
		case m[1] != "":
			return m[1], target
		default:
			return strings.TrimSpace(m[2]), target
		}
	}
	for _, p := range prereqs {
		if what, in := makeChanges(content, p, depth+1); what != "" {
			return what, in
		}
	}
	return "", ""
}

// makeFetches is what a target's recipe, or its prerequisites', fetches from the network,
// and the target whose recipe does.
func makeFetches(content, target string, depth int) (what, in string) {
	if depth > 4 {
		return "", ""
	}
	prereqs, recipe := makeRule(content, target)
	for _, l := range recipe {
		if m := networkRe().FindString(l); m != "" {
			return m, target
		}
	}
	for _, p := range prereqs {
		if what, in := makeFetches(content, p, depth+1); what != "" {
			return what, in
		}
	}
	return "", ""
}

// makeRule is a target's prerequisites and recipe lines.
func makeRule(content, target string) (prereqs, recipe []string) {
	lines := strings.Split(content, "\n")
	for i, l := range lines {
		m := makeRuleRe().FindStringSubmatch(l)
		if m == nil || !slices.Contains(strings.Fields(m[1]), target) {
			continue
		}
		rest := l[strings.Index(l, ":")+1:]
		rest = strings.TrimLeft(rest, ":")
		if j := strings.IndexAny(rest, ";#"); j >= 0 {
			rest = rest[:j]
		}
		prereqs = append(prereqs, strings.Fields(rest)...)
		for _, r := range lines[i+1:] {
			if !strings.HasPrefix(r, "\t") {
				if strings.TrimSpace(r) == "" || strings.HasPrefix(strings.TrimSpace(r), "#") {
					continue
				}
				break
			}
			recipe = append(recipe, r)
		}
	}
	return prereqs, recipe
}

// workspaceRoot writes the workspace's directory (${{ github.workspace }}, $GITHUB_WORKSPACE),
// where the workflow checks the project out, as the project's root: "." in a relative path.
func workspaceRoot(s string) string {
	for _, ws := range []string{"${{ github.workspace }}", "${{github.workspace}}", "${GITHUB_WORKSPACE}", "$GITHUB_WORKSPACE"} {
		s = strings.ReplaceAll(s, ws+"/", "./")
		s = strings.ReplaceAll(s, ws, ".")
	}
	return s
}

// splitCommands splits a script's line into the commands it runs one after another (&&, ;),
// each without what runs only when it fails (|| …).
func splitCommands(line string) []string {
	var out []string
	for _, a := range strings.Split(line, " && ") {
		for _, b := range strings.Split(a, "; ") {
			b, _, _ = strings.Cut(b, " || ")
			if b = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(b), ";")); b != "" {
				out = append(out, b)
			}
		}
	}
	return out
}

// scriptLines are the commands of a run script: its lines, continuations joined, comments out.
func scriptLines(run string) []string {
	var out []string
	cur := ""
	for _, l := range strings.Split(run, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasSuffix(t, "\\") {
			cur += strings.TrimSuffix(t, "\\") + " "
			continue
		}
		t = strings.TrimSpace(cur + t)
		cur = ""
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		out = append(out, t)
	}
	return out
}

// ciFound is what the project's CI runs: its checks, the tools it runs with their own
// configuration (by directory), the workflow files, and what init leaves out with why.
type ciFound struct {
	checks []ciCheck
	tools  map[string]map[string]string // directory → tool → the step that runs it
	files  []string
	left   []string
}

// ciChecks are the checks the project's CI runs, each in its step's directory, and what it
// leaves out with why. Read once.
func (det *detector) ciChecks() *ciFound {
	if det.ci != nil {
		return det.ci
	}
	ci := &ciFound{tools: map[string]map[string]string{}}
	det.ci = ci
	seen := map[string]bool{}
	var job *ciJob
	steps := det.workflowSteps()
	// The jobs that commit what their steps change (autofix.ci, git commit): fixers all.
	jobSteps := map[string][]ciStep{}
	for _, s := range steps {
		jobSteps[s.file+"\x00"+s.job] = append(jobSteps[s.file+"\x00"+s.job], s)
	}
	jobFixes := make(map[string]string, len(jobSteps))
	for j, ss := range jobSteps {
		jobFixes[j] = fixJob(ss)
	}
	for _, s := range steps {
		if !slices.Contains(ci.files, s.file) {
			ci.files = append(ci.files, s.file)
		}
		if job == nil || job.file != s.file || job.job != s.job {
			job = newCIJob(s.file, s.job)
		}
		// A step's working-directory that names a directory of the project (or one an earlier
		// step made) is where its checks run.
		dir, elsewhere := ".", ""
		workdir := workspaceRoot(s.workdir)
		if w := path.Clean(strings.TrimPrefix(workdir, "./")); workdir != "" && w != "." {
			switch fi, err := fs.Stat(det.fsys, w); {
			case job.made[w]:
				dir = w
			case strings.Contains(workdir, "${{"):
				elsewhere = fmt.Sprintf("it runs in %s, which the workflow's expressions name", s.workdir)
			case path.IsAbs(w) || w == ".." || strings.HasPrefix(w, "../"):
				elsewhere = fmt.Sprintf("it runs in %s, outside the project", s.workdir)
			case err != nil || !fi.IsDir():
				elsewhere = fmt.Sprintf("it runs in %s, which is not here", s.workdir)
			default:
				dir = w
			}
		}
		di := det.dir(dir)
		var cands []ciCheck
		var whys []string
		if strings.HasPrefix(s.uses, "golangci/golangci-lint-action") {
			cmd := "golangci-lint run"
			if a := s.with["args"]; a != "" {
				cmd += " " + a
			}
			if helpOrVersion(strings.Fields(cmd)) {
				whys = append(whys, fmt.Sprintf("`%s` only prints its version or help", cmd))
			} else {
				cands = append(cands, ciCheck{role: "lint", long: "golangci-lint", command: cmd})
			}
		}
		if strings.HasPrefix(s.uses, "pre-commit/action") && di.files[".pre-commit-config.yaml"] {
			cands = append(cands, ciCheck{tool: "pre-commit", command: "pre-commit run --all-files"})
		}
		// A script that changes directory (cd DIR, then its commands; or cd DIR && command)
		// runs them there: DIR is their cwd, when it is a directory of the project or one the
		// job made. CMake's steps there are read together (cmakePart).
		sub, subElsewhere := "", ""
		// The commands between two cds (or a line's ends) that are not CMake's run together:
		// classify reads them as one line, in their directory.
		flush := func(rest []string, restDir, restElsewhere string) {
			if len(rest) == 0 {
				return
			}
			l := strings.Join(rest, " && ")
			cdi := di
			full := path.Join(dir, restDir)
			if restDir != "" {
				cdi = det.dir(full)
			}
			if fi, err := fs.Stat(det.fsys, full); restElsewhere == "" && elsewhere == "" && (err != nil || !fi.IsDir()) {
				restElsewhere = fmt.Sprintf("it runs in %s, which the CI makes", full)
			}
			c, why := det.classify(l, cdi, job)
			if c.tool != "" {
				c.command = l
			}
			c.sub, c.elsewhere = restDir, restElsewhere
			if c.role != "" || c.tool != "" {
				cands = append(cands, c)
			}
			if why != "" {
				whys = append(whys, why)
			}
		}
		for _, l := range scriptLines(workspaceRoot(s.run)) {
			var rest []string // the commands since the last cd that are neither cd nor CMake's
			for _, part := range splitCommands(l) {
				if d, more, ok := cdPrefix(part); ok && more == "" {
					flush(rest, sub, subElsewhere)
					rest = nil
					if subElsewhere == "" {
						sub, subElsewhere = det.cdTo(dir, sub, d, job.made)
					}
					continue
				}
				if uvSyncPart(job, part) {
					continue
				}
				if subElsewhere == "" {
					if c, ok := det.mesonPart(job, path.Join(dir, sub), part); ok {
						if c.role != "" {
							cands = append(cands, c)
						}
						continue
					}
					if c, ok := det.cmakePart(job, path.Join(dir, sub), part); ok {
						if c.role != "" {
							cands = append(cands, c)
						}
						continue
					}
				}
				rest = append(rest, part)
			}
			flush(rest, sub, subElsewhere)
		}
		for _, c := range cands {
			dir := dir
			switch {
			case c.at != "":
				dir = c.at
			case c.sub != "":
				dir = path.Join(dir, c.sub)
			}
			switch fixes := jobFixes[s.file+"\x00"+s.job]; {
			case fixes != "":
				whys = append(whys, fmt.Sprintf("`%s` (%s)", c.command, fixes))
				continue
			case s.services:
				whys = append(whys, fmt.Sprintf("`%s` (job %q needs its services)", c.command, s.job))
				continue
			case s.secrets:
				whys = append(whys, fmt.Sprintf("`%s` (its step reads a secret)", c.command))
				continue
			case c.elsewhere != "":
				whys = append(whys, fmt.Sprintf("`%s` (%s)", c.command, c.elsewhere))
				continue
			case elsewhere != "":
				whys = append(whys, fmt.Sprintf("`%s` (%s)", c.command, elsewhere))
				continue
			}
			if c.tool != "" {
				if ci.tools[dir] == nil {
					ci.tools[dir] = map[string]string{}
				}
				if ci.tools[dir][c.tool] == "" {
					ci.tools[dir][c.tool] = s.where()
				}
				continue
			}
			if seen[dir+"\x00"+c.command] {
				continue
			}
			seen[dir+"\x00"+c.command] = true
			c.from, c.dir = s.where(), dir
			// The same suite again, with other verbosity flags (pytest and pytest -v in two
			// jobs): one check runs it, the quietest, whose failures show all the same.
			if i := slices.IndexFunc(ci.checks, func(o ciCheck) bool {
				return o.dir == dir && o.role == c.role && suiteKey(o.command) == suiteKey(c.command)
			}); i >= 0 {
				kept, other := &ci.checks[i], c
				if verbosity(c.command) < verbosity(kept.command) {
					other = *kept
					notes := kept.notes
					*kept = c
					kept.notes = notes
				}
				kept.notes = append(kept.notes, fmt.Sprintf("one check for this suite: the CI also runs `%s` (%s), the same tests with more output; this one shows a failure all the same",
					other.command, other.from))
				continue
			}
			// The step's environment is the CI's: RUSTFLAGS=-Dwarnings makes a warning fail
			// there, and so here. What the check itself sets wins.
			if len(s.env) > 0 {
				env := maps.Clone(s.env)
				maps.Copy(env, c.env)
				c.env = env
			}
			ci.checks = append(ci.checks, c)
		}
		for _, w := range whys {
			if !slices.Contains(ci.left, w) {
				ci.left = append(ci.left, w)
			}
		}
	}
	return ci
}

// ciDirs are the directories below the root where the CI runs checks.
func (det *detector) ciDirs() []string {
	ci := det.ciChecks()
	var out []string
	for _, c := range ci.checks {
		if c.dir != "." && !slices.Contains(out, c.dir) {
			out = append(out, c.dir)
		}
	}
	for dir := range ci.tools {
		if dir != "." && !slices.Contains(out, dir) {
			out = append(out, dir)
		}
	}
	return out
}

// ciProject is the directory's checks from the project's CI: they stand in for the other
// projects' checks of the same role, as do the tools the CI runs with their own configuration
// (tox, nox, pre-commit); a check of a role the CI does not run is written commented out.
func (d *dirInfo) ciProject(det *detector, dp *dirProjects) *detected {
	ci := det.ciChecks()
	if len(ci.files) == 0 {
		return nil
	}
	var found []ciCheck
	for _, c := range ci.checks {
		if c.dir == d.dir {
			found = append(found, c)
		}
	}
	// The tools the CI runs here: their projects' checks are the CI's.
	var tools []*detected
	for _, o := range dp.projects {
		if where := ci.tools[d.dir][o.tool]; o.tool != "" && where != "" {
			o.ciRun = where
		}
		if o.ciRun != "" && len(o.Checks) > 0 {
			tools = append(tools, o)
		}
	}
	kind := fmt.Sprintf("GitHub Actions (%s)", strings.Join(ci.files, ", "))
	if d.dir != "." {
		if len(found) == 0 && len(tools) == 0 {
			return nil
		}
		kind = fmt.Sprintf("GitHub Actions (%s, working-directory %s)", strings.Join(ci.files, ", "), d.dir)
	}
	p := &detected{Project: Project{Kind: kind}}
	var left []string
	if d.dir == "." {
		left = ci.left
	}
	if len(found) == 0 && len(tools) == 0 {
		if len(left) > 0 {
			p.Detail = "left out: " + strings.Join(left, "; ")
			p.problem = true
			return p
		}
		return nil
	}
	// The first CI check of each role stands in for the others' checks of that role.
	byRole := map[string]string{}
	for _, c := range found {
		timeout := detectLintTimeout
		if c.role == "test" {
			timeout = detectTestTimeout
			if strings.HasPrefix(c.command, "cargo") || strings.HasPrefix(c.command, "cmake") || strings.HasPrefix(c.command, "meson") {
				timeout = detectRustTimeout
			}
		}
		p.add(c.role, c.long, c.command, timeout, c.env)
		p.from[len(p.from)-1] = c.from
		p.notes[len(p.notes)-1] = c.notes
		if byRole[c.role] == "" {
			byRole[c.role] = c.command
		}
	}
	var stands []string
	for _, o := range tools {
		for i := 0; i < len(o.Checks); i++ {
			c := o.Checks[i]
			// A formatter's check mode that the CI runs itself (pre-commit's ruff-format hook
			// beside the CI's ruff format --check .): the CI's, once.
			if j := slices.IndexFunc(found, func(f ciCheck) bool { return SameCommand(f.command, c.Command) }); o.name[i] != "" && j >= 0 {
				stands = append(stands, fmt.Sprintf("`%s` stands in for `%s`", found[j].command, c.Command))
				o.drop(i)
				i--
				continue
			}
			if byRole[o.short[i]] == "" {
				byRole[o.short[i]] = c.Command
			}
			o.from[i] += "; run by " + o.ciRun
		}
		if ci.tools[d.dir][o.tool] != "" {
			stands = append(stands, fmt.Sprintf("it runs %s", o.tool))
		}
	}
	for _, o := range dp.projects {
		if o.ciRun != "" {
			continue
		}
		for i := 0; i < len(o.Checks); i++ {
			role := o.short[i]
			cmd, ok := byRole[role]
			if !ok {
				o.off[i] = ciDoesNotRun
				continue
			}
			if cmd != o.Checks[i].Command {
				stands = append(stands, fmt.Sprintf("`%s` stands in for `%s`", cmd, o.Checks[i].Command))
			}
			o.drop(i)
			i--
			o.cover()
		}
	}
	p.covered = len(p.Checks) == 0
	p.Detail = strings.Join(stands, "; ")
	if len(left) > 0 {
		if p.Detail != "" {
			p.Detail += "; "
		}
		p.Detail += "left out: " + strings.Join(left, "; ")
	}
	return p
}
