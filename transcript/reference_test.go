package transcript

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/transcript/internal/gen"
)

// refRecord is what the reference decoder, written with encoding/json and generic maps, makes
// of a line: the fields the scanner-based decoder must agree on for every valid JSON line.
type refRecord struct {
	Kind  Kind
	Type  string
	Model string
	Usage session.Usage
	Tools string // names, comma-separated
	Text  string
	Hooks string // outcome:command, comma-separated
}

// refDecode decodes line with encoding/json; ok is false if it is not valid JSON.
func refDecode(line []byte) (refRecord, bool) {
	var top map[string]any
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	if err := dec.Decode(&top); err != nil || dec.More() || !json.Valid(line) {
		return refRecord{}, false
	}
	str := func(v any) string { s, _ := v.(string); return s }
	obj := func(v any) map[string]any { m, _ := v.(map[string]any); return m }
	arr := func(v any) []any { a, _ := v.([]any); return a }
	num := func(v any) int64 {
		n, ok := v.(json.Number)
		if !ok {
			return 0
		}
		if i, err := n.Int64(); err == nil {
			return i
		}
		f, err := n.Float64()
		if err != nil {
			return 0
		}
		return int64(f)
	}
	isTrue := func(v any) bool { b, _ := v.(bool); return b }
	texts := func(blocks []any) string {
		var parts []string
		for _, b := range blocks {
			if m := obj(b); m != nil && str(m["type"]) == "text" {
				if t := str(m["text"]); t != "" {
					parts = append(parts, t)
				}
			}
		}
		return strings.Join(parts, "\n")
	}
	r := refRecord{Type: str(top["type"])}
	if top == nil {
		return refRecord{Kind: KindMalformed}, true
	}
	msg := obj(top["message"])
	switch r.Type {
	case "assistant":
		r.Kind = KindAssistant
		r.Model = str(msg["model"])
		content := msg["content"]
		if s, ok := content.(string); ok {
			r.Text = s
		} else {
			r.Text = texts(arr(content))
			var names []string
			for _, b := range arr(content) {
				if m := obj(b); m != nil && str(m["type"]) == "tool_use" {
					names = append(names, str(m["name"]))
				}
			}
			r.Tools = strings.Join(names, ",")
		}
		if isTrue(top["isApiErrorMessage"]) {
			r.Kind = KindAPIError
			r.Model, r.Tools = "", ""
			r.Text = ""
			break
		}
		if u := obj(msg["usage"]); u != nil {
			r.Usage = session.Usage{InputTokens: num(u["input_tokens"]), OutputTokens: num(u["output_tokens"]),
				CacheCreationTokens: num(u["cache_creation_input_tokens"]), CacheReadTokens: num(u["cache_read_input_tokens"])}
			if c := obj(u["cache_creation"]); c != nil && r.Usage.CacheCreationTokens == 0 {
				r.Usage.CacheCreationTokens = num(c["ephemeral_5m_input_tokens"]) + num(c["ephemeral_1h_input_tokens"])
			}
		}
	case "user":
		if isTrue(top["isMeta"]) || isTrue(top["isCompactSummary"]) || isTrue(top["isVisibleInTranscriptOnly"]) {
			r.Kind = KindMeta
			break
		}
		content := msg["content"]
		if s, ok := content.(string); ok {
			switch {
			case strings.HasPrefix(s, "<command-name>"), strings.HasPrefix(s, "<command-message>"), strings.HasPrefix(s, "<bash-input>"):
				r.Kind, r.Text = KindCommand, commandName(s)
			case strings.HasPrefix(s, "<local-command-"), strings.HasPrefix(s, "<bash-stdout>"), strings.HasPrefix(s, "<bash-stderr>"):
				r.Kind = KindMeta
			case strings.HasPrefix(s, interruptPrefix):
				r.Kind = KindInterrupt
			default:
				r.Kind, r.Text = KindPrompt, s
			}
			break
		}
		blocks, ok := content.([]any)
		if !ok {
			r.Kind = KindOther
			break
		}
		results, firstText := 0, ""
		seenText := false
		var textBlocks []any
		for _, b := range blocks {
			m := obj(b)
			if m == nil {
				continue
			}
			switch str(m["type"]) {
			case "tool_result":
				results++
			case "text":
				if results == 0 {
					if !seenText {
						firstText, seenText = str(m["text"]), true
					}
					textBlocks = append(textBlocks, b)
				}
			}
		}
		switch {
		case results > 0:
			r.Kind = KindToolResult
		case seenText && strings.HasPrefix(firstText, interruptPrefix):
			r.Kind = KindInterrupt
		default:
			r.Kind, r.Text = KindPrompt, texts(textBlocks)
		}
	case "system":
		switch str(top["subtype"]) {
		case "turn_duration":
			r.Kind = KindTurnDuration
		case "stop_hook_summary":
			r.Kind = KindHook
		case "compact_boundary":
			r.Kind = KindCompaction
		case "informational":
			r.Kind, r.Text = KindInformational, str(top["content"])
		case "api_error":
			r.Kind = KindAPIError
		default:
			r.Kind = KindOther
		}
	case "attachment":
		a := obj(top["attachment"])
		switch t := str(a["type"]); {
		case t == "model":
			r.Kind, r.Model = KindModel, str(obj(a["identity"])["modelId"])
		case t == "hook_success", t == "hook_blocking_error", t == "hook_non_blocking_error",
			t == "hook_error_during_execution", t == "hook_cancelled", t == "hook_stopped_continuation":
			r.Kind = KindHook
			cmd := str(a["command"])
			if b := obj(a["blockingError"]); b != nil {
				if c, ok := b["command"].(string); ok {
					cmd = c
				}
			}
			r.Hooks = cmd
		default:
			r.Kind = KindOther
		}
	case "ai-title":
		r.Kind, r.Text = KindTitle, str(top["aiTitle"])
	default:
		r.Kind = KindOther
	}
	return r, true
}

