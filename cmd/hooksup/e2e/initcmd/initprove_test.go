package initcmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"

	"github.com/hooksup/hooksup/project"
)

// nodeLib is a JavaScript library as the motivating one: its CI runs `npm run lint`, which
// rewrites README.md at each run, and `npm run test:build`, which builds and runs no test, and
// not its tests (node --test).
var nodeLib = map[string]string{
	"package.json":      `{"name":"lib","version":"1.0.0","scripts":{"lint":"node scripts/automd.js","test:build":"node scripts/build.js","test":"node --test"}}`,
	"package-lock.json": `{"name":"lib","lockfileVersion":3,"requires":true,"packages":{"":{"name":"lib","version":"1.0.0"}}}`,
	".gitignore":        "dist/\nnode_modules/\n",
	"README.md":         "# lib\n",
	"scripts/automd.js": "const fs = require('fs');\nfs.writeFileSync('README.md', '# lib\\n\\nGenerated ' + Date.now() + '\\n');\n",
	"scripts/build.js":  "const fs = require('fs');\nfs.mkdirSync('dist', {recursive: true});\nfs.copyFileSync('sum.js', 'dist/sum.js');\n",
	"sum.js":            "exports.sum = (a, b) => a + b;\n",
	"test/sum.test.js": "const test = require('node:test');\nconst assert = require('node:assert');\nconst { sum } = require('../sum.js');\n\n" +
		"test('adds', () => assert.strictEqual(sum(2, 3), 5));\ntest('adds negatives', () => assert.strictEqual(sum(-2, -1), -3));\n",
	".github/workflows/ci.yml": "name: CI\non: [push]\njobs:\n  ci:\n    runs-on: ubuntu-latest\n    steps:\n" +
		"      - uses: actions/checkout@v4\n      - run: npm ci\n      - run: npm run lint\n      - run: npm run test:build\n",
}

// init proves each check on the untouched tree. On the library above: the CI's lint changes
// README.md, and is written commented out naming it; its test:build passes but runs no tests,
// and is kept, said so; no check then runs the tests, so init proves the package's own test
// script (node --test, its count read) and turns it on, and does not run the package's lint
// script again as the lint's stand-in. check passes, and a seeded bug fails it, naming the test.
func TestInitProvesTheChecks(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("no npm here")
	}
	s := e2e.NewSandbox(t)
	s.Files(nodeLib)
	s.Git("init", "-q")
	s.Git("add", "-A")
	s.Git("commit", "-qm", "lib")
	e2e.Says(t, "init", s.Ok("init"),
		"✗ lint: changed README.md (",
		"· test (", "): passes, but hooksup cannot tell that it runs tests (its output holds no test runner's summary hooksup knows): kept as a check that passes, not as the tests",
		"trying the project's own checks where those fell or run no tests:",
		"✓ npm test (", ", 2 tests)",
		"the tree is not as init found it: lint changed README.md; init restores nothing (git status and git diff show what changed)",
	)
	s.FileSays(
		"# it changes files: run once on the untouched tree, it changed README.md\n# (a check runs at every stop of the agent, and must leave the files as it found them)\n# [[stop.checks]]\n# name = \"lint\"\n# command = \"npm run lint\"",
		"# hooksup init ran it on the untouched tree: it passes, but hooksup cannot tell that it runs tests (its output holds no test runner's summary hooksup knows)\n[[stop.checks]]\nname = \"test\"\ncommand = \"npm run test:build\"",
		"# hooksup init turned this on: no other check proven to run the tests\n[[stop.checks]]\nname = \"npm test\"\ncommand = \"npm test\"",
	)
	s.TrustGives("npm test | npm test", "test | npm run test:build")
	s.CheckGives(0, "all 2 checks passed\n")
	s.Files(map[string]string{"sum.js": "exports.sum = (a, b) => a - b;\n"})
	s.CheckGives(1, "", "✗ npm test", "adds negatives") // a seeded bug
}

