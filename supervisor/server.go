package supervisor

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"runtime"
	"sync"
	"syscall"
	"time"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/peercred"
	"github.com/hooksup/hooksup/internal/runtimedir"
)

// Handler answers one hook call: what the hook prints and its exit code.
type Handler func(ctx context.Context, in *hooks.Input) (stdout []byte, exit int)

// Server is the supervisor's end of the hook socket: a private unix socket that only this user
// and only holders of the session token may use.
type Server struct {
	Path   string
	token  string
	ln     *net.UnixListener
	logger *slog.Logger

	mu       sync.Mutex
	routes   map[string]Handler
	fallback Handler
	conns    sync.WaitGroup
	closed   bool

	// Adapt, when set, maps each hook's input to hooksup's names before it is routed (the
	// agent's Input).
	Adapt func(*hooks.Input)

	// OnProblem, when set, hears of calls refused or failed on hooksup's side (a hook client of
	// another version, a panic), so the person can be told: each was answered with allow.
	OnProblem func(msg string)
}

// headerDeadline bounds how long a connection may take to say who it is.
const headerDeadline = 5 * time.Second

// NewToken returns a random session token.
func NewToken() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("session token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// Listen opens the socket at path (0600). A stale socket there is removed only after a dial
// shows nobody listens; a live one is an error.
func Listen(path, token string, logger *slog.Logger) (*Server, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if !runtimedir.PathFits(len(path), runtime.GOOS) {
		return nil, fmt.Errorf("socket path %s is %d bytes, longer than the %d a unix socket path may have here: set XDG_RUNTIME_DIR or TMPDIR to a shorter directory",
			path, len(path), runtimedir.SunPathLen(runtime.GOOS)-1)
	}
	if _, err := os.Lstat(path); err == nil {
		if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
			c.Close()
			return nil, fmt.Errorf("socket %s is in use by another process", path)
		}
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("remove stale socket: %w", err)
		}
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", path, err)
	}
	ln.SetUnlinkOnClose(true)
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("socket permissions: %w", err)
	}
	return &Server{Path: path, token: token, ln: ln, logger: logger, routes: map[string]Handler{}}, nil
}

// Handle routes an event to h.
func (s *Server) Handle(event string, h Handler) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.routes[event] = h
}

// HandleDefault routes every event without a route of its own to h.
func (s *Server) HandleDefault(h Handler) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fallback = h
}

// Serve accepts connections until Close. Each call is answered in its own goroutine. A
// temporary accept error (out of file descriptors) is retried with backoff; any other closes the
// listener, so that hook clients are refused at once and fail open instead of waiting.
func (s *Server) Serve(ctx context.Context) error {
	backoff := 5 * time.Millisecond
	for {
		c, err := s.ln.AcceptUnix()
		if err != nil {
			s.mu.Lock()
			closed := s.closed
			s.mu.Unlock()
			if closed {
				return nil
			}
			if errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE) || errors.Is(err, syscall.ENOBUFS) ||
				errors.Is(err, syscall.ENOMEM) || errors.Is(err, syscall.ECONNABORTED) {
				s.logger.Warn("accept: retrying", "err", err)
				time.Sleep(backoff)
				backoff = min(2*backoff, time.Second)
				continue
			}
			s.ln.Close()
			s.problem(fmt.Sprintf("the hook socket failed (%v): hooks are allowed without a decision", err))
			return fmt.Errorf("accept: %w", err)
		}
		backoff = 5 * time.Millisecond
		s.conns.Add(1)
		go func() {
			defer s.conns.Done()
			s.serveConn(ctx, c)
		}()
	}
}

// Close stops accepting, waits for the calls under way and removes the socket.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	err := s.ln.Close()
	s.conns.Wait()
	return err
}

func (s *Server) problem(msg string) {
	s.logger.Warn(msg)
	if s.OnProblem != nil {
		s.OnProblem(msg)
	}
}

