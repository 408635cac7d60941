package project

import (
	"encoding"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/internal/keymap"
)

// checkLines renders checks as "name | command | cwd" for comparison.
func checkLines(checks []config.Check) []string {
	var out []string
	for _, c := range checks {
		line := c.Name + " | " + c.Command
		if c.Cwd != "" {
			line += " | " + c.Cwd
		}
		out = append(out, line)
	}
	return out
}

// TestDetectProject: each fixture tree under testdata/projects gives exactly these checks, and
// what init tells the person names what it recognised.
func TestDetectProject(t *testing.T) {
	for _, tc := range []struct {
		dir   string
		want  []string // name | command [| cwd]
		found []string // each in the summary, in this order
	}{
		{"go", []string{"test | go test ./...", "lint | go vet ./...", "format | " + GofmtCheck + ""}, []string{"Go module (go.mod)"}},
		{"go-golangci", []string{"test | go test ./...", "lint | golangci-lint run", "format | " + GofmtCheck + ""}, []string{"Go module (go.mod, .golangci.yaml)"}},
		{"go-make", []string{"make test | make test", "go vet | go vet ./...", "gofmt | " + GofmtCheck + ""},
			[]string{"Go module (go.mod)", "Makefile with a test target", "`make test` stands in for `go test ./...`"}},
		{"go-work", []string{
			"api: test | go test ./... | svc/api", "api: lint | go vet ./... | svc/api", "api: format | " + GofmtCheck + " | svc/api",
			"tools: test | go test ./... | tools", "tools: lint | go vet ./... | tools", "tools: format | " + GofmtCheck + " | tools",
		}, []string{"svc/api: Go module (go.mod)", "tools: Go module (go.mod)"}},
		{"node-npm", []string{"test | npm test", "lint | npm run lint"}, []string{"Node, npm (package-lock.json): scripts test, lint"}},
		{"node-placeholder", []string{"lint | npm run lint"}, []string{"Node, npm (no lockfile", "npm's placeholder"}},
		{"node-pnpm", []string{"test | pnpm run test", "lint | pnpm run lint", "typecheck | pnpm run typecheck"},
			[]string{"Node, pnpm (pnpm-lock.yaml): scripts test, lint, typecheck"}},
		{"node-yarn", []string{"test | yarn run test", "typecheck | yarn run type-check"}, []string{"Node, yarn (yarn.lock)"}},
		{"node-bun", []string{"test | bun run test", "lint | bun run lint"}, []string{"Node, bun (bun.lockb)"}},
		{"node-bun-text", []string{"test | bun run test"}, []string{"Node, bun (bun.lock)"}},
		{"node-packagemanager", []string{"lint | yarn run lint"}, []string{"Node, yarn (packageManager yarn@4.1.0)"}},
		{"node-noscripts", nil, []string{"Node, npm", "no test, lint or typecheck script"}},
		{"python-pyproject", []string{"test | python3 -m pytest -q", "lint | ruff check --no-fix ."},
			[]string{"Python (pyproject.toml): pytest", "ruff"}},
		{"python-ruff-fix", []string{"test | python3 -m pytest -q", "lint | ruff check --no-fix ."}, []string{"Python (pyproject.toml): pytest (tests/), ruff ([tool.ruff])"}},
		{"node-lint-fix", []string{"test | npm test", "typecheck | npm run typecheck"},
			[]string{"Node, npm (package-lock.json): scripts test, typecheck", "no check of the lint script: it changes files (--fix)"}},
		{"python-tests-dir", []string{"test | python3 -m pytest -q"}, []string{"Python (requirements.txt): pytest (tests/)"}},
		{"python-uv", []string{"test | uv run --locked pytest -q", "lint | uv run --locked ruff check --no-fix ."}, []string{"Python, uv (pyproject.toml, uv.lock)", "pytest (pytest.ini)", "ruff (ruff.toml)"}},
		{"python-poetry", []string{"test | poetry run pytest -q", "lint | poetry run ruff check --no-fix ."},
			[]string{"Python, poetry", "pytest (setup.cfg [tool:pytest])", "ruff (.ruff.toml)"}},
		{"python-venv", []string{"test | .venv/bin/python -m pytest -q"}, []string{"Python, .venv", "pytest (tox.ini [pytest])"}},
		{"python-venv-make", []string{"test | . .venv/bin/activate && make test"},
			[]string{"Python, .venv (pyproject.toml)", "Makefile with a test target: `make test` stands in for `.venv/bin/python -m pytest -q`; it runs in the activated .venv"}},
		{"python-bare", nil, []string{"Python (requirements.txt)", "no pytest configuration or tests directory, no ruff configuration"}},
		{"rust", []string{"test | cargo test", "lint | cargo clippy -- -D warnings"}, []string{"Rust crate (Cargo.toml)"}},
		{"rust-workspace", []string{"test | cargo test --workspace", "lint | cargo clippy --workspace -- -D warnings"},
			[]string{"Rust workspace (Cargo.toml [workspace])"}},
		{"rust-fuzz", []string{"test | cargo test", "lint | cargo clippy -- -D warnings"},
			[]string{"Rust crate (Cargo.toml)", "fuzz: cargo-fuzz harness (Cargo.toml, cargo-fuzz = true): no checks"}},
		{"make", []string{"test | make test"}, []string{"Makefile with a test target"}},
		{"make-notest", nil, []string{"recognised no project: no go.mod"}},
		{"unknown", nil, []string{"recognised no project: no go.mod"}},
		{"monorepo", []string{
			"test | make test",
			"api: test | go test ./... | api", "api: lint | go vet ./... | api", "api: format | " + GofmtCheck + " | api",
			"engine: test | cargo test | engine", "engine: lint | cargo clippy -- -D warnings | engine",
			"ml: test | python3 -m pytest -q | services/ml", "ml: lint | ruff check --no-fix . | services/ml",
			"web: test | pnpm run test | web", "web: lint | pnpm run lint | web",
		}, []string{"Makefile with a test target", "api: Go module", "engine: Rust crate", "services/ml: Python", "web: Node, pnpm"}},
		{"pnpm-workspace", []string{
			"lint | pnpm run lint",
			"web: test | pnpm run test | apps/web", "web: typecheck | pnpm run typecheck | apps/web",
			"ui: test | pnpm run test | packages/ui",
			"util: test | pnpm run test | packages/util",
		}, []string{"Node, pnpm (pnpm-lock.yaml, pnpm-workspace.yaml): script lint", "apps/web: Node, pnpm", "packages/ui: Node, pnpm", "packages/util"}},
		{"npm-workspaces", []string{"test | npm test", "a: lint | npm run lint | packages/a"},
			[]string{"Node, npm (package-lock.json): script test", "packages/a: Node, npm"}},
		{"python-mono", []string{"test | python3 -m pytest -q", "core: lint | ruff check --no-fix . | packages/core"},
			[]string{"Python (pyproject.toml): pytest ([tool.pytest.ini_options])", "packages/core: Python (pyproject.toml): ruff ([tool.ruff])"}},
		{"npm-placeholder-root", []string{"a: test | npm test | packages/a"},
			[]string{"Node, npm (no lockfile): no test, lint or typecheck script; the test script is npm's placeholder", "packages/a: Node, npm (no lockfile): script test"}},
		{"same-names", []string{"apps/web: test | npm test | apps/web", "packages/web: test | npm test | packages/web"}, nil},
		{"go-node", []string{"go test | go test ./...", "yarn test | yarn run test", "go vet | go vet ./...", "gofmt | " + GofmtCheck + ""},
			[]string{"Go module (go.mod)", "Node, yarn (yarn.lock)"}},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			d := Detect(os.DirFS(filepath.Join("testdata", "projects", tc.dir)))
			if got := checkLines(d.Checks()); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("checks:\n  got  %q\n  want %q", got, tc.want)
			}
			sum := d.Summary()
			at := 0
			for _, f := range tc.found {
				i := strings.Index(sum[at:], f)
				if i < 0 {
					t.Errorf("summary lacks %q after offset %d:\n%s", f, at, sum)
					break
				}
				at += i + len(f)
			}
		})
	}
}

