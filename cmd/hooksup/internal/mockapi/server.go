package mockapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Handler scripts the replies to main-agent and subagent requests.
type Handler interface {
	Reply(r *Request) Reply
}

// HandlerFunc adapts a function to Handler.
type HandlerFunc func(r *Request) Reply

// Reply calls f(r).
func (f HandlerFunc) Reply(r *Request) Reply { return f(r) }

// Option configures NewServer.
type Option func(*config)

// configure is the config opts make.
func configure(opts []Option) config {
	var c config
	for _, o := range opts {
		o(&c)
	}
	return c
}

type config struct {
	netns         bool
	side          Handler
	sideResponses ResponsesHandler
	sideChat      ChatHandler
	quiet         bool
}

// WithNetNS runs the server in a fresh loopback-only network namespace;
// processes started with Server.Start / Server.Run run in it too, so they
// can reach the mock and nothing else. If that is impossible (not root,
// unshare refused) the server falls back to the host loopback and says so
// with t.Log; Server.NetNS then returns "".
func WithNetNS() Option { return func(c *config) { c.netns = true } }

// WithSideHandler replaces the default replies to side requests (KindSide).
// The default answers DefaultSideReply.
func WithSideHandler(h Handler) Option { return func(c *config) { c.side = h } }

// WithResponsesSideHandler replaces the default replies to Codex's side requests
// (ResponsesRequest.IsSide); the default answers DefaultResponsesSideReply.
func WithResponsesSideHandler(h ResponsesHandler) Option {
	return func(c *config) { c.sideResponses = h }
}

// WithQuiet turns off the one t.Log line per request.
func WithQuiet() Option { return func(c *config) { c.quiet = true } }

// Server is a loopback mock of the Anthropic API for Claude Code. Create it
// with NewServer; it is closed by t.Cleanup.
type Server struct {
	// URL is the base URL for ANTHROPIC_BASE_URL ("http://127.0.0.1:PORT").
	// With WithNetNS it is only reachable from inside the namespace, i.e.
	// from processes started by Start or Run.
	URL string

	h       Handler
	side    Handler
	perKind map[Kind]int // under mu: requests recorded of each kind
	*exchanges[Request, Reply, *Request]
}

// NewServer starts a mock. h scripts main and subagent replies (nil answers
// Text("mock reply") to everything); side requests never reach h.
func NewServer(t testing.TB, h Handler, opts ...Option) *Server {
	t.Helper()
	c := configure(opts)
	if h == nil {
		h = HandlerFunc(func(*Request) Reply { return Text("mock reply") })
	}
	s := &Server{h: h, side: c.side, perKind: map[Kind]int{}}
	if s.side == nil {
		s.side = HandlerFunc(DefaultSideReply)
	}
	s.exchanges = newExchanges[Request, Reply](t, c)
	s.URL = s.start(c.netns, s.serveHTTP)
	return s
}

// Result is the outcome of Server.Run.
type Result struct {
	Stdout   string // captured unless cmd.Stdout was set
	Stderr   string // captured unless cmd.Stderr was set
	ExitCode int    // -1 when the process did not exit normally
	Err      error  // from Start or Wait
	Duration time.Duration
}

// run starts cmd with start, waits for it and collects its output.
func run(start func(*exec.Cmd) error, cmd *exec.Cmd) Result {
	var out, errb bytes.Buffer
	if cmd.Stdout == nil {
		cmd.Stdout = &out
	}
	if cmd.Stderr == nil {
		cmd.Stderr = &errb
	}
	begin := time.Now()
	err := start(cmd)
	if err == nil {
		err = cmd.Wait()
	}
	r := Result{Stdout: out.String(), Stderr: errb.String(), ExitCode: -1, Err: err, Duration: time.Since(begin)}
	if cmd.ProcessState != nil {
		r.ExitCode = cmd.ProcessState.ExitCode()
	}
	return r
}

// OfKind returns the recorded requests of the given kinds, in order.
func (s *Server) OfKind(kinds ...Kind) []Request {
	return Filter(s.Requests(), kinds...)
}

// Main returns the main-agent requests.
func (s *Server) Main() []Request { return s.OfKind(KindMain) }

