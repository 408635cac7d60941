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

// exchange is what the serving loop of the Chat Completions and Responses mocks needs of a
// request type R (through *R) whose reply is a P.
type exchange[R, P any] interface {
	*R
	clone() R
	// numbered gives the request its place in arrival order; answered its reply, once the
	// handler gave it; sent says the whole reply was written.
	numbered(seq int)
	answered(p *P)
	sent()
	// describe is the log's line of the request and its reply.
	describe(p P) string
	// send writes p, which is not an error, giving up when done is closed.
	send(w http.ResponseWriter, p P, done <-chan struct{}) error
}

// apiReply is what the loop needs of a reply: how long it is held back, and, when it is an
// API error, the error written.
type apiReply interface {
	delay() time.Duration
	writeError(w http.ResponseWriter) bool
}

// exchanges is one loopback mock of an OpenAI-style API (ChatServer, ResponsesServer): its
// requests, recorded in arrival order with their replies, and the loop that answers one.
type exchanges[R any, P apiReply, PR exchange[R, P]] struct {
	t     testing.TB
	quiet bool
	*loopback

	mu      sync.Mutex
	reqs    []PR
	changed chan struct{}
}

// newExchanges is a mock of the options c, not serving yet (start).
func newExchanges[R any, P apiReply, PR exchange[R, P]](t testing.TB, c config) *exchanges[R, P, PR] {
	return &exchanges[R, P, PR]{t: t, quiet: c.quiet, changed: make(chan struct{})}
}

// start serves h on a loopback port (in a network namespace when netns is set) and returns the
// base URL, ".../v1"; t.Cleanup closes the server.
func (e *exchanges[R, P, PR]) start(netns bool, h http.HandlerFunc) string {
	e.loopback = newLoopback(e.t, netns, h)
	e.ts.Start() // once e.loopback is set: the handler reads it
	e.t.Cleanup(e.Close)
	return e.ts.URL + "/v1"
}

// Run starts cmd with Start, waits for it and collects its output.
func (e *exchanges[R, P, PR]) Run(cmd *exec.Cmd) Result { return run(e.Start, cmd) }

// Requests returns a copy of every request received so far, in arrival order.
func (e *exchanges[R, P, PR]) Requests() []R {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.snapshotLocked()
}

// Wait blocks until cond holds for the recorded requests or ctx ends.
func (e *exchanges[R, P, PR]) Wait(ctx context.Context, cond func(reqs []R) bool) ([]R, error) {
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

func (e *exchanges[R, P, PR]) snapshotLocked() []R {
	out := make([]R, len(e.reqs))
	for i, r := range e.reqs {
		out[i] = r.clone()
	}
	return out
}

// update changes what is recorded, under the lock, and tells Wait.
func (e *exchanges[R, P, PR]) update(f func()) {
	e.mu.Lock()
	defer e.mu.Unlock()
	f()
	close(e.changed)
	e.changed = make(chan struct{})
}

func (e *exchanges[R, P, PR]) logf(format string, args ...any) {
	if !e.quiet {
		e.t.Logf("mockapi: "+format, args...)
	}
}

// record adds r to the requests and returns its number.
func (e *exchanges[R, P, PR]) record(r PR) (seq int) {
	e.update(func() {
		seq = len(e.reqs) + 1
		r.numbered(seq)
		e.reqs = append(e.reqs, r)
	})
	return seq
}

// answer answers the model request r, number seq: reply's answer to a copy of it (a panic there
// fails the test and answers failure's), recorded and logged, held back for its delay unless
// the client or the server goes first, then written as an error or by r's send.
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

	if d := rep.delay(); d > 0 {
		select {
		case <-time.After(d):
		case <-hr.Context().Done():
			return
		case <-e.closing:
			return
		}
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