// fixtureDirs are the project trees of testdata/projects and testdata/corpus.
func fixtureDirs(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, root := range []string{"projects", "corpus"} {
		entries, err := os.ReadDir(filepath.Join("testdata", root))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.IsDir() {
				out = append(out, filepath.Join("testdata", root, e.Name()))
			}
		}
	}
	return out
}

// TestDetectNamesChecksAlike: whatever the kind of project, a check is named by its role, in
// the same order in each directory (tests first, then lint, then typecheck), and every check of a Node project
// runs in the same environment.
func TestDetectNamesChecksAlike(t *testing.T) {
	order := map[string]int{"test": 0, "lint": 1, "format": 2, "typecheck": 3}
	for _, e := range fixtureDirs(t) {
		d := Detect(os.DirFS(e))
		// In run order; the order holds across the kinds of project of one directory.
		last, cwd := -1, ""
		for _, c := range d.Checks() {
			if c.Cwd != cwd {
				last, cwd = -1, c.Cwd
			}
			// Past the sub-project's label; in a directory of several kinds the tool comes
			// first: "go test", "pnpm lint", and the tools' own names "go vet", "cargo clippy", "gofmt".
			name := strings.TrimSpace(c.Name[strings.LastIndex(c.Name, ": ")+1:])
			// A second check of the same name is numbered: "test (2)".
			name = regexp.MustCompile(` \(\d+\)$`).ReplaceAllString(name, "")
			role, ok := order[name]
			if _, r, cut := strings.Cut(name, " "); !ok && cut {
				role, ok = order[r]
				if name == "go vet" || name == "cargo clippy" {
					role, ok = order["lint"], true
				}
			}
			if name == "gofmt" { // the formatter's own name, as the linters'
				role, ok = order["format"], true
			}
			if !ok {
				t.Errorf("%s: check %q is not named by its role (test, lint, typecheck)", e, c.Name)
			}
			if role < last {
				t.Errorf("%s: check %q runs after a later role", e, c.Name)
			}
			last = role
		}
		for _, p := range d.Projects {
			for _, c := range p.Checks {
				if strings.HasPrefix(p.Kind, "Node") && !reflect.DeepEqual(c.Env, p.Checks[0].Env) {
					t.Errorf("%s: %s: check %q runs with env %v, %q with %v", e, p.Line(), c.Name, c.Env, p.Checks[0].Name, p.Checks[0].Env)
				}
			}
		}
	}
}