// Subagent returns the subagent requests.
func (s *Server) Subagent() []Request { return s.OfKind(KindSubagent) }

// Filter returns the requests of the given kinds (all if none given).
func Filter(reqs []Request, kinds ...Kind) []Request {
	var out []Request
	for _, r := range reqs {
		if len(kinds) == 0 {
			out = append(out, r)
			continue
		}
		for _, k := range kinds {
			if r.Kind == k {
				out = append(out, r)
				break
			}
		}
	}
	return out
}

// Tokens sums the usage of the replies completely sent to requests of the
// given kinds (default: KindMain and KindSubagent, the requests claude
// records in transcripts). Errors and replies cut short (claude gave up or
// was interrupted) do not count.
func (s *Server) Tokens(kinds ...Kind) Usage {
	if len(kinds) == 0 {
		kinds = []Kind{KindMain, KindSubagent}
	}
	var u Usage
	for _, r := range s.OfKind(kinds...) {
		if r.Sent {
			u = u.Add(r.Usage)
		}
	}
	return u
}

// record records r, giving it its Seq and KindIndex.
func (s *Server) record(r *Request) {
	s.exchanges.record(r, func(seq int) {
		r.Seq = seq
		s.perKind[r.Kind]++
		r.KindIndex = s.perKind[r.Kind]
	})
}

// DumpDirEnvVar names an environment variable: when set to a directory,
// every request received is written there as
// <test name>-<seq>-<kind>.txt (method, URL, headers, body) for debugging.
const DumpDirEnvVar = "MOCKAPI_DUMP_DIR"

func (s *Server) dump(r *Request) {
	dir := os.Getenv(DumpDirEnvVar)
	if dir == "" {
		return
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s?%s\n", r.Method, r.Path, r.Query)
	for k, v := range r.Header {
		fmt.Fprintf(&b, "%s: %s\n", k, strings.Join(v, ", "))
	}
	b.WriteString("\n")
	b.Write(r.Body)
	name := fmt.Sprintf("%s-%03d-%s.txt", strings.ReplaceAll(s.t.Name(), "/", "_"), r.Seq, r.Kind)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		s.logf("dump: %v", err)
	} else if err := os.WriteFile(filepath.Join(dir, name), b.Bytes(), 0o644); err != nil {
		s.logf("dump: %v", err)
	}
}

