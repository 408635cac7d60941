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