// TestDetectProjectChecksAreRunnable: what init writes loads, validates, and keeps every check
// as detected, for every fixture.
func TestDetectProjectChecksAreRunnable(t *testing.T) {
	for _, e := range fixtureDirs(t) {
		t.Run(e, func(t *testing.T) {
			d := Detect(os.DirFS(e))
			file := InitFile(d)
			// What hooksup trust, check and a session accept: one validation for all of them.
			if err := config.ValidateFile(".hooksup.toml", []byte(file)); err != nil {
				t.Fatalf("%v\n%s", err, file)
			}
			cfg := config.Defaults()
			if err := config.Decode(".hooksup.toml", []byte(file), &cfg); err != nil {
				t.Fatalf("%v\n%s", err, file)
			}
			if got, want := checkLines(cfg.Stop.Checks), checkLines(d.Checks()); !reflect.DeepEqual(got, want) {
				t.Fatalf("written checks %q, detected %q\n%s", got, want, file)
			}
			for _, c := range cfg.Stop.Checks {
				if !c.Retries() || c.Timeout.D == 0 || c.MaxRetries == 0 {
					t.Errorf("check %q: retry_on_failure, timeout and max_retries should be written: %+v", c.Name, c)
				}
			}
			if cfg.Mode != config.ModeAsk || cfg.Stop.MaxContinuations != 3 {
				t.Errorf("defaults changed: mode %q, max_continuations %d", cfg.Mode, cfg.Stop.MaxContinuations)
			}
		})
	}
}

// TestInitFileDocumentsEveryKey: the written file names every key hooksup reads, set or in a
// comment, whatever was detected.
func TestInitFileDocumentsEveryKey(t *testing.T) {
	var keys []string
	var walk func(reflect.Type)
	walk = func(t reflect.Type) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name := f.Tag.Get("toml")
			if name == "" || name == "-" {
				continue
			}
			ft := f.Type
			if ft.Kind() == reflect.Slice {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct && !reflect.PointerTo(ft).Implements(reflect.TypeFor[encoding.TextUnmarshaler]()) {
				walk(ft) // a table: its keys
				continue
			}
			keys = append(keys, name)
		}
	}
	walk(reflect.TypeFor[config.Config]())
	for _, d := range []Detection{
		Detect(fstest.MapFS{}),
		Detect(os.DirFS(filepath.Join("testdata", "projects", "monorepo"))),
	} {
		file := InitFile(d)
		for _, k := range keys {
			if !strings.Contains(file, k+" = ") {
				t.Errorf("no %q in:\n%s", k+" = ", file)
			}
		}
	}
}

// TestInitFileWhenNothingIsRecognised: the file says so, and shows a check to start from.
func TestInitFileWhenNothingIsRecognised(t *testing.T) {
	d := Detect(fstest.MapFS{"notes.txt": {Data: []byte("hi")}})
	if len(d.Checks()) != 0 {
		t.Fatalf("checks %q", checkLines(d.Checks()))
	}
	file := InitFile(d)
	for _, want := range []string{
		"hooksup init recognised no project here",
		"# [[stop.checks]]\n# name = \"tests\"\n# command = ",
	} {
		if !strings.Contains(file, want) {
			t.Errorf("no %q in:\n%s", want, file)
		}
	}
}

// TestDetectProjectSkips: dependencies, hidden directories, fixtures, virtualenvs and what lies
// deeper than two levels are no sub-projects; odd manifests are skipped or named.
func TestDetectProjectSkips(t *testing.T) {
	fsys := fstest.MapFS{
		"go.mod":                               {Data: []byte("module x\n")},
		"node_modules/a/package.json":          {Data: []byte(`{"scripts":{"test":"x"}}`)},
		".git/x/package.json":                  {Data: []byte(`{"scripts":{"test":"x"}}`)},
		"vendor/y/go.mod":                      {Data: []byte("module y\n")},
		"target/z/Cargo.toml":                  {Data: []byte("[package]\n")},
		"venv/lib/pyvenv.cfg":                  {Data: []byte("")},
		"env/pyvenv.cfg":                       {Data: []byte("")},
		"env/lib/pyproject.toml":               {Data: []byte("[tool.ruff]\n")},
		"testdata/p/package.json":              {Data: []byte(`{"scripts":{"test":"x"}}`)},
		"one/two/three/package.json":           {Data: []byte(`{"scripts":{"test":"x"}}`)},
		"broken/package.json":                  {Data: []byte(`{"scripts":`)},
		"weird/package.json":                   {Data: []byte(`{"scripts":{"test":7,"lint":"eslint"},"workspaces":{"packages":["x/*"]}}`)},
		"dir-named-marker/Cargo.toml/file.txt": {Data: []byte("")},
	}
	d := Detect(fsys)
	want := []string{"test | go test ./...", "lint | go vet ./...", "format | " + GofmtCheck, "weird: lint | npm run lint | weird"}
	if got := checkLines(d.Checks()); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q\n%s", got, want, d.Summary())
	}
	if !strings.Contains(d.Summary(), "broken/package.json") {
		t.Errorf("a package.json that is not JSON should be named in the summary:\n%s", d.Summary())
	}
}

// The template names every action [keys] bindings knows.
func TestTemplateListsEveryKeyAction(t *testing.T) {
	for _, n := range keymap.Names() {
		if !regexp.MustCompile(`(?m)^#.*\b` + n + `\b`).MatchString(Template) {
			t.Errorf("the template does not mention the action %s", n)
		}
	}
}