func (s *Server) serveHTTP(w http.ResponseWriter, hr *http.Request) {
	body, _ := io.ReadAll(hr.Body)
	r := &Request{
		Time: time.Now(), Method: hr.Method, Path: hr.URL.Path, Query: hr.URL.RawQuery,
		Header: hr.Header.Clone(), Body: body,
	}
	switch {
	case hr.URL.Path == "/v1/messages" && hr.Method == http.MethodPost:
		r.parseBody()
		r.Kind, r.SideReason = Classify(r)
	case hr.URL.Path == "/v1/messages/count_tokens":
		r.parseBody()
		r.Kind = KindCountTokens
	case hr.URL.Path == "/api/hello":
		r.Kind = KindHello
	case hr.URL.Path == "/v1/models" || strings.HasPrefix(hr.URL.Path, "/v1/models/"):
		r.Kind = KindModels
	}
	s.record(r)
	s.dump(r)

	switch r.Kind {
	case KindMain, KindSubagent, KindSide:
		s.serveMessages(w, hr, r)
	case KindCountTokens:
		n := len(body) / 4
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"input_tokens":%d}`, max(n, 1))
		s.logf("#%d %s %s -> input_tokens %d", r.Seq, r.Method, r.Path, max(n, 1))
	case KindHello:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		if hr.Method != http.MethodHead {
			io.WriteString(w, `{"message":"hello"}`)
		}
		s.logf("#%d %s %s -> 200", r.Seq, r.Method, r.Path)
	case KindModels:
		s.serveModels(w, hr, r)
	default:
		writeAPIError(w, APIError{Status: http.StatusNotFound, Type: "not_found_error", Message: s.notMocked(r.Seq, hr)})
	}
}

// models is what GET /v1/models lists: the models claude 2.1.330 used in
// our runs (it did not call /v1/models itself).
var models = []string{"claude-opus-5-5", "claude-haiku-5-5"}

func (s *Server) serveModels(w http.ResponseWriter, hr *http.Request, r *Request) {
	entry := func(id string) map[string]any {
		return map[string]any{"type": "model", "id": id, "display_name": id, "created_at": "2026-01-01T00:00:00Z"}
	}
	w.Header().Set("Content-Type", "application/json")
	if id, ok := strings.CutPrefix(hr.URL.Path, "/v1/models/"); ok && id != "" {
		_ = json.NewEncoder(w).Encode(entry(id))
		s.logf("#%d %s %s -> model %s", r.Seq, r.Method, r.Path, id)
		return
	}
	var data []any
	for _, m := range models {
		data = append(data, entry(m))
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"data": data, "has_more": false, "first_id": models[0], "last_id": models[len(models)-1]})
	s.logf("#%d %s %s -> %d models", r.Seq, r.Method, r.Path, len(models))
}

func (s *Server) serveMessages(w http.ResponseWriter, hr *http.Request, r *Request) {
	defUsage := DefaultUsage
	if r.Kind == KindSide {
		defUsage = SideUsage
	}
	s.answer(w, hr, r, r.Seq, func(view *Request) Reply {
		if r.Kind == KindSide {
			return s.side.Reply(view).normalize(r, defUsage)
		}
		return s.h.Reply(view).normalize(r, defUsage)
	}, func(msg string) Reply { return Error(500, "api_error", msg).normalize(r, defUsage) })
}

func (r *Request) answered(p *Reply) {
	r.Reply = p
	if p.Error == nil {
		r.Usage = p.Usage
	}
}
func (r *Request) sent()   { r.Sent = true }
func (r *Request) hungUp() { r.HungUp = true }

func (r *Request) describe(p Reply) string {
	return fmt.Sprintf("%s%s model=%s stream=%v; last user block: %s -> %s",
		r.Kind, sideNote(r), r.Model, r.Stream, lastUserBlock(r), p.summary())
}

func (r *Request) send(w http.ResponseWriter, p Reply, done <-chan struct{}) error {
	if r.Stream {
		return p.writeSSE(w, done)
	}
	return p.writeJSON(w)
}

func (r Reply) delay() time.Duration { return r.Delay }

// writeError writes r's error, if it is one.
func (r Reply) writeError(w http.ResponseWriter) bool {
	if r.Error == nil {
		return false
	}
	writeAPIError(w, *r.Error)
	return true
}

// lastUserBlock describes the last block of the last user message, for the
// log.
func lastUserBlock(r *Request) string {
	m, ok := r.LastUser()
	if !ok || len(m.Content) == 0 {
		return "none"
	}
	b := m.Content[len(m.Content)-1]
	switch b.Type {
	case "text":
		return fmt.Sprintf("%q", clip(b.Text, 100))
	case "tool_result":
		return fmt.Sprintf("tool_result %s %q", b.ToolUseID, clip(b.ResultText(), 80))
	default:
		return b.Type
	}
}

func sideNote(r *Request) string {
	if r.Kind == KindSide {
		return "(" + r.SideReason + ")"
	}
	return ""
}

// mergeDone returns a channel closed when either a or b is closed.
func mergeDone(a, b <-chan struct{}) <-chan struct{} {
	c := make(chan struct{})
	go func() {
		select {
		case <-a:
		case <-b:
		}
		close(c)
	}()
	return c
}

func (r Reply) summary() string {
	if r.Error != nil {
		return fmt.Sprintf("error %d %s", r.Error.Status, r.Error.Type)
	}
	var parts []string
	if r.Text != "" {
		parts = append(parts, fmt.Sprintf("text %q", clip(r.Text, 60)))
	}
	for _, tu := range r.ToolUses {
		in, _ := json.Marshal(tu.Input)
		parts = append(parts, fmt.Sprintf("tool_use %s %s %s", tu.Name, tu.ID, clip(string(in), 80)))
	}
	parts = append(parts, "stop "+r.StopReason)
	return strings.Join(parts, ", ")
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
