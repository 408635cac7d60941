package verdictlog

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/hooks"
)

// Lines an earlier hooksup wrote read into the typed Verdict and write back byte for byte.
func TestVerdictLogIsByteCompatible(t *testing.T) {
	old, err := os.ReadFile("testdata/verdicts-v1.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	vs, errs := Read(bytes.NewReader(old))
	if len(errs) > 0 || len(vs) != 2 {
		t.Fatalf("%d verdicts, errors %v", len(vs), errs)
	}
	if vs[0].Decision != hooks.Block || vs[0].Source != CheckSource("tests") || vs[1].Source != SourceLimit {
		t.Fatalf("%+v", vs)
	}
	if name, ok := vs[0].Source.Check(); !ok || name != "tests" {
		t.Fatalf("check %q %v", name, ok)
	}
	if _, ok := vs[1].Source.Check(); ok {
		t.Fatal("limit read as a check")
	}
	var again []byte
	for _, v := range vs {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		again = append(append(again, b...), '\n')
	}
	if !bytes.Equal(again, old) {
		t.Fatalf("rewritten:\n%s\nwant:\n%s", again, old)
	}
}

// A goal's turn and its end are in the verdict's "goal" object; a line of an older hooksup,
// without one, reads as a stop outside any goal.
func TestVerdictLogGoal(t *testing.T) {
	old, err := os.ReadFile("testdata/verdicts-v1.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	vs, _ := Read(bytes.NewReader(old))
	for _, v := range vs {
		if v.Goal != nil {
			t.Fatalf("an old line read with a goal: %+v", v.Goal)
		}
	}
	line := `{"time":"2025-03-04T10:11:12.345Z","session_id":"s","event":"Stop","turn":1,"stop":3,"decision":"allow","source":"goal","stop_hook_active":true,` +
		`"continuations":2,"max_continuations":3,"session_continuations":2,"latency_ms":20,` +
		`"goal":{"text":"make the e2e suite pass","turn":2,"max_turns":2,"elapsed_ms":1500,"max_time_ms":3600000,"tokens":1234,"max_tokens":100000,` +
		`"done":{"name":"done","exit_code":1,"duration_ms":5,"output":"1 failing"},"end":"budget","budget":"turns","undone":"the done command still fails (exit 1)"}}` + "\n"
	vs, errs := Read(strings.NewReader(line))
	if len(errs) > 0 || len(vs) != 1 {
		t.Fatalf("%d verdicts, errors %v", len(vs), errs)
	}
	g := vs[0].Goal
	if vs[0].Source != SourceGoal || g == nil || g.Turn != 2 || g.MaxTurns != 2 || g.End != GoalBudget || g.Budget != BudgetTurns ||
		g.Done == nil || g.Done.ExitCode != 1 || g.Tokens != 1234 || g.Text != "make the e2e suite pass" {
		t.Fatalf("%+v %+v", vs[0], g)
	}
	if g.End.Reached() || !GoalReached.Reached() {
		t.Fatal("Reached")
	}
	b, _ := json.Marshal(vs[0])
	if string(b)+"\n" != line {
		t.Fatalf("rewritten:\n%s\nwant:\n%s", b, line)
	}
}
