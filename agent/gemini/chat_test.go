package gemini

import (
	"os"
	"testing"

	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/transcript"
)

// chat-tool-block.jsonl is what Gemini CLI 0.61.0 wrote offline for a prompt on which the model
// ran one shell command (its record rewritten with the call once it ran), said "tool done", an
// AfterAgent hook blocked once, and it said "after gate".
func TestGeminiChat(t *testing.T) {
	f, err := os.Open("testdata/chat-tool-block.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p := transcript.NewParser(transcript.Options{Decoder: Agent{}.Transcript()})
	if _, err := p.ReadFrom(f); err != nil {
		t.Fatal(err)
	}
	st := p.Stats()
	if st.Malformed != 0 {
		t.Errorf("malformed lines: %d", st.Malformed)
	}
	if st.Model != "gemini-2.5-flash" {
		t.Errorf("model %q", st.Model)
	}
	// Three replies of 12 input and 7 output tokens; the rewritten record is counted once.
	want := session.Usage{InputTokens: 36, OutputTokens: 21}
	if st.Usage != want || st.Messages != 3 {
		t.Errorf("usage %+v over %d messages, want %+v over 3", st.Usage, st.Messages, want)
	}
	if st.ToolCallCount != 1 || st.ToolCalls["run_shell_command"] != 1 || st.ToolResults != 1 {
		t.Errorf("tool calls %v (%d), results %d; want one run_shell_command and its result", st.ToolCalls, st.ToolCallCount, st.ToolResults)
	}
	// The prompt starts the one turn; the hook's reason sent back is not a prompt.
	if st.Turns != 1 || st.LastPrompt != "please create a file" {
		t.Errorf("turns %d, last prompt %q", st.Turns, st.LastPrompt)
	}
	if st.LastText != "after gate" {
		t.Errorf("last text %q, want the last reply", st.LastText)
	}
	// A chat read again from its start (replaced, or truncated: Reset) counts its tool call again.
	p.Reset()
	if _, err := f.Seek(0, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := p.ReadFrom(f); err != nil {
		t.Fatal(err)
	}
	if st := p.Stats(); st.ToolCallCount != 1 || st.ToolCalls["run_shell_command"] != 1 {
		t.Errorf("after Reset: tool calls %v (%d), want the one run_shell_command again", st.ToolCalls, st.ToolCallCount)
	}
}

// Gemini's token counts: its input includes the cached tokens, and its thoughts are output.
func TestGeminiTokens(t *testing.T) {
	p := transcript.NewParser(transcript.Options{Decoder: Agent{}.Transcript()})
	r := p.Feed([]byte(`{"id":"a","timestamp":"2026-11-25T22:36:10.106Z","type":"gemini","content":"hi","tokens":{"input":100,"output":10,"cached":60,"thoughts":5,"tool":0,"total":115},"model":"gemini-2.5-pro"}`))
	if r.Kind != transcript.KindAssistant || r.Text != "hi" {
		t.Fatalf("record %+v", r)
	}
	if got, want := p.Stats().Usage, (session.Usage{InputTokens: 40, CacheReadTokens: 60, OutputTokens: 15}); got != want {
		t.Fatalf("usage %+v, want %+v", got, want)
	}
}

// The stop's last message is the chat's latest reply, read from the end of the file; a file
// that is not there has none.
