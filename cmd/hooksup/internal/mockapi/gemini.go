package mockapi

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// GeminiServer is a loopback mock of the Gemini API (generativelanguage v1beta) for Gemini CLI
// (0.61.0): POST /v1beta/models/M:streamGenerateContent?alt=sse, the agent's turns, answered
// with the SSE of GenerateContentResponse chunks gemini reads; :generateContent, its side tasks
// (the model router, the next-speaker check, a summary), answered with a JSON text that
// satisfies each; :countTokens; GET models. Each request is recorded. Create it with
// NewGeminiServer; it is closed by t.Cleanup.
type GeminiServer struct {
	// URL is the base URL for GOOGLE_GEMINI_BASE_URL ("http://127.0.0.1:PORT"). With WithNetNS
	// it is only reachable from processes started by Start or Run.
	URL string

	h GeminiHandler
	recorder[GeminiRequest, *GeminiRequest]
}

// GeminiHandler scripts the replies to gemini's turns.
type GeminiHandler interface {
	Reply(r *GeminiRequest) GeminiReply
}

// GeminiScript serves a fixed sequence of replies, one per turn request, repeating the last
// once exhausted (default: GeminiText("mock reply")).
type GeminiScript struct {
	Replies []GeminiReply

	mu sync.Mutex
	n  int
}

// Reply implements GeminiHandler.
func (s *GeminiScript) Reply(*GeminiRequest) GeminiReply {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
	return pick(s.Replies, s.n, GeminiText("mock reply"))
}

// GeminiReply is one turn's answer: text (streamed in two chunks), or a function call; after
// Delay. Status other than 0 and 200 answers that HTTP error instead.
type GeminiReply struct {
	Text   string
	Call   *GeminiCall
	Delay  time.Duration
	Status int
}

// GeminiCall is a function call the model makes (a tool gemini runs).
type GeminiCall struct {
	Name string         `json:"name"`
	Args map[string]any `json:"args"`
}

// GeminiText is a text reply.
func GeminiText(s string) GeminiReply { return GeminiReply{Text: s} }

// GeminiShell is a call of gemini's run_shell_command tool, which asks the person's permission
// unless they allowed it.
func GeminiShell(command string) GeminiReply {
	return GeminiReply{Call: &GeminiCall{Name: "run_shell_command", Args: map[string]any{"command": command, "description": "run " + command}}}
}

// GeminiWriteFile is a call of gemini's write_file tool, which asks the person's permission
// unless they allowed edits; path is relative to the project or absolute.
func GeminiWriteFile(path, content string) GeminiReply {
	return GeminiReply{Call: &GeminiCall{Name: "write_file", Args: map[string]any{"file_path": path, "content": content}}}
}

// GeminiWebFetch is a call of gemini's web_fetch tool with prompt, the URLs to fetch in it,
// which asks the person's permission unless they allowed it.
func GeminiWebFetch(prompt string) GeminiReply {
	return GeminiReply{Call: &GeminiCall{Name: "web_fetch", Args: map[string]any{"prompt": prompt}}}
}

// GeminiTokens are the usage every turn reply reports.
const (
	GeminiInputTokens  = 12
	GeminiOutputTokens = 7
)

// GeminiRequest is one recorded request.
type GeminiRequest struct {
	Time   time.Time
	Method string
	Path   string // without the query
	Body   []byte
	// Contents is the conversation a turn request carries.
	Contents []GeminiContent
}

// GeminiContent is one message of the conversation.
type GeminiContent struct {
	Role  string `json:"role"`
	Parts []struct {
		Text             string          `json:"text"`
		FunctionCall     json.RawMessage `json:"functionCall"`
		FunctionResponse json.RawMessage `json:"functionResponse"`
	} `json:"parts"`
}

// IsTurn reports a turn request (streamGenerateContent), not a side task.
func (r *GeminiRequest) IsTurn() bool { return strings.HasSuffix(r.Path, ":streamGenerateContent") }

