package mockapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os/exec"
	"sync"
	"syscall"
	"testing"
	"time"
)

// recordedRequest is what a mock's record needs of its request type R (through *R): a copy
// for the snapshots Requests and Wait hand out.
type recordedRequest[R any] interface {
	*R
	clone() R
}

// recorder is one loopback mock of an API: its requests, recorded in arrival order, and the
// channel that tells Wait they changed. Every mock (Server, GeminiServer, ChatServer,
// ResponsesServer) keeps its requests in one.
type recorder[R any, PR recordedRequest[R]] struct {
	t     testing.TB
	quiet bool
	*loopback

	mu      sync.Mutex
	reqs    []PR
	changed chan struct{} // closed (and replaced) whenever reqs or one of them changes
}

// newRecorder is a mock of the options c, not serving yet (start).
func newRecorder[R any, PR recordedRequest[R]](t testing.TB, c config) recorder[R, PR] {
	return recorder[R, PR]{t: t, quiet: c.quiet, changed: make(chan struct{})}
}

// start serves h on a loopback port (in a network namespace when netns is set) and returns its
// URL, "http://127.0.0.1:PORT"; t.Cleanup closes the server.
func (e *recorder[R, PR]) start(netns bool, h http.HandlerFunc) string {
	e.loopback = newLoopback(e.t, netns, h)
	e.ts.Start() // once e.loopback is set: the handler reads it
	e.t.Cleanup(e.Close)
	return e.ts.URL
}

// Run starts cmd with Start, waits for it and collects its output. Bound it with the context
// cmd was made with (the Envs' Command kills the whole process group when the context ends).
func (e *recorder[R, PR]) Run(cmd *exec.Cmd) Result { return run(e.Start, cmd) }

// Requests returns a copy of every request received so far, in arrival order (a request still
// in flight has no reply yet).
func (e *recorder[R, PR]) Requests() []R {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.snapshotLocked()
}

// Wait blocks until cond holds for the recorded requests (checked on every change) or ctx
// ends; it returns the last snapshot and ctx's error if any.
func (e *recorder[R, PR]) Wait(ctx context.Context, cond func(reqs []R) bool) ([]R, error) {
	for {
		e.mu.Lock()
		snap := e.snapshotLocked()
		ch := e.changed
		e.mu.Unlock()
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

func (e *recorder[R, PR]) snapshotLocked() []R {
	out := make([]R, len(e.reqs))
	for i, r := range e.reqs {
		out[i] = r.clone()
	}
	return out
}

// update changes what is recorded, under the lock, and tells Wait.
func (e *recorder[R, PR]) update(f func()) {
	e.mu.Lock()
	defer e.mu.Unlock()
	f()
	close(e.changed)
	e.changed = make(chan struct{})
}

func (e *recorder[R, PR]) logf(format string, args ...any) {
	if !e.quiet {
		e.t.Logf("mockapi: "+format, args...)
	}
}

// notMocked logs request seq, hr, as unexpected and returns the message of the 404 it gets.
func (e *recorder[R, PR]) notMocked(seq int, hr *http.Request) string {
	e.logf("#%d %s %s (unexpected) -> 404", seq, hr.Method, hr.URL.String())
	return "mockapi: " + hr.Method + " " + hr.URL.Path + " is not mocked"
}

// record adds r to the requests and returns its number (1, 2, ...); number, if not nil, is
// given it under the same lock, before Wait sees r.
func (e *recorder[R, PR]) record(r PR, number func(seq int)) (seq int) {
	e.update(func() {
		seq = len(e.reqs) + 1
		if number != nil {
			number(seq)
		}
		e.reqs = append(e.reqs, r)
	})
	return seq
}

// hold holds a reply back for d, unless the client (hr) hangs up or the server closes first:
// it says which.
func (e *recorder[R, PR]) hold(hr *http.Request, d time.Duration) (hungUp, closing bool) {
	if d <= 0 {
		return false, false
	}
	select {
	case <-time.After(d):
		return false, false
	case <-hr.Context().Done():
		return true, false
	case <-e.closing:
		return false, true
	}
}

// exchange is what the loop answering a model request (exchanges.answer) needs of a request
// type R (through *R) whose reply is a P.
type exchange[R, P any] interface {
	recordedRequest[R]
	// answered records its reply, once the handler gave it; sent says the whole reply was
	// written.
	answered(p *P)
	sent()
	// describe is the log's line of the request and its reply.
	describe(p P) string
	// send writes p, which is not an error, giving up when done is closed.
	send(w http.ResponseWriter, p P, done <-chan struct{}) error
}

// hangUp is what a request type that records the client hanging up during a reply's delay
// has (Request.HungUp).
type hangUp interface{ hungUp() }

// apiReply is what the loop needs of a reply: how long it is held back, and, when it is an
// API error, the error written.
type apiReply interface {
	delay() time.Duration
	writeError(w http.ResponseWriter) bool
}

// exchanges is a recorder whose model requests are answered by one loop (answer): the mocks of
// the Messages, Chat Completions and Responses APIs (Server, ChatServer, ResponsesServer).
type exchanges[R any, P apiReply, PR exchange[R, P]] struct {
	recorder[R, PR]
}

// newExchanges is a mock of the options c, not serving yet (start).
func newExchanges[R any, P apiReply, PR exchange[R, P]](t testing.TB, c config) *exchanges[R, P, PR] {
	return &exchanges[R, P, PR]{newRecorder[R, PR](t, c)}
}

// answer answers the model request r, number seq: reply's answer to a copy of it (a panic there
// fails the test and answers failure's), recorded and logged, held back for its delay unless
// the client (then marked hung up, when r records that) or the server goes first, then
// written as an error or by r's send.
func (e *exchanges[R, P, PR]) answer(w http.ResponseWriter, hr *http.Request, r PR, seq int, reply func(view *R) P, failure func(msg string) P) {
	view := r.clone()
	var rep P
	func() {
		defer func() {
			if p := recover(); p != nil {
				e.t.Errorf("mockapi: handler panicked on request #%d: %v", seq, p)
				rep = failure(fmt.Sprint("mockapi handler panic: ", p))
			}
		}()
		rep = reply(&view)
	}()
	e.update(func() { r.answered(&rep) })
	e.logf("#%d %s", seq, r.describe(rep))

	if hungUp, closing := e.hold(hr, rep.delay()); hungUp || closing {
		if h, ok := any(r).(hangUp); ok && hungUp {
			e.update(h.hungUp)
		}
		return
	}
	if rep.writeError(w) {
		return
	}
	err := r.send(w, rep, mergeDone(hr.Context().Done(), e.closing))
	if err != nil && !errors.Is(err, syscall.EPIPE) {
		e.logf("#%d reply not fully sent: %v", seq, err)
	}
	if err == nil {
		e.update(r.sent)
	}
}
