package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"

	"github.com/hooksup/hooksup/agent/agents"
	"github.com/hooksup/hooksup/project"
)

// initCmd is hooksup init, with --no-run when noRun.
func initCmd(noRun bool) []string {
	if noRun {
		return []string{"init", "--no-run"}
	}
	return []string{"init"}
}

// `hooksup init` in a project writes the checks that project runs, says what it found, and the
// file, once trusted, gives exactly those checks through the real loader.
func TestInitDetectsTheProject(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		tree map[string]string
		want []string // name | command [| cwd]
		said []string // in init's output
	}{
		{"go", map[string]string{"go.mod": "module example.com/a\n\ngo 1.22\n", "a.go": "package a\n"},
			[]string{"test | go test ./...", "lint | go vet ./...", "format | " + project.GofmtCheck}, []string{"Go module (go.mod)"}},
		{"node-pnpm", map[string]string{
			"package.json":   `{"name":"web","scripts":{"test":"vitest run","lint":"eslint .","typecheck":"tsc --noEmit","dev":"vite"}}`,
			"pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
		}, []string{"test | pnpm run test", "lint | pnpm run lint", "typecheck | pnpm run typecheck"},
			[]string{"Node, pnpm (pnpm-lock.yaml): scripts test, lint, typecheck"}},
		{"node-npm-placeholder", map[string]string{
			"package.json": `{"name":"x","scripts":{"test":"echo \"Error: no test specified\" && exit 1"}}`,
		}, nil, []string{"npm's placeholder", "recognised no checks"}},
		{"python", map[string]string{
			"pyproject.toml":      "[project]\nname = \"app\"\n\n[tool.ruff]\nline-length = 100\n",
			"tests/test_app.py":   "def test_ok():\n    pass\n",
			"src/app/__init__.py": "",
		}, []string{"test | python3 -m pytest -q", "lint | ruff check --no-fix ."}, []string{"Python (pyproject.toml): pytest (tests/), ruff ([tool.ruff])"}},
		{"rust", map[string]string{"Cargo.toml": "[package]\nname = \"a\"\nversion = \"0.1.0\"\n", "src/lib.rs": ""},
			[]string{"test | cargo test", "lint | cargo clippy -- -D warnings"}, []string{"Rust crate (Cargo.toml)"}},
		{"makefile", map[string]string{"Makefile": "build:\n\tcc -o a a.c\n\ntest: build\n\t./a --self-test\n"},
			[]string{"test | make test"}, []string{"Makefile with a test target"}},
		{"monorepo", map[string]string{
			"Makefile":                        "test:\n\t./all-tests.sh\n",
			"web/package.json":                `{"name":"web","scripts":{"test":"vitest run","lint":"eslint ."}}`,
			"web/pnpm-lock.yaml":              "lockfileVersion: '9.0'\n",
			"web/node_modules/x/package.json": `{"scripts":{"test":"tape"}}`,
			"services/api/go.mod":             "module example.com/api\n\ngo 1.22\n",
			"services/ml/pyproject.toml":      "[project]\nname = \"ml\"\n\n[tool.pytest.ini_options]\n",
		}, []string{
			"test | make test",
			"api: test | go test ./... | services/api", "api: lint | go vet ./... | services/api", "api: format | " + project.GofmtCheck + " | services/api",
			"ml: test | python3 -m pytest -q | services/ml",
			"web: test | pnpm run test | web", "web: lint | pnpm run lint | web",
		}, []string{"Makefile with a test target", "services/api: Go module (go.mod)", "services/ml: Python (pyproject.toml)", "web: Node, pnpm (pnpm-lock.yaml)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := e2e.NewSandbox(t)
			s.Files(tc.tree)
			out := s.Ok("init", "--no-run") // shapes, not projects that build
			e2e.Says(t, "init", out, append(tc.said, ".hooksup.toml", "hooksup trust")...)
			for _, c := range tc.want {
				// Each check is listed with its command.
				f := strings.SplitN(c, " | ", 3)
				if !strings.Contains(out, f[0]) || !strings.Contains(out, f[1]) {
					t.Errorf("init did not list %q:\n%s", c, out)
				}
			}
			s.TrustGives(tc.want...)
		})
	}
}