// TestDetectReadsCI: where the project's GitHub Actions workflows run checks that run here
// without secrets, services or the network, init proposes those, each under a comment naming
// its workflow step, in place of its own guesses of the same role; a guess of a role the CI
// does not run is written commented out, and what it leaves out of the CI it says why.
func TestDetectReadsCI(t *testing.T) {
	for _, tc := range []struct {
		dir      string
		want     []string // enabled: name | command
		off      []string // commented out: name | command
		found    []string // in the summary, in this order
		comments []string // in the file
	}{
		{"go-ci", []string{"test | make ci", "lint | golangci-lint run --timeout 5m"}, []string{"format | " + GofmtCheck + ""},
			[]string{"Go module (go.mod, .golangci.yaml)", "Makefile with a test target: no check: `make test` fetches from the network (go get, in install_deps)",
				"GitHub Actions (.github/workflows/ci.yml): `make ci` stands in for `go test ./...`; `golangci-lint run --timeout 5m` stands in for `golangci-lint run`"},
			[]string{`# from .github/workflows/ci.yml, job "test", step "Run the tests"` + "\n[[stop.checks]]\nname = \"test\"\ncommand = \"make ci\"",
				`# from .github/workflows/ci.yml, job "lint", step "golangci-lint"` + "\n[[stop.checks]]\nname = \"lint\"\ncommand = \"golangci-lint run --timeout 5m\""}},
		// go test's -v is dropped (its passes would bury the failure); a step that only asks a
		// tool its version is no check.
		{"go-make-network", []string{"test | go test -race ./..."}, []string{"lint | go vet ./...", "format | " + GofmtCheck + ""},
			[]string{"Go module (go.mod)", "GitHub Actions (.github/workflows/test.yml)",
				"left out: `go test -tags integration ./...` (job \"services-job\" needs its services)",
				"`staticcheck -version` only prints its version or help"},
			[]string{"# the project's CI does not run it\n# [[stop.checks]]\n# name = \"lint\"\n# command = \"go vet ./...\""}},
		{"rust-ci", []string{"test | cargo test --verbose", "format | cargo fmt -- --check"}, []string{"lint | cargo clippy -- -D warnings"},
			[]string{"Rust crate (Cargo.toml)", "GitHub Actions (.github/workflows/ci.yaml): `cargo test --verbose` stands in for `cargo test`"},
			[]string{`# from .github/workflows/ci.yaml, job "fmt", step "Check formatting"`, `# from .github/workflows/ci.yaml, job "build", step "cargo test --verbose"`}},
		// The workflow's, the job's and the step's env reach the check (the step's winning):
		// RUSTFLAGS=-Dwarnings fails a warning here as in CI; a value from an expression does not.
		{"rust-ci-env", []string{"test | cargo test", "lint | cargo clippy --all-targets"}, nil,
			[]string{"Rust crate (Cargo.toml)", "GitHub Actions (.github/workflows/ci.yml)"},
			[]string{"name = \"test\"\ncommand = \"cargo test\"\ntimeout = \"10m\"\nenv = { CARGO_TERM_COLOR = \"always\", RUSTFLAGS = \"-Dwarnings\", RUST_BACKTRACE = \"1\" }",
				"name = \"lint\"\ncommand = \"cargo clippy --all-targets\"\ntimeout = \"2m\"\nenv = { CARGO_TERM_COLOR = \"always\", RUSTFLAGS = \"-Dwarnings -Aunused\" }"}},
		// A script's cd (alone, or before &&) is where its commands run; a directory the CI
		// makes is not here, and a command there that builds nothing of CMake's is left out,
		// saying so.
		{"ci-cd", []string{"backend: test | go test -race ./... | backend", "backend: lint | go vet ./... | backend"}, []string{"backend: format | " + GofmtCheck + " | backend"},
			[]string{"left out: `ctest --output-on-failure` (it runs in build, which the CI makes)",
				"backend: Go module (go.mod)", "backend: GitHub Actions (.github/workflows/ci.yml, working-directory backend)"},
			[]string{`# from .github/workflows/ci.yml, job "backend", step "Vet"` + "\n[[stop.checks]]\nname = \"backend: lint\"\ncommand = \"go vet ./...\"\ntimeout = \"2m\"\ncwd = \"backend\""}},
		// A step's working-directory names the sub-project whose checks it runs.
		{"ci-workdir", []string{"backend: test | go test -race ./... | backend", "backend: lint | go vet ./... | backend", "web: test | pnpm run test | web"},
			[]string{"backend: format | " + GofmtCheck + " | backend", "web: lint | pnpm run lint | web"},
			[]string{"GitHub Actions (.github/workflows/ci.yml): left out: `go test -tags integration ./...` (it runs in ${{ matrix.module }}, which the workflow's expressions name)",
				"backend: Go module (go.mod)", "backend: GitHub Actions (.github/workflows/ci.yml, working-directory backend): `go test -race ./...` stands in for `go test ./...`\n",
				"web: Node, pnpm (pnpm-lock.yaml)", "web: GitHub Actions (.github/workflows/ci.yml, working-directory web)"},
			[]string{`# from .github/workflows/ci.yml, job "backend", step "Vet"` + "\n[[stop.checks]]\nname = \"backend: lint\"\ncommand = \"go vet ./...\"\ntimeout = \"2m\"\ncwd = \"backend\"",
				"# the project's CI does not run it\n# [[stop.checks]]\n# name = \"web: lint\"",
				"name = \"web: test\"\ncommand = \"pnpm run test\"\ntimeout = \"5m\"\ncwd = \"web\"\nenv = { CI = \"true\" }"}},
		// tox's envlist: one env per role, the interpreter's factor made py; an env that
		// changes files or runs what another runs is left out.
		{"python-tox", []string{"test | tox -e py", "lint | tox -e lint", "typecheck | tox -e typing"}, nil,
			[]string{"Python (pyproject.toml)", "tox (tox.ini): envs py, lint, typing; left out: py-min (py runs the tests), format (`black src tests` changes files); `tox -e py` stands in for `python3 -m pytest -q`"},
			[]string{"# tox builds an environment's virtualenv on its first run",
				"# from tox.ini, env py [testenv]: pytest -v --tb=short --basetemp={envtmpdir} {posargs}\n[[stop.checks]]\nname = \"test\"\ncommand = \"tox -e py\"",
				"# from tox.ini, env lint [testenv:lint]: ruff check src tests\n[[stop.checks]]\nname = \"lint\"\ncommand = \"tox -e lint\""}},
		// nox's sessions that test or lint, reusing their virtualenvs; not one that formats.
		{"python-nox", []string{"test | nox -R -s tests", "lint | nox -R -s lint"}, nil,
			[]string{"Python (pyproject.toml)", "nox (noxfile.py): sessions tests, lint; left out: format (`black src` changes files); `nox -R -s tests` stands in for `python3 -m pytest -q`; `nox -R -s lint` stands in for `ruff check --no-fix .`"},
			[]string{"# from noxfile.py, session tests: pytest --cov\n[[stop.checks]]\nname = \"test\"\ncommand = \"nox -R -s tests\"", "# nox -R reuses a session's virtualenv",
				"# from noxfile.py, session lint: ruff check src\n[[stop.checks]]\nname = \"lint\"\ncommand = \"nox -R -s lint\""}},
		// The CI runs tox: its environments are the CI's checks.
		{"python-tox-ci", []string{"test | tox -e py", "lint | tox -e lint"}, nil,
			[]string{"Python (pyproject.toml): pytest (tests/), ruff ([tool.ruff])",
				"tox (tox.ini): envs py, lint; `tox -e py` stands in for `python3 -m pytest -q`; `tox -e lint` stands in for `ruff check --no-fix .`",
				"GitHub Actions (.github/workflows/tests.yml): it runs tox\n"},
			[]string{`# from tox.ini, env py [testenv]: {envpython} -m pytest {posargs:tests}; run by .github/workflows/tests.yml, job "tests", step "Run tox"` + "\n[[stop.checks]]\nname = \"test\"\ncommand = \"tox -e py\""}},
		// pre-commit.ci runs pre-commit: its hooks run in check mode, the fixers skipped.
		// ruff's hooks, skipped, run in check mode instead, named by their tool.
		{"python-precommit", []string{"test | pytest -q", "lint | pre-commit run --all-files", "ruff lint | ruff check --no-fix", "ruff format | ruff format --check"}, nil,
			[]string{"pre-commit (.pre-commit-config.yaml): hooks check-yaml, check-toml, mypy; skipped, as they change files: trailing-whitespace (it fixes files), end-of-file-fixer (it fixes files), ruff (its arguments fix files), ruff-format (it formats files in place), codespell (its arguments fix files); in check mode instead: `ruff check --no-fix`, `ruff format --check`",
				"; `pre-commit run --all-files` stands in for `ruff check --no-fix .`\nGitHub Actions (.github/workflows/tests.yml): `pytest -q` stands in for `python3 -m pytest -q`\n"},
			[]string{"# from .pre-commit-config.yaml; run by pre-commit.ci (the ci: key of .pre-commit-config.yaml)\n[[stop.checks]]\nname = \"lint\"\ncommand = \"pre-commit run --all-files\"\ntimeout = \"5m\"\nenv = { SKIP = \"trailing-whitespace,end-of-file-fixer,ruff,ruff-format,codespell\" }"}},
		// The CI's pre-commit action: pre-commit is the lint, a local hook's entry read.
		{"node-precommit-action", []string{"test | npm test", "lint | pre-commit run --all-files"}, nil,
			[]string{"pre-commit (.pre-commit-config.yaml): hooks check-json, eslint; skipped, as they change files: prettier (it formats files in place); `pre-commit run --all-files` stands in for `npm run lint`",
				"GitHub Actions (.github/workflows/ci.yml): it runs pre-commit\n"},
			[]string{`# from .pre-commit-config.yaml; run by .github/workflows/ci.yml, job "pre-commit", step "pre-commit/action@v3.0.1"` + "\n[[stop.checks]]\nname = \"lint\"\ncommand = \"pre-commit run --all-files\"\ntimeout = \"5m\"\nenv = { SKIP = \"prettier\" }"}},
		// The CI lints without pre-commit: its lint stands in for pre-commit's.
		{"go-precommit-ci", []string{"test | go test ./...", "lint | golangci-lint run"}, []string{"format | " + GofmtCheck + ""},
			[]string{"pre-commit (.pre-commit-config.yaml): hooks check-yaml, golangci-lint",
				"GitHub Actions (.github/workflows/ci.yml): `golangci-lint run` stands in for `pre-commit run --all-files`"}, nil},
		// Every hook fixes files: no check, and why.
		{"go-precommit-fixers", []string{"test | go test ./...", "lint | go vet ./...", "format | " + GofmtCheck + ""}, nil,
			[]string{"Go module (go.mod)", "pre-commit (.pre-commit-config.yaml): no check: every hook changes files: trailing-whitespace (it fixes files), go-fmt (it fixes files), go-imports (it fixes files)"}, nil},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			d := Detect(os.DirFS(filepath.Join("testdata", "projects", tc.dir)))
			if got := checkLines(d.Checks()); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("checks:\n  got  %q\n  want %q", got, tc.want)
			}
			var off []config.Check
			for _, p := range d.Proposals() {
				if p.Off != "" {
					off = append(off, p.Check)
				}
			}
			if got := checkLines(off); !reflect.DeepEqual(got, tc.off) {
				t.Errorf("commented out:\n  got  %q\n  want %q", got, tc.off)
			}
			sum, at := d.Summary(), 0
			for _, f := range tc.found {
				i := strings.Index(sum[at:], f)
				if i < 0 {
					t.Errorf("summary lacks %q after offset %d:\n%s", f, at, sum)
					break
				}
				at += i + len(f)
			}
			file := InitFile(d)
			for _, c := range tc.comments {
				if !strings.Contains(file, c) {
					t.Errorf("the file lacks %q:\n%s", c, file)
				}
			}
		})
	}
}

