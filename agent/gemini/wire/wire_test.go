package wire

import "testing"

func TestLastReply(t *testing.T) {
	if got := LastReply("../testdata/chat-tool-block.jsonl"); got != "after gate" {
		t.Errorf("last reply %q, want %q", got, "after gate")
	}
	if got := LastReply("../testdata/missing.jsonl"); got != "" {
		t.Errorf("last reply of a missing chat %q", got)
	}
}