// In an empty directory init says it recognised nothing, writes a file without checks that says
// so and shows one to start from, and never overwrites a file that is there.
func TestInitRecognisesNothingAndNeverOverwrites(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	code, out := s.Hooksup(t, "init")
	if code != 0 || !strings.Contains(out, "recognised no project") || !strings.Contains(out, "hooksup trust") {
		t.Fatalf("%d %s", code, out)
	}
	path := filepath.Join(s.Project, ".hooksup.toml")
	b, _ := os.ReadFile(path)
	if !strings.Contains(string(b), "hooksup init recognised no project here") || !strings.Contains(string(b), "# [[stop.checks]]") {
		t.Fatalf("the file does not say it found nothing:\n%s", b)
	}
	s.TrustGives()
	s.CheckGives(0, "", "no [[stop.checks]] configured")
	os.WriteFile(path, []byte("# mine\n"), 0o644)
	if code, out := s.Hooksup(t, "init"); code == 0 || !strings.Contains(out, "never overwrites") {
		t.Fatalf("%d %s", code, out)
	}
	if b, _ := os.ReadFile(path); string(b) != "# mine\n" {
		t.Fatal("overwritten")
	}
}

// hooksup init && hooksup trust && hooksup check in a tiny Go module: the detected checks run
// there, fail while a test fails, and pass once it is fixed.
func TestInitTrustCheckInAGoModule(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	s.Env = append(s.Env, e2e.GoEnv(t)...)
	s.Files(e2e.TinyModule("", "a - b"))
	// --no-run: tried on this tree, the failing test would be written commented out.
	s.Ok("init", "--no-run")
	s.Ok("trust", "--yes")
	s.CheckGives(1, "", "✗ test: exit 1", "Add(2, 3) = -1") // a failing test
	s.Files(map[string]string{"tiny.go": e2e.TinyGo("a + b")})
	s.CheckGives(0, "", "✓ test", "✓ lint", "all 3 checks passed")
	// A file left as gofmt would not write it fails the format check, which names it.
	s.Files(map[string]string{"tiny.go": "package tiny\n\n// Add adds.\nfunc Add(a, b int) int {   return a + b }\n"})
	s.CheckGives(1, "", "✗ format: exit 1", "tiny.go")
}

// A proposed check whose program is not installed is named by init, and by doctor as a
// problem once the file is trusted, so the first stop does not fail with "sh: uv: not found".
func TestInitAndDoctorNameMissingTools(t *testing.T) {
	t.Parallel()
	for _, noRun := range []bool{false, true} {
		name := "init"
		if noRun {
			name = "init --no-run"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := e2e.NewSandbox(t)
			s.PathOf("make", "sh", "true") // make, what its recipe runs, and nothing else
			s.Files(map[string]string{
				"pyproject.toml":     "[project]\nname = \"app\"\n\n[tool.ruff]\nline-length = 100\n",
				"uv.lock":            "version = 1\n",
				"tests/test_app.py":  "def test_ok():\n    pass\n",
				"web/package.json":   `{"name":"web","scripts":{"test":"vitest run"}}`,
				"web/pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
				"tools/Makefile":     "test:\n\ttrue\n",
			})
			out := s.Ok(initCmd(noRun)...)
			if !noRun {
				// Proven: written commented out, with why; nothing left for doctor to name.
				e2e.Says(t, "init", out, "✗ test: its program `uv` is not installed here, commented out",
					"✗ lint: its program `uv` is not installed here, commented out", "✗ web: test: its program `pnpm` is not installed here, commented out")
				s.FileSays("# its program `pnpm` is not installed here: install it, then uncomment\n# [[stop.checks]]\n# name = \"web: test\"\n# command = \"pnpm run test\"")
				s.TrustGives("tools: test | make test | tools")
				if _, out := s.Doctor(); strings.Contains(out, "not found on the PATH") {
					t.Errorf("doctor names a program of a check commented out:\n%s", out)
				}
				return
			}
			// --no-run: kept, named by init, noted in the file, and named by doctor.
			e2e.Says(t, "init", out, "not found on the PATH: uv (test, lint), pnpm (web: test)")
			if strings.Contains(out, "make (") {
				t.Errorf("init named make, which is there:\n%s", out)
			}
			s.FileSays("# its program `pnpm` is not installed here (hooksup init --no-run kept it): it fails at every stop until it is\n[[stop.checks]]\nname = \"web: test\"")
			s.Ok("trust", "--yes")
			code, out := s.Doctor()
			e2e.Says(t, "doctor", out, `✗ check "test": uv not found on the PATH`, `✗ check "lint": uv not found on the PATH`, `✗ check "web: test": pnpm not found on the PATH`)
			if code != 1 || strings.Contains(out, `"tools: test"`) {
				t.Errorf("doctor: %d\n%s", code, out)
			}
		})
	}
}

