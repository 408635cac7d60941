// Package testcount reads how many tests a check ran from its output: the summary each test
// runner prints at its end (go test, pytest, unittest, cargo test and nextest, vitest, jest,
// mocha, node --test, bun test, ctest, meson test, rspec, phpunit). It knows runners by their summaries,
// not by the command: a package script or a make target that runs one is read the same.
package testcount

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Count is what a check's output says of the tests it ran.
type Count struct {
	// Runners are the runners whose summaries the output holds, in the order first seen:
	// "go test", "pytest", …; none when it holds no summary hooksup knows.
	Runners []string
	// Tests is how many tests they ran (passed or failed; skipped ones did not run).
	Tests int
	// Packages is how many Go packages ran tests: go test prints no count of tests without -v,
	// only a line for each package (Tests then counts the failed ones it names).
	Packages int
}

// Known reports whether the output holds a summary of a runner hooksup knows.
func (c Count) Known() bool { return len(c.Runners) > 0 }

// Ran reports whether the output says at least one test ran.
func (c Count) Ran() bool { return c.Tests > 0 || c.Packages > 0 }

// String says what ran: "60 tests", "1 test", "tests in 3 Go packages", "no tests".
func (c Count) String() string {
	switch {
	case c.Packages > 0 && c.Tests > 0 && !onlyGo(c.Runners):
		return plural(c.Tests, "test") + " and tests in " + plural(c.Packages, "Go package")
	case c.Packages > 0:
		return "tests in " + plural(c.Packages, "Go package")
	case c.Tests > 0:
		return plural(c.Tests, "test")
	}
	return "no tests"
}

func onlyGo(runners []string) bool { return len(runners) == 1 && runners[0] == "go test" }

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// runner reads one runner's summary lines: each match of re adds what count says it ran.
type runner struct {
	name  string
	re    *regexp.Regexp
	count func(m []string) int
}