// A Go module whose CI's only test step runs no tests (go test -run of a name no test has):
// init keeps it, but proposes and proves the module's own go test ./..., and check then fails
// on a seeded bug, naming the test.
func TestInitProvesTheTestsRun(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	s.Env = append(s.Env, e2e.GoEnv(t)...)
	s.Files(e2e.TinyModule("", "a + b"))
	s.Files(map[string]string{
		".github/workflows/ci.yml": "name: CI\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n" +
			"      - uses: actions/checkout@v4\n      - name: Test\n        run: go test -run TestNothing ./...\n",
	})
	out := s.Ok("init")
	e2e.Says(t, "init", out,
		"· test (", "): passes, but runs no tests (go test says so): kept as a check that passes, not as the tests",
		"✓ go test (", ", tests in 1 Go package)",
	)
	if strings.Contains(out, "the tree is not as init found it") {
		t.Errorf("init says go test changed the tree:\n%s", out)
	}
	s.TrustGives("go test | go test ./...", "test | go test -run TestNothing ./...")
	s.Files(map[string]string{"tiny.go": e2e.TinyGo("a - b")})
	s.CheckGives(1, "", "✗ go test: exit 1", "TestAdd", "Add(2, 3) = -1") // a seeded bug
}

// A check whose program is not installed is written commented out, saying so, and the
// project's own check of its role stands in when init proves it: a Go module whose CI lints
// with staticcheck, not installed here, gets go vet, the module's own lint, proven and turned
// on; doctor then has nothing to say of staticcheck.
func TestInitNamesAMissingProgramAndStandsIn(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	s.Env = append(s.Env, e2e.GoEnv(t)...)
	s.Files(e2e.TinyModule("", "a + b"))
	s.Files(map[string]string{
		".github/workflows/ci.yml": "name: CI\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n" +
			"      - uses: actions/checkout@v4\n      - run: go test ./...\n      - run: staticcheck ./...\n",
	})
	s.PathOf("sh", "go") // no staticcheck
	e2e.Says(t, "init", s.Ok("init"),
		"✗ lint: its program `staticcheck` is not installed here, commented out",
		"✓ test (", ", tests in 1 Go package)",
		"trying the project's own checks where those fell or run no tests:",
		"✓ go vet (",
	)
	s.FileSays(
		"# its program `staticcheck` is not installed here: install it, then uncomment\n# [[stop.checks]]\n# name = \"lint\"\n# command = \"staticcheck ./...\"",
		"# hooksup init turned this on: the other lint checks fell\n[[stop.checks]]\nname = \"go vet\"\ncommand = \"go vet ./...\"",
	)
	s.TrustGives("test | go test ./...", "go vet | go vet ./...")
	if _, out := s.Doctor(); strings.Contains(out, "staticcheck") {
		t.Errorf("doctor names staticcheck, whose check is commented out:\n%s", out)
	}
}

// A package whose test script runs node --test (node 22 where the tests have it): init reads
// the count from its summary, and a script that runs no test file is kept, said to run none.
func TestInitReadsTheTestCount(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("no npm here")
	}
	test := "test('adds', () => assert.strictEqual(1 + 1, 2));\n"
	for _, tc := range []struct {
		name  string
		tests map[string]string
		said  []string
	}{
		{"three tests", map[string]string{"test/a.test.js": "const test = require('node:test');\nconst assert = require('node:assert');\n" + test + test + test},
			[]string{"  ✓ test (", "s, 3 tests)"}},
		{"none", nil, []string{"  · test (", "): passes, but runs no tests (node --test says so): kept as a check that passes, not as the tests"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := e2e.NewSandbox(t)
			if n := os.Getenv("HOOKSUP_TEST_NODE22"); n != "" {
				s.PathFirst(filepath.Dir(n))
			}
			s.Files(map[string]string{"package.json": `{"name":"x","version":"1.0.0","scripts":{"test":"node --test"}}`})
			s.Files(tc.tests)
			out := s.Ok("init")
			e2e.Says(t, "init", out, tc.said...)
			if strings.Contains(out, "trying the project's own") {
				t.Errorf("init tried another check:\n%s", out)
			}
			s.TrustGives("test | npm test")
		})
	}
}