// TestParseWorkflow: the shapes workflows are written in: steps indented under steps: or
// level with it, block scalars, quoted names, comments, a job's services, a secret in env, a
// job's default working-directory.
func TestParseWorkflow(t *testing.T) {
	wf := `name: CI # the CI
on:
  push:
jobs:
  # the tests
  test:
    runs-on: ${{ matrix.os }}
    steps:
    - uses: actions/checkout@v4
    - name: "Tests"
      run: >-
        go test
        -race ./...
    - run: |
        go vet ./...
        staticcheck ./...
      working-directory: ./sub
  web:
    defaults:
      run:
        working-directory: web
    steps:
      - run: npm test
      - run: npm run lint
        working-directory: web/app
  db:
    services:
      pg:
        image: postgres
    steps:
      - name: 'Integration'
        env:
          TOKEN: ${{ secrets.TOKEN }}
        run: go test -tags db ./...
`
	var got []string
	for _, s := range parseWorkflow("ci.yml", wf) {
		got = append(got, fmt.Sprintf("%s|%s|%s|%s|%s|%v|%v", s.job, s.name, s.uses, s.run, s.workdir, s.services, s.secrets))
	}
	want := []string{
		"test||actions/checkout@v4|||false|false",
		"test|Tests||go test -race ./...||false|false",
		"test|||go vet ./...\nstaticcheck ./...|./sub|false|false",
		"web|||npm test|web|false|false",
		"web|||npm run lint|web/app|false|false",
		"db|Integration||go test -tags db ./...||true|true",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("steps:\n  got  %q\n  want %q", got, want)
	}
}

