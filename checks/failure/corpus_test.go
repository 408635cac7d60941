package failure_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/checks/failure"
	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/engine"
	"github.com/hooksup/hooksup/session"
)

// corpusCase is one tool's output (testdata/corpus/NAME.out) and what the reason must say
// (NAME.want: a line to find in it, "!line" one not to find, "fallback" when no runner's shape is
// expected to be recognised; "#" lines say where the output comes from).
type corpusCase struct {
	name     string
	output   string
	want     []string
	notWant  []string
	fallback bool
}

func readCorpus(t *testing.T) []corpusCase {
	t.Helper()
	outs, err := filepath.Glob("testdata/corpus/*.out")
	if err != nil || len(outs) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	var cases []corpusCase
	for _, out := range outs {
		name := strings.TrimSuffix(filepath.Base(out), ".out")
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		w, err := os.ReadFile(strings.TrimSuffix(out, ".out") + ".want")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		c := corpusCase{name: name, output: string(b)}
		for _, l := range strings.Split(strings.TrimRight(string(w), "\n"), "\n") {
			switch {
			case strings.HasPrefix(l, "#"):
			case l == "fallback":
				c.fallback = true
			case strings.HasPrefix(l, "!"):
				c.notWant = append(c.notWant, l[1:])
			default:
				c.want = append(c.want, l)
			}
		}
		if len(c.want) == 0 {
			t.Fatalf("%s: nothing wanted", name)
		}
		cases = append(cases, c)
	}
	return cases
}

// missing is what of c's wanted lines quoted lacks, and what it has of those it must not.
func (c corpusCase) missing(quoted string) (lacks, has []string) {
	for _, w := range c.want {
		if !strings.Contains(quoted, w) {
			lacks = append(lacks, w)
		}
	}
	for _, w := range c.notWant {
		if strings.Contains(quoted, w) {
			has = append(has, w)
		}
	}
	return lacks, has
}

func result(output string) session.CheckResult {
	return session.CheckResult{Name: "check", Command: "make check", ExitCode: 1, Output: []byte(output),
		Written: int64(len(output)), Lines: strings.Count(output, "\n")}
}

// Every output of the corpus: what failure reads from it keeps each failing test's name and
// first message (or each finding), within the default budget, and none of what passed; the
// reason the agent reads (engine.BlockReason, reason_lines at its default) says them too.
func TestCorpus(t *testing.T) {
	cases := readCorpus(t)
	named, tail := 0, 0
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := failure.Read(c.output)
			if r.Found() == c.fallback {
				t.Errorf("recognised %v (runners %v), want %v", r.Found(), r.Runners, !c.fallback)
			}
			if r.Found() {
				lines := r.Lines(failure.DefaultBudget)
				quoted := strings.Join(lines, "\n")
				if len(lines) > failure.DefaultBudget.Lines || len(quoted) > failure.DefaultBudget.Bytes {
					t.Errorf("%d lines, %d bytes: over the budget", len(lines), len(quoted))
				}
				lacks, has := c.missing(quoted)
				if len(lacks)+len(has) > 0 {
					t.Errorf("the quote lacks %q, has %q:\n%s", lacks, has, quoted)
				}
			}
			reason := engine.BlockReason(result(c.output), config.DefaultReasonLines)
			if lacks, _ := c.missing(reason); len(lacks) == 0 {
				named++
			} else {
				t.Errorf("the reason lacks %q:\n%s", lacks, reason)
			}
			// What the reason was before package failure: the last reason_lines lines.
			ls := strings.Split(strings.TrimRight(c.output, "\n"), "\n")
			if lacks, _ := c.missing(strings.Join(ls[max(0, len(ls)-config.DefaultReasonLines):], "\n")); len(lacks) == 0 {
				tail++
			}
		})
	}
	t.Logf("the reason names every failing test and its first message in %d of %d outputs (%s); the last %d lines alone did in %d (%s)",
		named, len(cases), pct(named, len(cases)), config.DefaultReasonLines, tail, pct(tail, len(cases)))
}

func pct(n, of int) string { return fmt.Sprintf("%.0f %%", 100*float64(n)/float64(of)) }