// A Rust crate without a Cargo.lock: cargo test writes one on its first run (and its build in
// target/), which is no change a check makes at every stop; init proves it and reads its count.
func TestInitProvesACrateThatWritesItsLockfile(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("cargo"); err != nil {
		t.Skip("no cargo here")
	}
	s := e2e.NewSandbox(t)
	for _, k := range []string{"RUSTUP_HOME", "CARGO_HOME"} { // rustup's, under the real home
		if v := os.Getenv(k); v == "" {
			if home, err := os.UserHomeDir(); err == nil {
				s.Env = append(s.Env, k+"="+filepath.Join(home, "."+strings.ToLower(strings.TrimSuffix(k, "_HOME"))))
			}
		}
	}
	s.Files(map[string]string{
		"Cargo.toml": "[package]\nname = \"rc\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
		"src/lib.rs": "pub fn add(a: i32, b: i32) -> i32 { a + b }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() { assert_eq!(super::add(2, 3), 5); }\n}\n",
	})
	code, out := s.Hooksup(t, "init")
	if code != 0 || !strings.Contains(out, "✓ test (") || !strings.Contains(out, ", 1 test)") || strings.Contains(out, "Cargo.lock") {
		t.Fatalf("init: %d %s", code, out)
	}
	if _, err := os.Stat(filepath.Join(s.Project, "Cargo.lock")); err != nil {
		t.Fatalf("cargo test wrote no Cargo.lock: the test proves nothing: %v", err)
	}
}

// A Python project whose tests are unittest's TestCases, where pytest is not installed (a
// pytest package that cannot run stands in for its absence wherever the tests run): init's
// pytest check fails, is written commented out, and the standard library's runner, proven to
// run the test, is turned on in its place; check then fails on a seeded bug, naming the test.
func TestInitStandsInForAMissingPytest(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	nopytest := t.TempDir()
	os.MkdirAll(filepath.Join(nopytest, "pytest"), 0o755)
	os.WriteFile(filepath.Join(nopytest, "pytest", "__init__.py"), nil, 0o644)
	s.Env = append(s.Env, "PYTHONPATH="+nopytest, "PYTHONDONTWRITEBYTECODE=1")
	s.Files(map[string]string{
		"pyproject.toml":    "[project]\nname = \"app\"\n",
		"app.py":            "def add(a, b):\n    return a + b\n",
		"tests/test_app.py": "import unittest\n\nfrom app import add\n\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n",
	})
	e2e.Says(t, "init", s.Ok("init"), "✗ test: exit 1 (", "trying the project's own checks where those fell or run no tests:", "✓ unittest (", ", 1 test)")
	s.TrustGives("unittest | python3 -m unittest discover -s tests")
	s.Files(map[string]string{"app.py": "def add(a, b):\n    return a - b\n"})
	s.CheckGives(1, "", "✗ unittest", "test_add") // a seeded bug
}

// A CMake project outside git: init builds it out of the source (a build directory it creates)
// and runs ctest; the build tree is no change of the project, so the check is proven and on,
// and check then fails on a seeded bug, naming the failing test.
func TestInitProvesACMakeBuildOutOfTheSource(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"cmake", "cc"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is not installed (CI must install it)", tool)
			}
			t.Skipf("%s is not installed", tool)
		}
	}
	s := e2e.NewSandbox(t)
	s.Files(map[string]string{
		"CMakeLists.txt": "cmake_minimum_required(VERSION 3.14)\nproject(sum C)\nenable_testing()\n" +
			"add_executable(test_sum test_sum.c)\nadd_test(NAME test_sum COMMAND test_sum)\n",
		"sum.h":      "static int sum(int a, int b) { return a + b; }\n",
		"test_sum.c": "#include <stdio.h>\n#include \"sum.h\"\nint main(void) {\n  if (sum(2, 3) != 5) { printf(\"sum(2, 3) = %d\\n\", sum(2, 3)); return 1; }\n  return 0;\n}\n",
	})
	out := s.Ok("init")
	e2e.Says(t, "init", out, "✓ test (", ", 1 test)")
	if strings.Contains(out, "changed build/") {
		t.Fatalf("init took the build tree for a change of the project:\n%s", out)
	}
	s.TrustGives("test | cmake -S . -B build && cmake --build build && ctest --test-dir build --output-on-failure")
	s.Files(map[string]string{"sum.h": "static int sum(int a, int b) { return a - b; }\n"}) // a seeded bug
	s.CheckGives(1, "", "✗ test: exit", "test_sum", "sum(2, 3) = -1")
}

