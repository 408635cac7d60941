package testcount

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The corpus of checks/failure holds the real outputs of each runner on a tiny project with a
// seeded bug: the count read is what the runner said it ran.
func TestReadTheCorpus(t *testing.T) {
	for _, tc := range []struct {
		file    string
		runners []string
		ran     string
	}{
		{"go-test.out", []string{"go test"}, "tests in 2 Go packages"},
		{"go-test-v.out", []string{"go test"}, "tests in 2 Go packages"},
		{"go-test-race.out", []string{"go test"}, "tests in 1 Go package"},
		{"pytest.out", []string{"pytest"}, "4 tests"},
		{"pytest-q.out", []string{"pytest"}, "4 tests"},
		{"unittest.out", []string{"unittest"}, "4 tests"},
		{"unittest-v.out", []string{"unittest"}, "4 tests"},
		{"cargo-test.out", []string{"cargo test"}, "3 tests"},
		{"nextest.out", []string{"cargo nextest"}, "3 tests"},
		{"vitest.out", []string{"vitest"}, "2 tests"},
		{"jest.out", []string{"jest"}, "2 tests"},
		{"mocha.out", []string{"mocha"}, "2 tests"},
		{"node-test-spec.out", []string{"node --test"}, "2 tests"},
		{"node-test-tap.out", []string{"node --test"}, "2 tests"},
		{"ctest.out", []string{"ctest"}, "3 tests"},
		{"rspec.out", []string{"rspec"}, "2 tests"},
		// No runner's summary: a linter, a build that failed before any test.
		{"go-vet.out", nil, "no tests"},
		{"eslint.out", nil, "no tests"},
		{"cargo-build-error.out", nil, "no tests"},
		{"tsc.out", nil, "no tests"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("..", "failure", "testdata", "corpus", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			c := Read(string(b))
			if !slices.Equal(c.Runners, tc.runners) || c.String() != tc.ran {
				t.Errorf("read %q, %q; want %q, %q", c.Runners, c, tc.runners, tc.ran)
			}
			if c.Ran() != (tc.ran != "no tests") || c.Known() != (tc.runners != nil) {
				t.Errorf("Ran %t, Known %t for %q", c.Ran(), c.Known(), c)
			}
		})
	}
}

// What each runner prints when it ran none, or skipped all, is read as no tests, but known: a
// check that says so runs no tests.
func TestReadNoTests(t *testing.T) {
	for _, tc := range []struct{ name, out, runner string }{
		{"go test -run XXX", "ok  \tx/a\t0.022s [no tests to run]\nok  \tx/b\t0.016s [no tests to run]\n?   \tx/c\t[no test files]\n", "go test"},
		{"go test, cached", "ok  \tx/b\t(cached) [no tests to run]\n", "go test"},
		{"pytest", "\nno tests ran in 0.01s\n", "pytest"},
		{"pytest, all deselected", "===== 5 deselected in 0.02s =====\n", "pytest"},
		{"unittest", "\n----------------------------------------------------------------------\nRan 0 tests in 0.000s\n\nNO TESTS RAN\n", "unittest"},
		{"cargo test", "running 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n", "cargo test"},
		{"nextest", "     Summary [   0.001s] 0 tests run: 0 passed, 3 skipped\n", "cargo nextest"},
		{"vitest, all skipped", " Test Files  1 skipped (1)\n      Tests  2 skipped (2)\n", "vitest"},
		{"jest", "Tests:       0 total\n", "jest"},
		{"mocha", "\n\n  0 passing (1ms)\n\n", "mocha"},
		{"node --test", "ℹ tests 0\nℹ suites 0\nℹ pass 0\nℹ fail 0\nℹ cancelled 0\nℹ skipped 0\nℹ todo 0\n", "node --test"},
		{"node --test, all skipped", "# tests 2\n# suites 0\n# pass 0\n# fail 0\n# cancelled 0\n# skipped 2\n", "node --test"},
		{"ctest", "Test project /p/build\nNo tests were found!!!\n", "ctest"},
		{"rspec", "Finished in 0.001 seconds\n0 examples, 0 failures\n", "rspec"},
		{"rspec, all pending", "2 examples, 0 failures, 2 pending\n", "rspec"},
		{"meson test", "No tests defined.\n\nOk:                 0   \nExpected Fail:      0   \nFail:               0   \nUnexpected Pass:    0   \nSkipped:            0   \nTimeout:            0   \n", "meson test"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Read(tc.out)
			if !slices.Equal(c.Runners, []string{tc.runner}) || c.Ran() || c.String() != "no tests" {
				t.Errorf("read %q, %q (ran %t); want %s and no tests", c.Runners, c, c.Ran(), tc.runner)
			}
		})
	}
}

// Outputs the corpus lacks: passes, the other runners, several runners in one check.
func TestReadOthers(t *testing.T) {
	for _, tc := range []struct{ name, out, ran string }{
		{"go test, passing", "ok  \tx/a\t0.027s\nok  \tx/b\t0.017s [no tests to run]\n?   \tx/c\t[no test files]\n", "tests in 1 Go package"},
		{"go test -cover", "ok  \tx/a\t0.027s\tcoverage: 50.0% of statements\n", "tests in 1 Go package"},
		{"pytest, one", "1 passed in 0.01s\n", "1 test"},
		{"pytest, skips and warnings", "==== 3 passed, 2 skipped, 1 warning in 0.40s ====\n", "3 tests"},
		{"cargo test, with doc tests", "test result: ok. 5 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\n   Doc-tests x\n\ntest result: ok. 2 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.10s\n", "7 tests"},
		{"vitest, passing", "\n Test Files  4 passed (4)\n      Tests  60 passed (60)\n   Start at  10:00:00\n", "60 tests"},
		{"vitest, failing", "      Tests  25 failed | 35 passed (60)\n", "60 tests"},
		{"bun test", " 5 pass\n 0 fail\nRan 5 tests across 1 file. [12.00ms]\n", "5 tests"},
		{"ctest, passing", "100% tests passed, 0 tests failed out of 12\n", "12 tests"},
		{"phpunit", "OK (5 tests, 10 assertions)\n", "5 tests"},
		{"meson test, passing", "1/2 sum  OK              0.01s\n2/2 sum2 OK              0.01s\n\nOk:                 2   \nExpected Fail:      0   \nFail:               0   \nUnexpected Pass:    0   \nSkipped:            1   \nTimeout:            0   \n\nFull log written to /p/build/meson-logs/testlog.txt\n", "2 tests"},
		{"meson test, failing", "Ok:                 3   \nExpected Fail:      1   \nFail:               2   \nUnexpected Pass:    0   \nSkipped:            0   \nTimeout:            1   \n", "7 tests"},
		{"make: go and pytest", "ok  \tx/a\t0.02s\n3 passed in 0.01s\n", "3 tests and tests in 1 Go package"},
		{"a script's own words", "all good\n", "no tests"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if c := Read(tc.out); c.String() != tc.ran {
				t.Errorf("read %q (%q); want %q", c, c.Runners, tc.ran)
			}
		})
	}
}
