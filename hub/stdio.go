package hub

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strings"
	"sync"
)

// The stdio wire (docs/hub-protocol.md, "Over ssh"): `hooksup hub-stdio` serves a user's
// sessions on its stdin and stdout, for a hooksup on another machine that started it over ssh.
// Each side writes JSON lines (Frame). The server's first line is its Hello; then the client
// sends requests, each with a stream number of its choosing, and the server answers on that
// stream: one line for list, snapshot, resolve and interrupt; for events, the session's lines
// until one that ends the stream. Many requests are in flight at once on the one connection.

// Ops of the stdio wire beside the control socket's (which it relays to one session).
const (
	OpList   = "list"   // every session, as List gives them
	OpCancel = "cancel" // end the events stream Stream
)

// Frame is one line of the stdio wire, either way.
type Frame struct {
	Protocol int    `json:"protocol"`
	Stream   int    `json:"stream,omitempty"` // the request a line belongs to
	Hello    *Hello `json:"hello,omitempty"`  // the server's first line
	// Op is list, cancel, or one of the control socket's ops relayed to Session (Request).
	Op       string    `json:"op,omitempty"`
	Session  string    `json:"session,omitempty"` // the session's id (Entry.ID)
	Request  *Request  `json:"request,omitempty"`
	Response *Response `json:"response,omitempty"` // the session's answer line, as it wrote it
	Sessions []Listed  `json:"sessions,omitempty"` // list's answer
	Error    string    `json:"error,omitempty"`    // the request failed on the server's side
	Code     string    `json:"code,omitempty"`     // with Error: CodeVersion, CodeBadRequest
	End      bool      `json:"end,omitempty"`      // nothing more comes on Stream
}

// Hello is the stdio server's first line: who answers.
type Hello struct {
	Hooksup string `json:"hooksup"` // the serving hooksup's version
}

// Listed is one session in list's answer: its entry and snapshot, or, for a session of another
// protocol version, what its entry says with Error and its version in Theirs.
type Listed struct {
	Entry    Entry    `json:"entry"`
	Snapshot Snapshot `json:"snapshot"`
	Error    string   `json:"error,omitempty"`
	Theirs   int      `json:"theirs,omitempty"`
}

// ServeStdio serves the sessions registered in dir over in and out until in ends (the
// connection is gone) or ctx does. It only ever dials the control sockets registered in dir,
// whose sessions answer their own user alone. version is this hooksup's, for the Hello.
func ServeStdio(ctx context.Context, dir, version string, in io.Reader, out io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s := &stdioServer{dir: dir, enc: json.NewEncoder(out), streams: map[int]func(){}}
	if err := s.write(Frame{Hello: &Hello{Hooksup: version}}); err != nil {
		return err
	}
	lines := make(chan []byte)
	readErr := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		for sc.Scan() {
			select {
			case lines <- append([]byte(nil), sc.Bytes()...):
			case <-ctx.Done():
				return
			}
		}
		readErr <- sc.Err()
	}()
	defer s.wg.Wait()
	defer s.cancelAll()
	for {
		select {
		case <-ctx.Done():
			return nil
		case err := <-readErr:
			return err
		case line := <-lines:
			var f Frame
			if err := json.Unmarshal(line, &f); err != nil {
				if s.write(Frame{Error: "not a frame: " + err.Error(), Code: CodeBadRequest, End: true}) != nil {
					return nil
				}
				continue
			}
			s.handle(f)
		}
	}
}

type stdioServer struct {
	dir string
	wg  sync.WaitGroup

	mu      sync.Mutex
	enc     *json.Encoder
	streams map[int]func() // events streams open, by stream: their cancel
	broken  bool
}

// write sends f, with this protocol's version, whole.
func (s *stdioServer) write(f Frame) error {
	f.Protocol = Protocol
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.broken {
		return io.ErrClosedPipe
	}
	if err := s.enc.Encode(f); err != nil {
		s.broken = true
		return err
	}
	return nil
}

func (s *stdioServer) fail(stream int, code, format string, args ...any) {
	_ = s.write(Frame{Stream: stream, Error: fmt.Sprintf(format, args...), Code: code, End: true})
}

