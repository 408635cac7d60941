package hooks

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

type sample struct {
	Example string          `json:"example"`
	Stdin   json.RawMessage `json:"stdin"`
}

func loadSamples(t *testing.T) []sample {
	t.Helper()
	f, err := os.Open("testdata/hook-inputs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []sample
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var s sample
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if len(out) < 10 {
		t.Fatalf("only %d samples", len(out))
	}
	return out
}

// Every real hook input decodes, and encoding it again gives the same JSON value: no field of
// claude's is lost, known or not.
func TestInputRoundTripOverRealSamples(t *testing.T) {
	for _, s := range loadSamples(t) {
		t.Run(s.Example, func(t *testing.T) {
			in, err := ParseInput(s.Stdin)
			if err != nil {
				t.Fatal(err)
			}
			if in.SessionID == "" || in.HookEventName == "" || in.Cwd == "" {
				t.Fatalf("common fields missing: %+v", in)
			}
			out, err := json.Marshal(in)
			if err != nil {
				t.Fatal(err)
			}
			var want, got any
			json.Unmarshal(s.Stdin, &want)
			json.Unmarshal(out, &got)
			if !reflect.DeepEqual(want, got) {
				t.Fatalf("round trip changed the input\nwant %s\n got %s", s.Stdin, out)
			}
		})
	}
}

func TestInputFieldsPerEvent(t *testing.T) {
	byEx := map[string]*Input{}
	for _, s := range loadSamples(t) {
		in, err := ParseInput(s.Stdin)
		if err != nil {
			t.Fatal(err)
		}
		byEx[s.Example] = in
	}
	stop := byEx["Stop stop_hook_active=True"]
	if !stop.Active() || stop.LastAssistantMessage != "Second final answer after the stop hook." || stop.Effort.Level != "medium" {
		t.Errorf("Stop: %+v", stop)
	}
	sub := byEx["SubagentStop stop_hook_active=False"]
	if sub.AgentID != "a3323485d7cf4d430" || sub.AgentType != "general-purpose" || sub.AgentTranscriptPath == "" || sub.Active() {
		t.Errorf("SubagentStop: %+v", sub)
	}
	n := byEx["Notification idle_prompt"]
	if n.NotificationType != "idle_prompt" || n.Message != "Claude is waiting for your input" {
		t.Errorf("Notification: %+v", n)
	}
	pr := byEx["PermissionRequest"]
	if pr.ToolName != "Bash" || !bytes.Contains(pr.ToolInput, []byte("touch")) {
		t.Errorf("PermissionRequest: %+v", pr)
	}
	if ss := byEx["SessionStart cli"]; ss.Model != "claude-opus-5-5" || ss.Source != "startup" {
		t.Errorf("SessionStart: %+v", ss)
	}
}

func TestInputKeepsUnknownFields(t *testing.T) {
	raw := `{"session_id":"s","hook_event_name":"Stop","cwd":"/p","transcript_path":"/t","future_field":{"a":[1,2]},"another":"x"}`
	in, err := ParseInput([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	if string(in.Extra["future_field"]) != `{"a":[1,2]}` || string(in.Extra["another"]) != `"x"` {
		t.Fatalf("extra = %v", in.Extra)
	}
	out, _ := json.Marshal(in)
	var want, got any
	json.Unmarshal([]byte(raw), &want)
	json.Unmarshal(out, &got)
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("got %s", out)
	}
}

func TestParseInputRejectsNonObjects(t *testing.T) {
	for _, bad := range []string{"", "not json", "[1,2]", `{"session_id":`} {
		if _, err := ParseInput([]byte(bad)); err == nil {
			t.Errorf("ParseInput(%q) accepted it", bad)
		}
	}
}