// project reduces a Record to the fields refDecode fills.
func project(r Record) refRecord {
	p := refRecord{Kind: r.Kind, Type: r.Type, Model: r.Model, Usage: r.Usage, Text: r.Text}
	var names []string
	for _, tu := range r.Tools {
		names = append(names, tu.Name)
	}
	p.Tools = strings.Join(names, ",")
	switch r.Kind {
	case KindAPIError:
		p.Model, p.Tools, p.Text, p.Usage = "", "", "", session.Usage{}
	case KindHook:
		if r.Type == "attachment" && len(r.Hooks) == 1 {
			p.Hooks = r.Hooks[0].Command
		}
	case KindMeta, KindToolResult, KindInterrupt, KindOther, KindTurnDuration, KindCompaction:
		p.Text = ""
	}
	return p
}

// checkAgainstReference fails if the decoder and the reference disagree on a valid JSON line.
// Lines the fast path skips by their leading type are compared on kind alone when the
// reference sees a different type (a duplicate "type" key, which claude never writes).
func checkAgainstReference(t *testing.T, d *decoder, line []byte) {
	t.Helper()
	got := d.decode(line)
	ref, valid := refDecode(line)
	if !valid {
		return // invalid JSON: any kind will do, as long as the decoder did not panic
	}
	if got.Kind == KindOther && got.Type != ref.Type && bytes.HasPrefix(line, []byte(typePrefix)) {
		return
	}
	if p := project(got); p != ref {
		t.Errorf("line %q\n got %v\nwant %v", line, p, ref)
	}
}

// TestDecodeMatchesReference compares the decoder with the encoding/json reference over the
// samples and a synthetic transcript.
func TestDecodeMatchesReference(t *testing.T) {
	d := newDecoder(1 << 30)
	for _, name := range []string{"transcript-line-examples.jsonl", "subagent-transcript-line-examples.jsonl"} {
		for _, line := range sampleLines(t, name) {
			checkAgainstReference(t, d, line)
		}
	}
	var buf bytes.Buffer
	if _, err := gen.Write(&buf, gen.Config{Size: 2 << 20, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	for line := range bytes.Lines(buf.Bytes()) {
		checkAgainstReference(t, d, bytes.TrimSuffix(line, []byte("\n")))
	}
}

// FuzzDecode checks that the decoder never panics and agrees with the reference on valid JSON.
// go test -run '^$' -fuzz FuzzDecode ./transcript
func FuzzDecode(f *testing.F) {
	for _, name := range []string{"transcript-line-examples.jsonl", "subagent-transcript-line-examples.jsonl"} {
		for _, line := range sampleLines(f, name) {
			f.Add(line)
		}
	}
	f.Add([]byte(`{"type":"user","message":{"content":[{"type":"te\u0078t","text":"[Request interrupted by user]"}]}}`))
	f.Add([]byte(`{"typ\u0065":"ai-title","aiTitle":"\ud83e\udd16\ud800x\\"}`))
	f.Add([]byte(`{"type":"assistant","message":{"id":"m","usage":{"input_tokens":12345678901234567890123,"output_tokens":1.5e3}}}`))
	d := newDecoder(1 << 30)
	f.Fuzz(func(t *testing.T, line []byte) {
		checkAgainstReference(t, d, line)
	})
}
