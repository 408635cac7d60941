package qwen

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/transcript"
)

// chatLine is a record of Qwen Code's chat file.
type chatLine struct {
	UUID       string `json:"uuid"`
	Timestamp  string `json:"timestamp"`
	Type       string `json:"type"`
	Provenance string `json:"provenance"`
	Model      string `json:"model"`
	Message    struct {
		Role  string     `json:"role"`
		Parts []chatPart `json:"parts"`
	} `json:"message"`
	Usage *struct {
		Prompt     int64 `json:"promptTokenCount"`
		Candidates int64 `json:"candidatesTokenCount"`
		Thoughts   int64 `json:"thoughtsTokenCount"`
		Cached     int64 `json:"cachedContentTokenCount"`
	} `json:"usageMetadata"`
}

// chatPart is a part of a record's message, as Gemini's API has them.
type chatPart struct {
	Text         string `json:"text"`
	Thought      bool   `json:"thought"`
	FunctionCall *struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"functionCall"`
	FunctionResponse json.RawMessage `json:"functionResponse"`
}

// decodeChat reads a line of the chat JSONL Qwen Code (0.24.4) writes at
// $QWEN_HOME/projects/<project>/chats/<session>.jsonl, the file its hooks name in
// transcript_path. Each line is a record with a message of Gemini API parts:
//
//   - type "user": a prompt (its text parts) → transcript.KindPrompt, or, carrying function
//     responses, → transcript.KindToolResult; type "tool_result" too;
//   - type "assistant": the model's reply (its text parts but thoughts), its tool calls
//     (functionCall parts), model and usageMetadata → transcript.KindAssistant: the prompt's
//     tokens less the cached ones are InputTokens, the cached CacheReadTokens, candidates and
//     thoughts OutputTokens, counted once per record;
//   - type "system" (telemetry, snapshots) and anything else → transcript.KindOther.
//
// A Stop hook's continuation prompt is not in the chat (hooksup counts it from the hooks).
func decodeChat(line []byte, maxText int) transcript.Record {
	var l chatLine
	if err := json.Unmarshal(line, &l); err != nil {
		return transcript.Record{Kind: transcript.KindMalformed}
	}
	r := transcript.Record{Kind: transcript.KindOther, Type: l.Type}
	if t, err := time.Parse(time.RFC3339Nano, l.Timestamp); err == nil {
		r.Time = t
	}
	var text []string
	for _, p := range l.Message.Parts {
		if p.Text != "" && !p.Thought {
			text = append(text, p.Text)
		}
	}
	switch l.Type {
	case "user", "tool_result":
		for _, p := range l.Message.Parts {
			if len(p.FunctionResponse) > 0 {
				r.Kind = transcript.KindToolResult
				return r
			}
		}
		if l.Type == "user" {
			r.Kind, r.Text = transcript.KindPrompt, transcript.ClipText(strings.Join(text, "\n"), maxText)
		}
	case "assistant":
		r.Kind, r.Model = transcript.KindAssistant, l.Model
		r.Text = transcript.ClipText(strings.Join(text, ""), maxText)
		if u := l.Usage; u != nil {
			r.HasUsage = true
			r.Usage = session.Usage{InputTokens: max(u.Prompt-u.Cached, 0), CacheReadTokens: u.Cached, OutputTokens: u.Candidates + u.Thoughts}
			r.UsageID = l.UUID
		}
		for _, p := range l.Message.Parts {
			if c := p.FunctionCall; c != nil {
				r.Tools = append(r.Tools, transcript.ToolUse{ID: c.ID, Name: c.Name})
			}
		}
	}
	return r
}

// chat is the transcript.Decoder of a chat.
type chat struct{ maxText int }

func (d *chat) Reset() {}

func (d *chat) Decode(line []byte) transcript.Record { return decodeChat(line, d.maxText) }