// A Makefile beside a .venv calls a bare python: make test runs in the activated virtualenv, so
// the check passes without the person activating it first.
func TestInitMakeTestInTheVenv(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	bin := s.PathOf("sh", "make", "dirname", "basename", "env", "cat") // and a python without pytest
	os.WriteFile(filepath.Join(bin, "python"), []byte("#!/bin/sh\necho 'No module named pytest'; exit 1\n"), 0o755)
	s.Files(map[string]string{
		"pyproject.toml":     "[project]\nname = \"app\"\n\n[tool.pytest.ini_options]\n",
		"tests/test_app.py":  "def test_ok():\n    pass\n",
		"Makefile":           ".PHONY: test\ntest:\n\tpython -m pytest\n",
		".venv/pyvenv.cfg":   "home = /usr/bin\n",
		".venv/bin/activate": "VIRTUAL_ENV=\"$(pwd)/.venv\"\nPATH=\"$VIRTUAL_ENV/bin:$PATH\"\nexport VIRTUAL_ENV PATH\n",
	})
	os.WriteFile(filepath.Join(s.Project, ".venv", "bin", "python"), []byte("#!/bin/sh\necho '1 passed'\n"), 0o755)
	s.Ok("init")
	s.Ok("trust", "--yes")
	s.CheckGives(0, "1 check passed\n")
}

// init && trust && check on a Go module whose CI runs make ci and go vet: init proposes those,
// not make test, which fetches, nor its own go test; check runs them, exit 0, and exit 1
// once a test fails.
func TestInitTrustCheckTheCIsChecks(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	s.Env = append(s.Env, e2e.GoEnv(t)...)
	s.Files(e2e.TinyModule("", "a + b"))
	s.Files(map[string]string{
		"Makefile": "test: deps\n\tgo test ./...\n\ndeps:\n\tgo mod download\n\nci:\n\tgo test -count=1 ./...\n",
		".github/workflows/ci.yml": "name: CI\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n" +
			"      - uses: actions/checkout@v4\n      - run: make ci\n      - name: Vet\n        run: go vet ./...\n" +
			"      - name: Coverage\n        run: goveralls -service=github -repotoken ${{ secrets.COVERALLS_TOKEN }}\n",
	})
	out := s.Ok("init")
	e2e.Says(t, "init", out, "GitHub Actions (.github/workflows/ci.yml)", "test  make ci", "lint  go vet ./...", "`make test` fetches from the network (go mod download, in deps)")
	// The file names the CI step of go vet.
	s.FileSays("# from .github/workflows/ci.yml, job \"test\", step \"Vet\"\n[[stop.checks]]\nname = \"lint\"\ncommand = \"go vet ./...\"")
	s.TrustGives("test | make ci", "lint | go vet ./...")
	s.CheckGives(0, "all 2 checks passed\n")
	s.Files(map[string]string{"tiny.go": e2e.TinyGo("a - b")})
	s.CheckGives(1, "1 of 2 checks failed\n", "Add(2, 3) = -1") // a failing test
}

// init tries each proposed check once on the untouched tree: one that fails there (go vet on a
// module whose tests pass) is written commented out with why and its failing lines, so the
// agent's first stop does not demand fixes of what it did not break; with --no-run it is not.
func TestInitTriesTheChecksOnce(t *testing.T) {
	t.Parallel()
	goenv := e2e.GoEnv(t)
	tree := map[string]string{
		"go.mod":       "module example.com/tiny\n\ngo 1.21\n",
		"tiny.go":      "package tiny\n\n// Same returns n.\nfunc Same(n int) int {\n\tn = n\n\treturn n\n}\n",
		"tiny_test.go": "package tiny\n\nimport \"testing\"\n\nfunc TestSame(t *testing.T) { Same(1) }\n",
	}
	for _, tc := range []struct {
		args []string
		code int
		last string
		said []string
		file string
	}{
		{[]string{"init"}, 0, "2 checks passed\n",
			[]string{"✓ test", "✗ lint: exit 1", "and, commented out for you to decide:", "lint  go vet ./...  (it fails on the untouched tree (exit 1)"},
			"# it fails on the untouched tree (exit 1)\n# so the agent would be made to fix what it did not break; its output:\n#   "},
		{[]string{"init", "--no-run"}, 1, "1 of 3 checks failed\n", nil, "\n[[stop.checks]]\nname = \"lint\"\ncommand = \"go vet ./...\""},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Parallel()
			s := e2e.NewSandbox(t)
			s.Env = append(s.Env, goenv...)
			s.Files(tree)
			e2e.Says(t, "init", s.Ok(tc.args...), tc.said...)
			b := s.FileSays(tc.file)
			if len(tc.said) > 0 && !strings.Contains(b, "self-assignment of n") {
				t.Errorf("the file does not quote vet's complaint:\n%s", b)
			}
			s.Ok("trust", "--yes")
			s.CheckGives(tc.code, tc.last)
		})
	}
}