// TestDetectToxShapes: the shapes tox.ini is written in: a tox.ini without envlist (tox runs
// py), factor-conditional commands, env_list, generative names, {envpython}, an env whose
// commands are all setup.
func TestDetectToxShapes(t *testing.T) {
	for _, tc := range []struct {
		name, ini string
		want      []string
	}{
		{"no envlist", "[testenv]\ncommands = pytest\n", []string{"test | tox -e py"}},
		{"factors", "[tox]\nenvlist = py{310,311}-{unit,mypy}\n\n[testenv]\ncommands =\n    unit: {envpython} -m pytest tests\n    mypy: mypy src\n",
			[]string{"test | tox -e py-unit", "typecheck | tox -e py-mypy"}},
		{"env_list", "[tox]\nenv_list =\n    style\n    3.12\n\n[testenv]\ncommands = python -m unittest\n\n[testenv:style]\ncommands =\n    - flake8 src\n",
			[]string{"test | tox -e py", "lint | tox -e style"}},
		{"setup only", "[tox]\nenvlist = build\n\n[testenv:build]\ncommands = python -m build\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := Detect(fstest.MapFS{"tox.ini": {Data: []byte(tc.ini)}})
			if got := checkLines(d.Checks()); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("checks:\n  got  %q\n  want %q\n%s", got, tc.want, d.Summary())
			}
		})
	}
}

// TestDetectPreCommitAtTheRoot: pre-commit reads the configuration at the root of the
// repository, wherever it runs: one in a sub-directory is no check.
func TestDetectPreCommitAtTheRoot(t *testing.T) {
	hooks := []byte("repos:\n- repo: local\n  hooks:\n  - id: no-tabs\n    entry: '\\t'\n    language: pygrep\n")
	d := Detect(fstest.MapFS{
		".pre-commit-config.yaml":     {Data: hooks},
		"web/package.json":            {Data: []byte(`{"scripts":{"test":"node --test"}}`)},
		"web/.pre-commit-config.yaml": {Data: hooks},
	})
	want := []string{"lint | pre-commit run --all-files", "web: test | npm test | web"}
	if got := checkLines(d.Checks()); !reflect.DeepEqual(got, want) {
		t.Errorf("checks:\n  got  %q\n  want %q\n%s", got, want, d.Summary())
	}
}

// The project's own checks that others stood in for wait on standby, unwritten, and those of a
// role the CI does not run are written commented out: init may turn either on (TurnOn), and
// the file then writes it enabled with why, once.
func TestStandbyChecks(t *testing.T) {
	d := Detect(fstest.MapFS{
		"go.mod": {Data: []byte("module example.com/a\n\ngo 1.22\n")},
		".github/workflows/ci.yml": {Data: []byte("name: CI\non: [push]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n" +
			"      - run: go test -run TestNothing ./...\n")},
	})
	var got []string
	for _, s := range d.Standby() {
		got = append(got, fmt.Sprintf("%s | %s | %s | %t", s.Role, s.Check.Name, s.Check.Command, s.Off != ""))
	}
	want := []string{"test | go test | go test ./... | false", "lint | lint | go vet ./... | true", "format | format | " + GofmtCheck + " | true"}
	if !slices.Equal(got, want) {
		t.Fatalf("standby %q, want %q", got, want)
	}
	if before := InitFile(d); strings.Contains(before, `name = "go test"`) {
		t.Fatalf("a standby check is written before it is turned on:\n%s", before)
	}
	if !d.TurnOn("go test", "turned on: the CI's test runs no tests") || !d.TurnOn("lint", "turned on: why") || d.TurnOn("test", "not a standby check") {
		t.Fatal("TurnOn turned on the wrong checks")
	}
	f := InitFile(d)
	for _, w := range []string{
		"# turned on: the CI's test runs no tests\n[[stop.checks]]\nname = \"go test\"\ncommand = \"go test ./...\"",
		"# turned on: why\n[[stop.checks]]\nname = \"lint\"\ncommand = \"go vet ./...\"",
	} {
		if strings.Count(f, w) != 1 {
			t.Errorf("the file has %q %d times:\n%s", w, strings.Count(f, w), f)
		}
	}
	if got := len(d.Standby()); got != 1 {
		t.Errorf("%d checks still on standby, want the format check alone", got)
	}
}

