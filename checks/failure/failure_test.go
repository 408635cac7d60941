package failure

import (
	"fmt"
	"strings"
	"testing"
)

// goTestOutput is go test -v's output with fails failing tests, each with msgs lines of
// message, among passes passing ones.
func goTestOutput(fails, msgs, passes int) string {
	var b strings.Builder
	pass := 0
	for f := range fails + 1 {
		for ; pass < passes*(f+1)/(fails+1); pass++ {
			fmt.Fprintf(&b, "=== RUN   TestPass%d\n    pass_test.go:%d: fine\n--- PASS: TestPass%d (0.00s)\n", pass, pass, pass)
		}
		if f == fails {
			break
		}
		fmt.Fprintf(&b, "=== RUN   TestFail%d\n", f)
		for j := range msgs {
			fmt.Fprintf(&b, "    fail_test.go:%d: TestFail%d message %d\n", 10+j, f, j)
		}
		fmt.Fprintf(&b, "--- FAIL: TestFail%d (0.00s)\n", f)
	}
	b.WriteString("FAIL\nFAIL\texample.com/m\t0.1s\nFAIL\n")
	return b.String()
}

// However many lines each failure has, every failing test's name and first message fit, before
// any other of their lines, and nothing of what passed is quoted.
func TestBudgetKeepsEveryNameAndFirstMessage(t *testing.T) {
	out := goTestOutput(25, 8, 500)
	lines := Read(out).Lines(DefaultBudget)
	quoted := strings.Join(lines, "\n")
	if len(lines) > DefaultBudget.Lines || len(quoted) > DefaultBudget.Bytes {
		t.Fatalf("%d lines, %d bytes:\n%s", len(lines), len(quoted), quoted)
	}
	for i := range 25 {
		for _, w := range []string{fmt.Sprintf("--- FAIL: TestFail%d ", i), fmt.Sprintf("TestFail%d message 0", i)} {
			if !strings.Contains(quoted, w) {
				t.Errorf("lacks %q", w)
			}
		}
	}
	if strings.Contains(quoted, "PASS") || strings.Contains(quoted, "fine") {
		t.Errorf("quotes what passed:\n%s", quoted)
	}
	if !strings.HasSuffix(quoted, "FAIL\texample.com/m\t0.1s") {
		t.Errorf("does not end with the package's result:\n%s", quoted)
	}
}

// More failures than the budget holds by name: as many as fit are named, and the rest counted.
func TestBudgetCountsTheFailuresLeftOut(t *testing.T) {
	lines := Read(goTestOutput(100, 1, 200)).Lines(DefaultBudget)
	if len(lines) > DefaultBudget.Lines {
		t.Fatalf("%d lines", len(lines))
	}
	named := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "--- FAIL: ") {
			named++
		}
	}
	want := fmt.Sprintf("… and %d more failures", 100-named)
	if named < 25 || !strings.Contains(strings.Join(lines, "\n"), want) {
		t.Errorf("%d named, no %q:\n%s", named, want, strings.Join(lines, "\n"))
	}
}

// What no runner printed is not read as a failure: the reason falls back to the output's end.
func TestNothingRecognised(t *testing.T) {
	for _, out := range []string{"", "make: *** [Makefile:3: test] Error 1\n", "something went wrong\nexit 1\n", "Building...\n  done: 3 files\n"} {
		if r := Read(out); r.Found() {
			t.Errorf("%q: read %+v", out, r.Failures)
		}
	}
}

// pytestVOutput is pytest -v's output with fails failing tests, each "file:line: AssertionError"
// under its heading, and its short test summary naming them.
func pytestVOutput(fails int) string {
	var b strings.Builder
	b.WriteString("============================= test session starts ==============================\n" +
		"platform linux -- Python 3.11.2, pytest-7.2.1, pluggy-1.0.0 -- /usr/bin/python3\ncollecting ... collected 60 items\n\n")
	for i := range fails {
		fmt.Fprintf(&b, "tests/test_uuid.py::test_case_%d FAILED [%3d%%]\n", i, i*100/fails)
	}
	b.WriteString("\n=================================== FAILURES ===================================\n")
	for i := range fails {
		fmt.Fprintf(&b, "_________________________________ test_case_%d _________________________________\n\n"+
			"    def test_case_%d():\n>       assert uuid(%d).version == 1\nE       AssertionError\n\ntests/test_uuid.py:%d: AssertionError\n", i, i, i, 10+i)
	}
	b.WriteString("=========================== short test summary info ============================\n")
	for i := range fails {
		fmt.Fprintf(&b, "FAILED tests/test_uuid.py::test_case_%d - AssertionError\n", i)
	}
	fmt.Fprintf(&b, "============================== %d failed in 0.12s ===============================\n", fails)
	return b.String()
}

// pytest -v's output with many failures whose head was cut (hooksup keeps the end of a long
// output): the reason leads with the failing tests' names, not with the "file:line:
// AssertionError" lines that name none.
func TestPytestCutHeadLeadsWithTheTestsNames(t *testing.T) {
	out := pytestVOutput(55)
	at := strings.Index(out, "_ test_case_3 _") // cut in the middle of the FAILURES section
	out = out[strings.LastIndexByte(out[:at], '\n')-40:]
	out = out[strings.IndexByte(out, '\n')+1:] // the partial first line is left out, as Result.Text does
	lines := Read(out).Lines(DefaultBudget)
	quoted := strings.Join(lines, "\n")
	if len(lines) == 0 || !strings.Contains(lines[0], "test_case_") {
		t.Fatalf("the reason does not lead with a failing test's name:\n%s", quoted)
	}
	named := 0
	for _, l := range lines {
		if strings.Contains(l, "test_case_") {
			named++
		}
	}
	if named < 15 {
		t.Errorf("%d lines name a failing test:\n%s", named, quoted)
	}
	for i, l := range lines[:min(10, len(lines))] {
		if strings.HasPrefix(l, "tests/test_uuid.py:") && (i == 0 || !strings.Contains(lines[i-1]+lines[max(i-2, 0)], "test_case_")) {
			t.Errorf("line %d, %q, names no test and is not under one:\n%s", i, l, quoted)
		}
	}
}

// Bare "file:line: AssertionError" lines beside pytest's named failures (its --tb=line, its
// output mixed with another's) come after the tests' names, never before them.
func TestBareExceptionLinesComeAfterTheNames(t *testing.T) {
	var b strings.Builder
	for i := range 55 {
		fmt.Fprintf(&b, "tests/test_uuid.py:%d: AssertionError\n", 10+i)
	}
	b.WriteString("=========================== short test summary info ============================\n")
	for i := range 55 {
		fmt.Fprintf(&b, "FAILED tests/test_uuid.py::test_case_%d - AssertionError: got 2 expected 1\n", i)
	}
	b.WriteString("============================== 55 failed in 0.12s ===============================\n")
	lines := Read(b.String()).Lines(DefaultBudget)
	quoted := strings.Join(lines, "\n")
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "FAILED tests/test_uuid.py::test_case_0 ") {
		t.Fatalf("the reason does not lead with the failing tests' names:\n%s", quoted)
	}
	if n := strings.Count(quoted, "FAILED "); n < 50 {
		t.Errorf("%d failing tests named:\n%s", n, quoted)
	}
}
