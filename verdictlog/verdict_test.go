package verdictlog

import (
	"bytes"
	"encoding/json"
	"os"
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