// init && trust && check on a repository whose workflow tests a Go module in a sub-directory
// (working-directory, and a job's defaults): init proposes those steps' commands there, with
// that cwd, in place of its own guesses for the module; check runs them there, exit 0, and
// exit 1 once a test fails.
func TestInitTrustCheckAStepsWorkingDirectory(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	s.Env = append(s.Env, e2e.GoEnv(t)...)
	s.Files(e2e.TinyModule("backend", "a + b"))
	s.Files(map[string]string{
		"README.md": "# tiny\n",
		".github/workflows/ci.yml": "name: CI\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    defaults:\n      run:\n        working-directory: backend\n    steps:\n" +
			"      - uses: actions/checkout@v4\n      - name: Test\n        run: go test -count=1 ./...\n  vet:\n    runs-on: ubuntu-latest\n    steps:\n" +
			"      - uses: actions/checkout@v4\n      - run: go vet ./...\n        working-directory: ./backend\n",
	})
	out := s.Ok("init", "--no-run")
	e2e.Says(t, "init", out, "backend: GitHub Actions (.github/workflows/ci.yml, working-directory backend)", "backend: test  go test -count=1 ./...  (in backend)", "backend: lint  go vet ./...")
	// The file names the step of the tests.
	s.FileSays("# from .github/workflows/ci.yml, job \"test\", step \"Test\"\n[[stop.checks]]\nname = \"backend: test\"\ncommand = \"go test -count=1 ./...\"\ntimeout = \"5m\"\ncwd = \"backend\"")
	s.TrustGives("backend: test | go test -count=1 ./... | backend", "backend: lint | go vet ./... | backend")
	s.CheckGives(0, "all 2 checks passed\n")
	s.Files(map[string]string{"backend/tiny.go": e2e.TinyGo("a - b")})
	s.CheckGives(1, "", "✗ backend: test", "Add(2, 3) = -1") // a failing test
}