// TestDetectCMake: a CMake project with tests builds out of tree and runs ctest with the
// failures' output, without its CI too; one without tests is named, with no check; a
// CMakeLists.txt of a subdirectory is its parent's.
func TestDetectCMake(t *testing.T) {
	lists := "cmake_minimum_required(VERSION 3.14)\nproject(x C)\nadd_library(x x.c)\n"
	for _, tc := range []struct {
		name  string
		fsys  fstest.MapFS
		want  []string
		found string
	}{
		{"enable_testing", fstest.MapFS{"CMakeLists.txt": {Data: []byte(lists + "enable_testing()\nadd_subdirectory(tests)\n")},
			"tests/CMakeLists.txt": {Data: []byte("add_test(NAME t COMMAND t)\n")}},
			[]string{"test | cmake -S . -B build && cmake --build build && ctest --test-dir build --output-on-failure"},
			"CMake project (CMakeLists.txt): ctest, built out of tree in build\n"},
		{"include CTest", fstest.MapFS{"lib/CMakeLists.txt": {Data: []byte(lists + "include(CTest)\n")}},
			[]string{"lib: test | cmake -S . -B build && cmake --build build && ctest --test-dir build --output-on-failure | lib"},
			"lib: CMake project (CMakeLists.txt): ctest"},
		{"no tests", fstest.MapFS{"CMakeLists.txt": {Data: []byte(lists)}}, nil,
			"CMake project (CMakeLists.txt): no tests (no enable_testing, add_test or include(CTest)): no checks"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := Detect(tc.fsys)
			if got := checkLines(d.Checks()); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("checks:\n  got  %q\n  want %q\n%s", got, tc.want, d.Summary())
			}
			if !strings.Contains(d.Summary(), tc.found) {
				t.Errorf("summary lacks %q:\n%s", tc.found, d.Summary())
			}
		})
	}
}

// TestDetectUVGroups: init's own pytest and ruff run through uv run --locked with the
// dependency group that holds them, when it is not one uv installs by default (dev, or those
// tool.uv's default-groups names).
func TestDetectUVGroups(t *testing.T) {
	for _, tc := range []struct {
		name, pyproject string
		want            []string
	}{
		{"dev group", "[dependency-groups]\ndev = [\"pytest>=8\", \"ruff\"]\n[tool.ruff]\n",
			[]string{"test | uv run --locked pytest -q", "lint | uv run --locked ruff check --no-fix ."}},
		{"test and lint groups", "[dependency-groups]\ntest = [\"pytest-cov\", \"pytest >=8\"]\nlint = [{include-group = \"base\"}, \"ruff==0.6.9\"]\n[tool.ruff]\n",
			[]string{"test | uv run --locked --group test pytest -q", "lint | uv run --locked --group lint ruff check --no-fix ."}},
		{"default-groups", "[dependency-groups]\ntest = [\"pytest\"]\n[tool.uv]\ndefault-groups = [\"dev\", \"test\"]\n",
			[]string{"test | uv run --locked pytest -q"}},
		{"an extra", "[project]\nname = \"x\"\n[project.optional-dependencies]\ntest = [\"pytest\"]\n",
			[]string{"test | uv run --locked --extra test pytest -q"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := Detect(fstest.MapFS{
				"pyproject.toml":    {Data: []byte(tc.pyproject)},
				"uv.lock":           {Data: []byte("version = 1\n")},
				"tests/test_x.py":   {Data: []byte("def test_x(): pass\n")},
				"src/x/__init__.py": {Data: []byte("")},
			})
			if got := checkLines(d.Checks()); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("checks:\n  got  %q\n  want %q\n%s", got, tc.want, d.Summary())
			}
		})
	}
}

// TestDetectCIcdInALine: a cd anywhere in a script's line moves the commands after it, on that
// line and the next ones, as the shell does.
func TestDetectCIcdInALine(t *testing.T) {
	wf := "jobs:\n  ci:\n    steps:\n      - run: npm ci && cd web && npm test\n" +
		"      - run: |\n          cd api && go test -race ./... && cd ../web\n          npm run lint\n"
	d := Detect(fstest.MapFS{
		".github/workflows/ci.yml": {Data: []byte(wf)},
		"web/package.json":         {Data: []byte(`{"scripts":{"test":"node --test","lint":"eslint ."}}`)},
		"web/package-lock.json":    {Data: []byte(`{}`)},
		"api/go.mod":               {Data: []byte("module api\n")},
	})
	want := []string{"api: test | go test -race ./... | api", "web: test | npm test | web", "web: lint | npm run lint | web"}
	if got := checkLines(d.Checks()); !reflect.DeepEqual(got, want) {
		t.Errorf("checks:\n  got  %q\n  want %q\n%s", got, want, d.Summary())
	}
}