// A check that runs out of time while init proves it (a make test that outlasts --run-timeout)
// is written commented out, saying so, and the module's own go test ./..., which make test
// stood in for, is proven and turned on in its place: one check runs the tests, not two.
func TestInitCommentsOutACheckThatTimedOut(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	s.Env = append(s.Env, e2e.GoEnv(t)...)
	s.Files(e2e.TinyModule("", "a + b"))
	s.Files(map[string]string{"Makefile": ".PHONY: test\ntest:\n\tsleep 600\n"})
	out := s.Ok("init", "--run-timeout", "15s")
	e2e.Says(t, "init", out, "✗ make test: timed out after 15s, commented out",
		"trying the project's own checks where those fell or run no tests:", "✓ test (", ", tests in 1 Go package)")
	s.FileSays("# it timed out: hooksup init ran it on the untouched tree for 15s, and it was still running\n" +
		"# (a check runs at every stop of the agent; raise its timeout and uncomment it, if it should)\n" +
		"# [[stop.checks]]\n# name = \"make test\"\n# command = \"make test\"")
	s.TrustGives("test | go test ./...", "go vet | go vet ./...", "gofmt | "+project.GofmtCheck)
}

// A check that fails on the untouched tree is written commented out, quoting its output: its
// first lines, where rustup and many tools say what went wrong before a backtrace, and its last
// ones, with how many lines lie between; each line terminal-safe.
func TestInitQuotesTheErrorOfACheckThatFails(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	script := "echo \"error: toolchain 'x' is not installed\"\nprintf 'bell\\a\\n'\n" +
		"i=1; while [ $i -le 40 ]; do echo \"  $i: frame $i of the backtrace\"; i=$((i+1)); done\nexit 1\n"
	s.Files(map[string]string{"Makefile": ".PHONY: test\ntest:\n\t@sh fail.sh\n", "fail.sh": script})
	out := s.Ok("init")
	e2e.Says(t, "init", out, "✗ test: exit 2 (")
	b := s.FileSays("# so the agent would be made to fix what it did not break; its output:\n"+
		"#   error: toolchain 'x' is not installed\n#   bell\\a\n#     1: frame 1 of the backtrace\n#   … (",
		"#     40: frame 40 of the backtrace\n")
	if n := strings.Count(b, "frame "); n > 12 {
		t.Errorf("the file quotes %d lines of the backtrace, unbounded:\n%s", n, b)
	}
}

// A file that a check creates while init proves it (a coverage report) is removed again, and
// init says so; what the person had there, tracked or not, is left as it was.
func TestInitRemovesWhatTheProofCreated(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	s.Files(map[string]string{
		"Makefile": ".PHONY: test\ntest:\n\t@echo '<coverage/>' > coverage.xml\n\t@mkdir -p htmlcov && echo x > htmlcov/index.html\n" +
			"\t@echo '1 passed in 0.01s'\n",
		"notes.txt": "mine\n",
	})
	s.Git("init", "-q")
	s.Git("add", "Makefile")
	s.Git("commit", "-qm", "m")
	out := s.Ok("init")
	e2e.Says(t, "init", out, "✗ test: changed coverage.xml (created), htmlcov/index.html (created)",
		"init removed what the checks created: coverage.xml, htmlcov/index.html")
	if strings.Contains(out, "the tree is not as init found it") {
		t.Errorf("init says the tree is changed, having removed what was created:\n%s", out)
	}
	for _, gone := range []string{"coverage.xml", "htmlcov"} {
		if _, err := os.Lstat(filepath.Join(s.Project, gone)); err == nil {
			t.Errorf("%s is still there", gone)
		}
	}
	if b, err := os.ReadFile(filepath.Join(s.Project, "notes.txt")); err != nil || string(b) != "mine\n" {
		t.Errorf("notes.txt: %q %v", b, err)
	}
}