// init on the shapes of projects whose maintainers run tox, nox or pre-commit, none of which
// this PATH has: init finds the tool's own commands, each under a comment naming where it came
// from, and writes them commented out, saying the tool is not installed; its own stand-ins
// (pytest, which this python lacks; ruff, not installed) are proven and fail too, so the file
// enables nothing, and check says there are no checks rather than failing on a missing tool at
// every stop; with --no-run they are kept, and check fails on the tool.
func TestInitTrustCheckTheMaintainersTools(t *testing.T) {
	t.Parallel()
	python := map[string]string{
		"pyproject.toml":    "[project]\nname = \"app\"\n\n[tool.ruff]\nline-length = 100\n",
		"tests/test_app.py": "def test_ok():\n    pass\n",
	}
	for _, tc := range []struct {
		name  string
		tree  map[string]string
		kept  []string // name | command, with --no-run
		said  []string // in init's output
		file  string   // in .hooksup.toml, the tool's check commented out
		check string   // in check's output with --no-run: the tool's check could not start
	}{
		{"tox", map[string]string{
			"tox.ini": "[tox]\nenvlist = py3{11,12}, lint, fix\n\n[testenv]\ndeps = pytest\ncommands = pytest {posargs}\n\n" +
				"[testenv:lint]\ncommands = ruff check .\n\n[testenv:fix]\ncommands = ruff check --fix .\n",
		}, []string{"test | tox -e py", "lint | tox -e lint"},
			[]string{"tox (tox.ini): envs py, lint; left out: fix (`ruff check --fix .` changes files)",
				"✗ test: its program `tox` is not installed here, commented out", "✗ lint: its program `tox` is not installed here, commented out",
				"✗ pytest: exit 1 ("},
			"# from tox.ini, env py [testenv]: pytest {posargs}\n# its program `tox` is not installed here: install it, then uncomment\n# [[stop.checks]]\n# name = \"test\"\n# command = \"tox -e py\"",
			"✗ test: could not start: /bin/sh: 1: tox: not found"},
		{"nox", map[string]string{
			"noxfile.py": "import nox\n\n\n@nox.session\ndef tests(session):\n    session.install(\"pytest\")\n    session.run(\"pytest\")\n\n\n" +
				"@nox.session\ndef lint(session):\n    session.run(\"ruff\", \"check\", \".\")\n",
		}, []string{"test | nox -R -s tests", "lint | nox -R -s lint"},
			[]string{"nox (noxfile.py): sessions tests, lint", "✗ lint: its program `nox` is not installed here, commented out"},
			"# from noxfile.py, session lint: ruff check .\n# its program `nox` is not installed here: install it, then uncomment\n# [[stop.checks]]\n# name = \"lint\"\n# command = \"nox -R -s lint\"",
			"✗ lint: could not start: /bin/sh: 1: nox: not found"},
		{"pre-commit", map[string]string{
			".pre-commit-config.yaml": "repos:\n- repo: https://github.com/pre-commit/pre-commit-hooks\n  rev: v5.0.0\n  hooks:\n  - id: end-of-file-fixer\n  - id: check-toml\n" +
				"- repo: https://github.com/astral-sh/ruff-pre-commit\n  rev: v0.8.0\n  hooks:\n  - id: ruff\n",
		}, []string{"test | python3 -m pytest -q", "lint | pre-commit run --all-files"},
			[]string{"pre-commit (.pre-commit-config.yaml): hooks check-toml, ruff; skipped, as they change files: end-of-file-fixer (it fixes files)",
				"✗ lint: its program `pre-commit` is not installed here, commented out", "✗ test: exit 1 (",
				"with no check enabled: until you enable one, the agent may always stop"},
			"# from .pre-commit-config.yaml\n# its program `pre-commit` is not installed here: install it, then uncomment\n# [[stop.checks]]\n# name = \"lint\"\n# command = \"pre-commit run --all-files\"\n# timeout = \"5m\"\n# env = { SKIP = \"end-of-file-fixer\" }",
			"✗ lint: could not start: /bin/sh: 1: pre-commit: not found"},
	} {
		for _, noRun := range []bool{false, true} {
			name := tc.name
			if noRun {
				name += "/no-run"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				s := e2e.NewSandbox(t)
				bin := s.PathOf("sh") // and a python3 without pytest, none of the tools
				os.WriteFile(filepath.Join(bin, "python3"), []byte("#!/bin/sh\necho 'No module named pytest'; exit 1\n"), 0o755)
				s.Files(python)
				s.Files(tc.tree)
				out := s.Ok(initCmd(noRun)...)
				if !noRun {
					e2e.Says(t, "init", out, tc.said...)
					s.FileSays(tc.file)
					s.TrustGives()
					s.CheckGives(0, "", "no [[stop.checks]] configured in")
					return
				}
				e2e.Says(t, "init", out, tc.said[0], "not found on the PATH: "+tc.name)
				s.TrustGives(tc.kept...)
				// The shell's words for it differ (dash, bash): the tool's name and "not found".
				code, out := s.Hooksup(t, "check")
				before, after, _ := strings.Cut(tc.check, ": /bin/sh: 1: ")
				if i := strings.Index(out, before); code != 1 || i < 0 || !strings.Contains(strings.SplitN(out[i:], "\n", 2)[0], after) {
					t.Errorf("check: %d %s", code, out)
				}
			})
		}
	}
}