// serveConn answers one hook call, in steps: make sure the caller is this user (peer), read
// and vet its request (readCall), find its handler (route), decide while watching for the hook
// to go away (call), and answer. Whatever fails on hooksup's side, the hook is allowed.
func (s *Server) serveConn(ctx context.Context, c *net.UnixConn) {
	defer c.Close()
	answered := false
	defer s.recoverCall(c, &answered)
	if !s.peer(c) {
		return
	}
	in, br, ok := s.readCall(c)
	if !ok {
		return
	}
	h := s.route(in.HookEventName)
	if h == nil {
		_ = hooks.WriteResponse(c, hooks.Response{})
		return
	}
	out, exit := s.call(ctx, h, in, br)
	_ = c.SetWriteDeadline(time.Now().Add(5 * time.Second))
	answered = true
	if err := hooks.WriteResponse(c, hooks.Response{Exit: exit, Stdout: out}); err != nil {
		s.logger.Warn("answer not delivered", "event", in.HookEventName, "err", err)
	}
}

// recoverCall turns a panic while answering into an allow, and tells the person.
func (s *Server) recoverCall(c *net.UnixConn, answered *bool) {
	if r := recover(); r != nil {
		s.problem(fmt.Sprintf("hooksup failed while answering a hook (%v): it was allowed", r))
		if !*answered {
			_ = hooks.WriteResponse(c, hooks.Response{})
		}
	}
}

// peer reports whether the caller runs as this user.
func (s *Server) peer(c *net.UnixConn) bool {
	if uid, err := peercred.UID(c); err != nil || uid != os.Getuid() {
		s.logger.Warn("refused a connection from another user", "peer_uid", uid, "err", err)
		return false
	}
	return true
}

// readCall reads the request: its header within headerDeadline, the token, the size cap, the
// payload and its JSON. A refused call is answered here, with the status that says why.
func (s *Server) readCall(c *net.UnixConn) (*hooks.Input, *bufio.Reader, bool) {
	_ = c.SetReadDeadline(time.Now().Add(headerDeadline))
	br := bufio.NewReaderSize(c, 64<<10)
	token, event, n, err := hooks.ReadRequestHeader(br)
	if err != nil {
		if errors.Is(err, hooks.ErrWrongVersion) {
			s.problem("a hook client of another hooksup version called: reinstall both (go install ./cmd/...); its stops are allowed")
		} else {
			s.logger.Warn("bad hook request", "err", err)
		}
		_ = hooks.WriteResponse(c, hooks.Response{Status: "bad"})
		return nil, nil, false
	}
	if subtle.ConstantTimeCompare([]byte(token), []byte(s.token)) != 1 {
		s.logger.Warn("refused a hook call with a wrong or missing token", "event", event)
		_ = hooks.WriteResponse(c, hooks.Response{Status: "token"})
		return nil, nil, false
	}
	if n > hooks.MaxPayload {
		s.logger.Warn("refused a hook call over the size cap", "event", event, "bytes", n)
		_ = hooks.WriteResponse(c, hooks.Response{Status: "size"})
		return nil, nil, false
	}
	payload, err := hooks.ReadPayload(br, n)
	if err != nil {
		s.logger.Warn("hook input cut short", "event", event, "err", err)
		return nil, nil, false
	}
	_ = c.SetReadDeadline(time.Time{})
	in, err := hooks.ParseInput(payload)
	if err != nil {
		s.logger.Warn("hook input is not JSON", "event", event, "err", err)
		_ = hooks.WriteResponse(c, hooks.Response{Status: "bad"})
		return nil, nil, false
	}
	if s.Adapt != nil {
		s.Adapt(in)
	}
	if in.HookEventName == "" {
		in.HookEventName = event
	} else if in.HookEventName != event {
		s.logger.Warn("hook event mismatch; trusting the input", "argv", event, "input", in.HookEventName)
	}
	return in, br, true
}

// route returns the handler of an event (nil: none).
func (s *Server) route(event string) Handler {
	s.mu.Lock()
	defer s.mu.Unlock()
	if h := s.routes[event]; h != nil {
		return h
	}
	return s.fallback
}

// call runs the handler. The hook may be killed by claude (its timeout) while hooksup decides:
// its end of the connection closes, and the handler's context ends.
func (s *Server) call(ctx context.Context, h Handler, in *hooks.Input, br *bufio.Reader) ([]byte, int) {
	hctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		var one [1]byte
		if _, err := br.Read(one[:]); err != nil {
			cancel()
		}
	}()
	out, exit := h(hctx, in)
	if hctx.Err() != nil && ctx.Err() == nil {
		s.logger.Warn("the hook went away before its answer", "event", in.HookEventName)
	}
	return out, exit
}