// LastUserText is the text of the conversation's last message when it is the user's: the prompt,
// or what a hook sent back.
func (r *GeminiRequest) LastUserText() string {
	if len(r.Contents) == 0 {
		return ""
	}
	c := r.Contents[len(r.Contents)-1]
	if c.Role != "user" {
		return ""
	}
	var b strings.Builder
	for _, p := range c.Parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// NewGeminiServer starts a mock. h answers the turns (nil answers GeminiText("mock reply")). Of
// the options, WithNetNS and WithQuiet apply.
func NewGeminiServer(t testing.TB, h GeminiHandler, opts ...Option) *GeminiServer {
	t.Helper()
	c := configure(opts)
	if h == nil {
		h = &GeminiScript{}
	}
	s := &GeminiServer{h: h, recorder: newRecorder[GeminiRequest](t, c)}
	s.URL = s.start(c.netns, s.serveHTTP)
	return s
}

func (r *GeminiRequest) clone() GeminiRequest { return *r }

// Turns returns the turn requests, in order.
func (s *GeminiServer) Turns() []GeminiRequest {
	var out []GeminiRequest
	for _, r := range s.Requests() {
		if r.IsTurn() {
			out = append(out, r)
		}
	}
	return out
}

func (s *GeminiServer) serveHTTP(w http.ResponseWriter, hr *http.Request) {
	body, _ := io.ReadAll(hr.Body)
	r := GeminiRequest{Time: time.Now(), Method: hr.Method, Path: hr.URL.Path, Body: body}
	var b struct {
		Contents []GeminiContent `json:"contents"`
	}
	if json.Unmarshal(body, &b) == nil {
		r.Contents = b.Contents
	}
	rec := r // the handler gets its own copy
	s.record(&rec, nil)
	s.logf("gemini %s %s %q", r.Method, r.Path, clip(r.LastUserText(), 60))
	switch {
	case hr.Method == http.MethodGet:
		writeJSON(w, http.StatusOK, map[string]any{"models": []any{}})
	case strings.HasSuffix(r.Path, ":streamGenerateContent"):
		s.stream(w, hr, s.h.Reply(&r))
	case strings.HasSuffix(r.Path, ":generateContent"):
		side, _ := json.Marshal(map[string]any{"reasoning": "mock", "next_speaker": "user", "model_choice": "flash",
			"complexity_reasoning": "mock", "complexity_score": 10, "unproductive_state_confidence": 0.0,
			"unproductive_state_analysis": "mock"})
		writeJSON(w, http.StatusOK, map[string]any{"candidates": []any{geminiCandidate([]any{map[string]any{"text": string(side)}})},
			"usageMetadata": geminiUsage(), "modelVersion": "mock-model"})
	case strings.HasSuffix(r.Path, ":countTokens"):
		writeJSON(w, http.StatusOK, map[string]any{"totalTokens": 42})
	default:
		writeJSON(w, http.StatusOK, map[string]any{})
	}
}

// stream answers a turn as server-sent events: a text in two chunks (the last with the usage),
// or a function call.
func (s *GeminiServer) stream(w http.ResponseWriter, hr *http.Request, rep GeminiReply) {
	if hungUp, closing := s.hold(hr, rep.Delay); hungUp || closing {
		return
	}
	if rep.Status != 0 && rep.Status != http.StatusOK {
		writeJSON(w, rep.Status, map[string]any{"error": map[string]any{"code": rep.Status, "message": "the mock refuses", "status": "INVALID_ARGUMENT"}})
		return
	}
	var chunks []map[string]any
	if rep.Call != nil {
		chunks = append(chunks, map[string]any{"candidates": []any{geminiCandidate([]any{map[string]any{"functionCall": rep.Call}})}})
	} else {
		half := len(rep.Text) / 2
		chunks = append(chunks,
			map[string]any{"candidates": []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{map[string]any{"text": rep.Text[:half]}}}, "index": 0}}},
			map[string]any{"candidates": []any{geminiCandidate([]any{map[string]any{"text": rep.Text[half:]}})}})
	}
	last := chunks[len(chunks)-1]
	last["usageMetadata"], last["modelVersion"] = geminiUsage(), "mock-model"
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Connection", "close")
	w.WriteHeader(http.StatusOK)
	f, _ := w.(http.Flusher)
	for _, c := range chunks {
		b, _ := json.Marshal(c)
		fmt.Fprintf(w, "data: %s\r\n\r\n", b)
		if f != nil {
			f.Flush()
		}
	}
}

func geminiCandidate(parts []any) map[string]any {
	return map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}
}

func geminiUsage() map[string]any {
	return map[string]any{"promptTokenCount": GeminiInputTokens, "candidatesTokenCount": GeminiOutputTokens,
		"totalTokenCount": GeminiInputTokens + GeminiOutputTokens}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b)
}
