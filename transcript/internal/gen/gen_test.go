package gen

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestWriteIsDeterministicValidJSONL(t *testing.T) {
	var a, b bytes.Buffer
	tot, err := Write(&a, Config{Size: 1 << 20, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Write(&b, Config{Size: 1 << 20, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("the same seed wrote different transcripts")
	}
	if tot.Bytes != int64(a.Len()) || tot.Bytes < 1<<20 {
		t.Fatalf("Totals.Bytes = %d, wrote %d", tot.Bytes, a.Len())
	}
	var lines, assistant int64
	for line := range bytes.Lines(a.Bytes()) {
		lines++
		var v struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(line, &v); err != nil {
			t.Fatalf("line %d is not JSON: %v\n%s", lines, err, line)
		}
		if v.Type == "assistant" {
			assistant++
		}
	}
	if lines != tot.Lines {
		t.Errorf("Totals.Lines = %d, wrote %d", tot.Lines, lines)
	}
	if assistant <= tot.Messages || tot.Turns == 0 || len(tot.ToolCalls) == 0 {
		t.Errorf("unexpected shape: %d assistant lines for %d messages, %d turns", assistant, tot.Messages, tot.Turns)
	}
}