// init && trust && check with tox, nox and pre-commit installed (each subtest skips where its
// tool is not): init tries the tool's check once and writes it enabled, check passes, and fails
// with the tool's own report once a test fails or a hook finds something; pre-commit's hook
// that fixes files is skipped, and the file it would fix is left as it was.
func TestInitTrustCheckWithTheRealTools(t *testing.T) {
	t.Parallel()
	unittest := map[string]string{
		"tests/test_app.py": "import unittest\n\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(1 + 1, 2)\n",
	}
	failing := map[string]string{
		"tests/test_app.py": "import unittest\n\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(1 + 1, 3)\n",
	}
	for _, tc := range []struct {
		name, tool string
		tree       map[string]string
		want       []string // name | command
		broken     map[string]string
		failed     string // in check's output once broken
	}{
		{"tox", "tox", map[string]string{
			"tox.ini": "[tox]\nenvlist = py3{11,12}\nskipsdist = true\n\n[testenv]\nskip_install = true\ncommands = python -m unittest discover -s tests\n",
		}, []string{"test | tox -e py"}, failing, "AssertionError: 2 != 3"},
		{"nox", "nox", map[string]string{
			"noxfile.py": "import nox\n\n\n@nox.session\ndef tests(session):\n    session.run(\"python\", \"-m\", \"unittest\", \"discover\", \"-s\", \"tests\")\n",
		}, []string{"test | nox -R -s tests"}, failing, "AssertionError: 2 != 3"},
		{"pre-commit", "pre-commit", map[string]string{
			".pre-commit-config.yaml": "repos:\n- repo: local\n  hooks:\n  - id: trailing-whitespace\n    name: trailing whitespace\n" +
				"    entry: sed -i -e 's/[[:space:]]*$//'\n    language: system\n    types: [text]\n" +
				"  - id: no-breakpoint\n    name: no breakpoint\n    entry: 'breakpoint\\(\\)'\n    language: pygrep\n    types: [python]\n",
			"app.py": "x = 1   \n",
		}, []string{"lint | pre-commit run --all-files"}, map[string]string{"app.py": "x = 1   \nbreakpoint()\n"}, "app.py:2:breakpoint()"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := e2e.NewSandbox(t)
			switch _, err := exec.LookPath(tc.tool); {
			case err == nil:
			case tc.tool == "nox" && exec.Command("/usr/bin/python3", "-m", "nox", "--version").Run() == nil:
				// Debian's python3-nox has no nox on the PATH.
				bin := t.TempDir()
				os.WriteFile(filepath.Join(bin, "nox"), []byte("#!/bin/sh\nexec /usr/bin/python3 -m nox \"$@\"\n"), 0o755)
				s.PathFirst(bin)
			case os.Getenv("CI") != "":
				t.Fatalf("no %s here: .ci/run installs it (Debian's tox, python3-nox, pre-commit)", tc.tool)
			default:
				t.Skipf("no %s here", tc.tool)
			}
			s.Files(unittest)
			s.Files(tc.tree)
			if tc.tool == "pre-commit" { // pre-commit runs on the files git knows
				s.Git("init", "-q")
				s.Git("add", "-A")
			}
			out := s.Ok("init")
			name := strings.SplitN(tc.want[0], " | ", 2)[0]
			e2e.Says(t, "init", out, "✓ "+name)
			if strings.Contains(out, "not found on the PATH") {
				t.Fatalf("init: %s", out)
			}
			s.TrustGives(tc.want...)
			s.CheckGives(0, "1 check passed\n")
			s.Files(tc.broken)
			if tc.tool == "pre-commit" {
				s.Git("add", "-A")
			}
			s.CheckGives(1, "", "✗ "+name, tc.failed) // once broken
			if tc.tool == "pre-commit" {
				if b, _ := os.ReadFile(filepath.Join(s.Project, "app.py")); string(b) != tc.broken["app.py"] {
					t.Errorf("check changed app.py to %q", b)
				}
			}
		})
	}
}

// The file init writes serves every agent hooksup supervises, and says so at its top, naming
// each of the agents' list; what it says of "the agent" is no one agent's.
func TestInitFileNamesEveryAgent(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	if code, out := s.Hooksup(t, "init", "--no-run"); code != 0 {
		t.Fatalf("%d %s", code, out)
	}
	b, _ := os.ReadFile(filepath.Join(s.Project, ".hooksup.toml"))
	var names []string
	for _, a := range agents.All() {
		names = append(names, a.Name())
	}
	head, _, _ := strings.Cut(string(b), "\nmode = ")
	if want := "# The same file serves hooksup " + andList(names) + ": \"the agent\" below is any of them."; !strings.Contains(head, want) {
		t.Errorf("the top of .hooksup.toml does not say %q:\n%s", want, head)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, "claude's last screen") || strings.Contains(l, "instead of claude") {
			t.Errorf("a line speaks of claude alone: %q", l)
		}
	}
}