// A Meson project outside git: init builds it out of the source (a build directory it
// configures) and runs meson test, whose summary it reads for the count; the build tree is no
// change of the project, so the check is proven and on, and check then fails on a seeded bug,
// naming the failing test.
func TestInitProvesAMesonBuild(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"meson", "ninja", "cc"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is not installed (CI must install it)", tool)
			}
			t.Skipf("%s is not installed", tool)
		}
	}
	s := e2e.NewSandbox(t)
	s.Files(map[string]string{
		"meson.build": "project('sum', 'c')\nt = executable('test_sum', 'test_sum.c')\ntest('test_sum', t)\n",
		"sum.h":       "static int sum(int a, int b) { return a + b; }\n",
		"test_sum.c":  "#include <stdio.h>\n#include \"sum.h\"\nint main(void) {\n  if (sum(2, 3) != 5) { printf(\"sum(2, 3) = %d\\n\", sum(2, 3)); return 1; }\n  return 0;\n}\n",
	})
	out := s.Ok("init")
	e2e.Says(t, "init", out, "Meson project (meson.build)", "✓ test (", ", 1 test)")
	if strings.Contains(out, "changed build/") || strings.Contains(out, "removed") {
		t.Fatalf("init took the build tree for a change of the project:\n%s", out)
	}
	s.TrustGives("test | meson setup build && meson test -C build --print-errorlogs")
	s.Files(map[string]string{"sum.h": "static int sum(int a, int b) { return a - b; }\n"}) // a seeded bug
	s.CheckGives(1, "", "✗ test: exit", "test_sum", "sum(2, 3) = -1")
}

// A CI that runs the same pytest suite twice, once with -v: init writes one check, the quieter,
// saying above it which other it stands for.
func TestInitOneCheckPerSuite(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	s.Files(map[string]string{
		"pyproject.toml":    "[project]\nname = \"app\"\n",
		"tests/test_app.py": "def test_ok():\n    pass\n",
		".github/workflows/ci.yml": "name: CI\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n" +
			"      - uses: actions/checkout@v4\n      - run: pytest -v\n  coverage:\n    runs-on: ubuntu-latest\n    steps:\n" +
			"      - uses: actions/checkout@v4\n      - run: pytest\n",
	})
	s.Ok("init", "--no-run")
	s.FileSays("# one check for this suite: the CI also runs `pytest -v` (.github/workflows/ci.yml, job \"test\", step \"pytest -v\"), the same tests with more output; this one shows a failure all the same\n[[stop.checks]]\nname = \"test\"\ncommand = \"pytest\"")
	s.TrustGives("test | pytest")
}

// A CI that lints with flake8: init proposes it as the CI runs it, proves it on the clean tree,
// and check then fails on a seeded flake8 error, naming it.
func TestInitProposesTheCIsFlake8(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("flake8"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("flake8 is not installed (CI must install it: Debian's flake8)")
		}
		t.Skip("flake8 is not installed")
	}
	s := e2e.NewSandbox(t)
	s.Files(map[string]string{
		"app.py": "def add(a, b):\n    return a + b\n",
		".github/workflows/lint.yml": "name: lint\non: [push]\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n" +
			"      - uses: actions/checkout@v4\n      - run: pip install flake8\n      - name: flake8\n        run: flake8 .\n",
	})
	e2e.Says(t, "init", s.Ok("init"), "✓ lint (")
	s.TrustGives("lint | flake8 .")
	s.CheckGives(0, "1 check passed\n")
	s.Files(map[string]string{"app.py": "import os\n\n\ndef add(a, b):\n    return a + b\n"}) // a seeded lint error
	s.CheckGives(1, "", "✗ lint: exit 1", "app.py:1:1: F401 'os' imported but unused")
}