func (s *stdioServer) cancelAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.streams {
		c()
	}
}

func (s *stdioServer) handle(f Frame) {
	if v := protocolOf(f.Protocol); v != Protocol {
		s.fail(f.Stream, CodeVersion, "the request speaks hub protocol %d, this hooksup speaks %d", v, Protocol)
		return
	}
	switch f.Op {
	case OpList:
		s.wg.Go(func() { s.list(f.Stream) })
	case OpCancel:
		s.mu.Lock()
		c := s.streams[f.Stream]
		s.mu.Unlock()
		if c != nil {
			c()
		}
	case OpSnapshot, OpResolve, OpInterrupt, OpGoalResume, OpEvents:
		e, err := s.entry(f.Session)
		if err != nil {
			s.fail(f.Stream, CodeBadRequest, "%v", err)
			return
		}
		req := Request{Op: f.Op}
		if f.Request != nil {
			req = *f.Request
			req.Op = f.Op
		}
		if f.Op == OpEvents {
			s.events(f.Stream, e)
			return
		}
		s.wg.Go(func() {
			r, err := Client{Path: e.Control}.exchange(req)
			if err != nil {
				s.fail(f.Stream, "", "session %s: %v", e.ID, err)
				return
			}
			_ = s.write(Frame{Stream: f.Stream, Response: &r, End: true})
		})
	default:
		s.fail(f.Stream, CodeBadRequest, "unknown op %q", f.Op)
	}
}

func (s *stdioServer) list(stream int) {
	live, err := List(s.dir)
	if err != nil {
		s.fail(stream, "", "list the sessions: %v", err)
		return
	}
	out := make([]Listed, 0, len(live))
	for _, l := range live {
		li := Listed{Entry: l.Entry, Snapshot: l.Snapshot}
		if l.Err != nil {
			li.Error = l.Err.Error()
			if verr, ok := errors.AsType[*VersionError](l.Err); ok {
				li.Theirs = verr.Theirs
			}
		}
		out = append(out, li)
	}
	_ = s.write(Frame{Stream: stream, Sessions: out, End: true})
}

// entry is the registration of the session id in s.dir: only those sockets are ever dialled.
func (s *stdioServer) entry(id string) (Entry, error) {
	if id == "" || strings.ContainsAny(id, "/\\") || strings.HasPrefix(id, ".") {
		return Entry{}, fmt.Errorf("no session %q", id)
	}
	e, ok := readEntry(filepath.Join(s.dir, id+entrySuffix))
	if !ok {
		return Entry{}, fmt.Errorf("no session %q here", id)
	}
	return e, nil
}

// events relays e's event stream on stream until the session ends it, the client cancels it,
// or the connection goes.
func (s *stdioServer) events(stream int, e Entry) {
	conn, err := dial(e.Control)
	if err != nil {
		s.fail(stream, "", "session %s: %v", e.ID, err)
		return
	}
	var once sync.Once
	stop := func() { once.Do(func() { conn.Close() }) }
	s.mu.Lock()
	if old := s.streams[stream]; old != nil {
		old()
	}
	s.streams[stream] = stop
	s.mu.Unlock()
	s.wg.Go(func() {
		defer func() {
			s.mu.Lock()
			delete(s.streams, stream)
			s.mu.Unlock()
			stop()
			_ = s.write(Frame{Stream: stream, End: true})
		}()
		if err := json.NewEncoder(conn).Encode(Request{Protocol: Protocol, Op: OpEvents}); err != nil {
			return
		}
		dec := json.NewDecoder(bufio.NewReader(conn))
		for {
			var r Response
			if err := dec.Decode(&r); err != nil {
				if !errors.Is(err, io.EOF) && !errors.Is(err, net.ErrClosed) {
					_ = s.write(Frame{Stream: stream, Error: fmt.Sprintf("session %s: %v", e.ID, err)})
				}
				return
			}
			if s.write(Frame{Stream: stream, Response: &r}) != nil {
				return
			}
		}
	})
}
