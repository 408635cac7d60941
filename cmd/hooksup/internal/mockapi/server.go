package mockapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
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

	t     testing.TB
	h     Handler
	side  Handler
	quiet bool
	*loopback

	mu      sync.Mutex
	reqs    []*Request
	perKind map[Kind]int
	changed chan struct{} // closed (and replaced) whenever reqs changes
}

// NewServer starts a mock. h scripts main and subagent replies (nil answers
// Text("mock reply") to everything); side requests never reach h.
func NewServer(t testing.TB, h Handler, opts ...Option) *Server {
	t.Helper()
	var c config
	for _, o := range opts {
		o(&c)
	}
	if h == nil {
		h = HandlerFunc(func(*Request) Reply { return Text("mock reply") })
	}
	s := &Server{
		t: t, h: h, side: c.side, quiet: c.quiet,
		perKind: map[Kind]int{},
		changed: make(chan struct{}),
	}
	s.loopback = newLoopback(t, c.netns, http.HandlerFunc(s.serveHTTP))
	s.ts.Start() // once s.loopback is set: the handler reads it
	s.URL = s.ts.URL
	t.Cleanup(s.Close)
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

// Run starts cmd with Start, waits for it and collects its output. Bound it
// with the context cmd was made with (Env.Command kills the whole process
// group when the context ends).
func (s *Server) Run(cmd *exec.Cmd) Result { return run(s.Start, cmd) }

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

// Requests returns a copy of every request received so far, in arrival
// order (in-flight requests have a nil Reply).
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.snapshotLocked()
}

func (s *Server) snapshotLocked() []Request {
	out := make([]Request, len(s.reqs))
	for i, r := range s.reqs {
		out[i] = r.clone()
	}
	return out
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

// Wait blocks until cond holds for the recorded requests (checked on every
// change) or ctx ends; it returns the last snapshot and ctx's error if any.
func (s *Server) Wait(ctx context.Context, cond func(reqs []Request) bool) ([]Request, error) {
	for {
		s.mu.Lock()
		snap := s.snapshotLocked()
		ch := s.changed
		s.mu.Unlock()
		if cond(snap) {
			return snap, nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return snap, ctx.Err()
		}
	}
}

// record appends r (assigning Seq and KindIndex) and returns the stored
// pointer.
func (s *Server) record(r *Request) *Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	r.Seq = len(s.reqs) + 1
	s.perKind[r.Kind]++
	r.KindIndex = s.perKind[r.Kind]
	s.reqs = append(s.reqs, r)
	s.notifyLocked()
	return r
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

func (s *Server) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

func (s *Server) logf(format string, args ...any) {
	if !s.quiet {
		s.t.Logf("mockapi: "+format, args...)
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
		s.logf("#%d %s %s (unexpected) -> 404", r.Seq, r.Method, hr.URL.String())
		writeAPIError(w, APIError{Status: http.StatusNotFound, Type: "not_found_error", Message: "mockapi: " + hr.Method + " " + hr.URL.Path + " is not mocked"})
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
	view := r.clone() // the handler gets its own copy
	var rep Reply
	defUsage := DefaultUsage
	func() {
		defer func() {
			if p := recover(); p != nil {
				s.t.Errorf("mockapi: handler panicked on request #%d: %v", r.Seq, p)
				rep = Error(500, "api_error", fmt.Sprint("mockapi handler panic: ", p))
			}
		}()
		switch {
		case r.Kind != KindSide:
			rep = s.h.Reply(&view)
		case s.side != nil:
			rep = s.side.Reply(&view)
		default:
			rep = DefaultSideReply(&view)
		}
	}()
	if r.Kind == KindSide {
		defUsage = SideUsage
	}
	rep = rep.normalize(r, defUsage)

	s.mu.Lock()
	r.Reply = &rep
	if rep.Error == nil {
		r.Usage = rep.Usage
	}
	s.notifyLocked()
	s.mu.Unlock()

	s.logf("#%d %s%s model=%s stream=%v; last user block: %s -> %s",
		r.Seq, r.Kind, sideNote(r), r.Model, r.Stream, lastUserBlock(r), rep.summary())

	if rep.Delay > 0 {
		select {
		case <-time.After(rep.Delay):
		case <-hr.Context().Done():
			s.mu.Lock()
			r.HungUp = true
			s.notifyLocked()
			s.mu.Unlock()
			return
		case <-s.closing:
			return
		}
	}
	if rep.Error != nil {
		writeAPIError(w, *rep.Error)
		return
	}
	var err error
	if r.Stream {
		err = rep.writeSSE(w, mergeDone(hr.Context().Done(), s.closing))
	} else {
		err = rep.writeJSON(w)
	}
	if err != nil && !errors.Is(err, syscall.EPIPE) {
		s.logf("#%d reply not fully sent: %v", r.Seq, err)
	}
	if err == nil {
		s.mu.Lock()
		r.Sent = true
		s.notifyLocked()
		s.mu.Unlock()
	}
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
