package gemini

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/transcript"
)

// geminiLine is a line of Gemini CLI's chat file: a record, or the header, or a "$set" patch.
type geminiLine struct {
	ID             string          `json:"id"`
	Timestamp      string          `json:"timestamp"`
	Type           string          `json:"type"`
	Content        json.RawMessage `json:"content"`
	DisplayContent json.RawMessage `json:"displayContent"`
	Model          string          `json:"model"`
	Tokens         *geminiTokens   `json:"tokens"`
	ToolCalls      []struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"toolCalls"`
}

type geminiTokens struct {
	Input, Output, Cached, Thoughts int64
}

// geminiPart is a part of a user record's content.
type geminiPart struct {
	Text             string          `json:"text"`
	FunctionResponse json.RawMessage `json:"functionResponse"`
}

// decodeChat reads the chat JSONL Gemini CLI (0.61.0) writes under
// ~/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl, the file its hooks name in
// transcript_path. After a header line (the session) and "$set" patches come records:
//
//   - type "user": a prompt → transcript.KindPrompt; one carrying function responses → transcript.KindToolResult;
//     one whose displayContent differs from its content is what a hook sent back to the model
//     (an AfterAgent hook's reason) → transcript.KindMeta;
//   - type "gemini": the model's reply (content: its text) with its tokens and model, and
//     its tool calls once they ran → transcript.KindAssistant. gemini rewrites a record under the same id
//     as its tool calls complete: the usage is counted once per id (input less cached is
//     InputTokens, cached is CacheReadTokens, output and thoughts are OutputTokens), and each
//     tool call once per call id (seen);
//   - type "error" → transcript.KindAPIError; everything else (warning, info, the header) is transcript.KindOther.
func decodeChat(line []byte, maxText int, seen map[string]struct{}) transcript.Record {
	var l geminiLine
	if err := json.Unmarshal(line, &l); err != nil {
		return transcript.Record{Kind: transcript.KindMalformed}
	}
	r := transcript.Record{Kind: transcript.KindOther, Type: l.Type}
	if t, err := time.Parse(time.RFC3339Nano, l.Timestamp); err == nil {
		r.Time = t
	}
	switch l.Type {
	case "user":
		var parts []geminiPart
		if json.Unmarshal(l.Content, &parts) != nil {
			var s string
			if json.Unmarshal(l.Content, &s) != nil {
				return r
			}
			parts = []geminiPart{{Text: s}}
		}
		var text []string
		for _, p := range parts {
			if len(p.FunctionResponse) > 0 {
				r.Kind = transcript.KindToolResult
				return r
			}
			text = append(text, p.Text)
		}
		r.Kind, r.Text = transcript.KindPrompt, transcript.ClipText(strings.Join(text, "\n"), maxText)
		if len(l.DisplayContent) > 0 && string(l.DisplayContent) != string(l.Content) {
			r.Kind = transcript.KindMeta
		}
	case "gemini":
		r.Kind, r.Model = transcript.KindAssistant, l.Model
		var s string
		if json.Unmarshal(l.Content, &s) == nil {
			r.Text = transcript.ClipText(s, maxText)
		}
		if t := l.Tokens; t != nil {
			r.HasUsage = true
			r.Usage = session.Usage{InputTokens: max(t.Input-t.Cached, 0), CacheReadTokens: t.Cached, OutputTokens: t.Output + t.Thoughts}
			r.UsageID = l.ID
		}
		for _, c := range l.ToolCalls {
			if _, ok := seen[c.ID]; ok && c.ID != "" {
				continue
			}
			seen[c.ID] = struct{}{}
			r.Tools = append(r.Tools, transcript.ToolUse{ID: c.ID, Name: c.Name})
		}
	case "error":
		r.Kind = transcript.KindAPIError
		var s string
		_ = json.Unmarshal(l.Content, &s)
		r.APIError = &session.APIError{Message: transcript.ClipText(s, maxText)}
	}
	return r
}

// chat is the transcript.Decoder of a chat: each tool call is counted once, by its id.
type chat struct {
	maxText int
	seen    map[string]struct{}
}

func (d *chat) Reset() { clear(d.seen) }

func (d *chat) Decode(line []byte) transcript.Record { return decodeChat(line, d.maxText, d.seen) }