// TestDetectPreCommitCheckModeBesideCI: where pre-commit.ci runs the hooks and the CI runs
// ruff's check itself, the check-mode command of pre-commit's ruff hook is not proposed twice.
func TestDetectPreCommitCheckModeBesideCI(t *testing.T) {
	d := Detect(fstest.MapFS{
		".pre-commit-config.yaml":  {Data: []byte("ci:\n  autofix_prs: true\nrepos:\n- repo: https://github.com/astral-sh/ruff-pre-commit\n  rev: v0.8.0\n  hooks:\n  - id: ruff\n    args: [--fix]\n  - id: ruff-format\n  - id: check-toml\n")},
		"pyproject.toml":           {Data: []byte("[tool.ruff]\n")},
		".github/workflows/ci.yml": {Data: []byte("jobs:\n  lint:\n    steps:\n      - run: ruff format --check .\n")},
	})
	want := []string{"lint | pre-commit run --all-files", "ruff lint | ruff check --no-fix", "format | ruff format --check ."}
	if got := checkLines(d.Checks()); !reflect.DeepEqual(got, want) {
		t.Errorf("checks:\n  got  %q\n  want %q\n%s", got, want, d.Summary())
	}
	// Nor is it on standby, to be run again if a check of its role falls.
	for _, sb := range d.Standby() {
		if strings.HasPrefix(sb.Check.Command, "ruff format --check") {
			t.Errorf("on standby: %+v", sb)
		}
	}
}

// TestDetectNoxSessionNames: a session whose commands are computed is known by its name.
func TestDetectNoxSessionNames(t *testing.T) {
	nox := "import nox\n\nARGS = [\"x\"]\n\n" +
		"@nox.session\ndef docs(session):\n    session.run(*ARGS)\n\n" +
		"@nox.session(name=\"type-check\")\ndef types_(session):\n    session.run(*ARGS)\n\n" +
		"@nox.session\ndef unit_tests(session):\n    session.run(*ARGS)\n\n" +
		"@nox.session\ndef fmt(session):\n    session.run(*ARGS)\n"
	d := Detect(fstest.MapFS{"noxfile.py": {Data: []byte(nox)}})
	want := []string{"test | nox -R -s unit_tests", "typecheck | nox -R -s type-check"}
	if got := checkLines(d.Checks()); !reflect.DeepEqual(got, want) {
		t.Errorf("checks:\n  got  %q\n  want %q\n%s", got, want, d.Summary())
	}
}

// TestDetectCMakeBesideAMakefile: a CMake project's ctest, not the makefile's make test, runs its
// tests, with or without its CI.
func TestDetectCMakeBesideAMakefile(t *testing.T) {
	d := Detect(fstest.MapFS{
		"CMakeLists.txt": {Data: []byte("project(x C)\nenable_testing()\nadd_test(NAME t COMMAND t)\n")},
		"Makefile":       {Data: []byte("test: demo\n\t./demo\n")},
	})
	want := []string{"test | cmake -S . -B build && cmake --build build && ctest --test-dir build --output-on-failure"}
	if got := checkLines(d.Checks()); !reflect.DeepEqual(got, want) {
		t.Errorf("checks:\n  got  %q\n  want %q\n%s", got, want, d.Summary())
	}
	if sum := d.Summary(); !strings.Contains(sum, "Makefile with a test target: `cmake -S . -B build && cmake --build build && ctest --test-dir build --output-on-failure` stands in for `make test`") {
		t.Errorf("summary:\n%s", sum)
	}
}

// TestDetectCIPythonRunnerWithEnv: a CI line that runs pytest through uv with assignments
// before it is the CI's check, run through uv as init runs it, the assignments kept.
func TestDetectCIPythonRunnerWithEnv(t *testing.T) {
	d := Detect(fstest.MapFS{
		".github/workflows/ci.yml": {Data: []byte("jobs:\n  test:\n    steps:\n      - run: uv sync\n      - run: PYTHONHASHSEED=0 uv run pytest -x\n")},
		"pyproject.toml":           {Data: []byte("[dependency-groups]\ndev = [\"pytest\"]\n")},
		"uv.lock":                  {Data: []byte("version = 1\n")},
		"tests/test_x.py":          {Data: []byte("def test_x(): pass\n")},
	})
	want := []string{"test | PYTHONHASHSEED=0 uv run --locked pytest -x"}
	if got := checkLines(d.Checks()); !reflect.DeepEqual(got, want) {
		t.Errorf("checks:\n  got  %q\n  want %q\n%s", got, want, d.Summary())
	}
}

// TestDetectCMakeMakefileNotOnStandby: beside a CMakeLists.txt with tests, the root makefile's
// make test is a build of its own: not proposed, and not on standby for init to turn on when
// ctest cannot be proven.
func TestDetectCMakeMakefileNotOnStandby(t *testing.T) {
	d := Detect(fstest.MapFS{
		"CMakeLists.txt": {Data: []byte("cmake_minimum_required(VERSION 3.14)\nproject(x C)\nenable_testing()\nadd_test(NAME t COMMAND t)\n")},
		"Makefile":       {Data: []byte("all:\n\tcc -o demo demo.c\ntest: all\n\t./demo\n")},
	})
	want := []string{"test | cmake -S . -B build && cmake --build build && ctest --test-dir build --output-on-failure"}
	if got := checkLines(d.Checks()); !reflect.DeepEqual(got, want) {
		t.Errorf("checks:\n  got  %q\n  want %q\n%s", got, want, d.Summary())
	}
	for _, s := range d.Standby() {
		if strings.Contains(s.Check.Command, "make test") {
			t.Errorf("make test is on standby: %+v", s)
		}
	}
}