// number is the integer in s, 0 when none.
func number(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// counted sums the numbers before the words given in a list like "3 failed, 1 passed, 2
// skipped" (or "1 failed | 35 passed").
func counted(list string, words ...string) int {
	n := 0
	for _, m := range countRe().FindAllStringSubmatch(list, -1) {
		for _, w := range words {
			if m[2] == w {
				n += number(m[1])
			}
		}
	}
	return n
}

var countRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(\d+) ([a-z]+)`) })

var runners = sync.OnceValue(func() []runner {
	return []runner{
		// pytest's last line: "3 failed, 1 passed in 0.04s", between ='s without -q; "no
		// tests ran in 0.01s".
		{"pytest", regexp.MustCompile(`(?m)^=*\s*((?:\d+ (?:passed|failed|skipped|deselected|xfailed|xpassed|errors?|warnings?|rerun)(?:, )?)+|no tests ran) in [\d.]+s\b`),
			func(m []string) int { return counted(m[1], "passed", "failed", "xfailed", "xpassed") }},
		// unittest: "Ran 4 tests in 0.001s".
		{"unittest", regexp.MustCompile(`(?m)^Ran (\d+) tests? in [\d.]+s$`), func(m []string) int { return number(m[1]) }},
		// cargo test, one per test binary and for the doc tests: "test result: ok. 3 passed;
		// 0 failed; 1 ignored; …".
		{"cargo test", regexp.MustCompile(`(?m)^test result: \w+\. (\d+) passed; (\d+) failed;`),
			func(m []string) int { return number(m[1]) + number(m[2]) }},
		// nextest: "Summary [   0.006s] 3 tests run: 2 passed, 1 failed, 0 skipped".
		{"cargo nextest", regexp.MustCompile(`(?m)^\s*Summary \[[^\]]*\] (\d+) tests? run:`), func(m []string) int { return number(m[1]) }},
		// vitest: "      Tests  1 failed | 1 passed (2)"; "Tests  no tests" when none.
		{"vitest", regexp.MustCompile(`(?m)^\s*Tests\s{2,}((?:\d+ [a-z]+(?: \| )?)+)\s*\((\d+)\)`),
			func(m []string) int { return counted(m[1], "passed", "failed") }},
		// jest: "Tests:       1 failed, 1 passed, 2 total".
		{"jest", regexp.MustCompile(`(?m)^Tests:\s+((?:\d+ [a-z]+(?:, )?)+)`),
			func(m []string) int { return counted(m[1], "passed", "failed") }},
		// mocha: "  1 passing (10ms)" and "  1 failing".
		{"mocha", regexp.MustCompile(`(?m)^\s+(\d+) (passing \(\d+m?s\)|failing)$`), func(m []string) int { return number(m[1]) }},
		// node --test, its spec reporter and its TAP: "ℹ tests 2", "# tests 2" (with "ℹ
		// skipped 0" after it).
		{"node --test", regexp.MustCompile(`(?m)^(?:ℹ|#) tests (\d+)\n(?:(?:ℹ|#) [a-z_]+ [\d.]+\n)*?(?:ℹ|#) skipped (\d+)$`),
			func(m []string) int { return number(m[1]) - number(m[2]) }},
		// bun test: "Ran 5 tests across 1 file. [12.00ms]".
		{"bun test", regexp.MustCompile(`(?m)^Ran (\d+) tests? across \d+ files?\.`), func(m []string) int { return number(m[1]) }},
		// ctest: "67% tests passed, 1 tests failed out of 3"; "No tests were found!!!".
		{"ctest", regexp.MustCompile(`(?m)^\d+% tests passed, \d+ tests? failed out of (\d+)$|^No tests were found!!!$`),
			func(m []string) int { return number(m[1]) }},
		// rspec: "2 examples, 1 failure" (", 1 pending").
		{"rspec", regexp.MustCompile(`(?m)^(\d+) examples?, \d+ failures?(?:, (\d+) pending)?`),
			func(m []string) int { return number(m[1]) - number(m[2]) }},
		// meson test, a line for each outcome: "Ok:                 2   ", "Expected Fail:      0",
		// "Fail:               1", "Unexpected Pass:    0", "Skipped:            1", "Timeout:            0".
		{"meson test", regexp.MustCompile(`(?m)^Ok:\s+(\d+)\s*\nExpected Fail:\s+(\d+)\s*\nFail:\s+(\d+)\s*\nUnexpected Pass:\s+(\d+)\s*\nSkipped:\s+\d+\s*\nTimeout:\s+(\d+)`),
			func(m []string) int { return number(m[1]) + number(m[2]) + number(m[3]) + number(m[4]) + number(m[5]) }},
		// phpunit: "OK (5 tests, 10 assertions)" or "Tests: 5, Assertions: 10, Failures: 1.".
		{"phpunit", regexp.MustCompile(`(?m)^OK \((\d+) tests?, \d+ assertions?\)|^Tests: (\d+), Assertions: \d+`),
			func(m []string) int { return number(m[1]) + number(m[2]) }},
	}
})

// goPackageRe matches go test's line for a package: "ok  	example.com/x	0.09s", "ok  	x	(cached)",
// "FAIL	example.com/x	0.08s", with " [no tests to run]" after it when none ran (and its
// coverage, with -cover).
var goPackageRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^(ok  |FAIL)\t\S+\t(?:[\d.]+s|\(cached\))([^\n]*)$`)
})

// goTestRe matches go test's line for a top-level test that ran: "--- FAIL: TestX (0.00s)", and
// with -v "--- PASS: TestX (0.00s)".
var goTestRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^--- (PASS|FAIL): \S+ \(`) })

// Read is what the output (plain text) says of the tests that ran.
func Read(out string) Count {
	var c Count
	out = strings.ReplaceAll(out, "\r\n", "\n")
	if ms := goPackageRe().FindAllStringSubmatch(out, -1); ms != nil {
		c.Runners = append(c.Runners, "go test")
		for _, m := range ms {
			if !strings.Contains(m[2], "[no tests to run]") {
				c.Packages++
			}
		}
		c.Tests += len(goTestRe().FindAllString(out, -1))
	}
	nextest := false
	for _, r := range runners() {
		if r.name == "cargo nextest" {
			nextest = r.re.MatchString(out)
		}
	}
	for _, r := range runners() {
		ms := r.re.FindAllStringSubmatch(out, -1)
		if ms == nil || r.name == "cargo test" && nextest {
			// nextest shows the output of a test that failed, libtest's summary among it.
			continue
		}
		c.Runners = append(c.Runners, r.name)
		for _, m := range ms {
			c.Tests += max(0, r.count(m))
		}
	}
	return c
}
