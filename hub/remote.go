package hub

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/hooksup/hooksup/session"
)

// Transport says how to reach another machine's sessions: the command line that runs the
// remote's `hooksup hub-stdio` there (ssh's: the person's keys, agent, ~/.ssh/config, jump hosts
// and ControlMaster apply), and how long to wait.
type Transport struct {
	// SSH is the command line before the host: ["ssh"] by default ([hub] ssh).
	SSH []string
	// RemoteCommand is the hooksup the remote runs: "hooksup" by default ([hub] remote_command).
	RemoteCommand string
	// Timeout bounds the connection and each answer: DefaultRemoteTimeout by default.
	Timeout time.Duration
}

// DefaultRemoteTimeout bounds connecting to a host and each of its answers.
const DefaultRemoteTimeout = 10 * time.Second

// StdioCommand is the hidden subcommand that serves the hub on stdin and stdout.
const StdioCommand = "hub-stdio"

// Command is the command line that reaches host.
func (t Transport) Command(host string) []string {
	ssh := t.SSH
	if len(ssh) == 0 {
		ssh = []string{"ssh"}
	}
	remote := t.RemoteCommand
	if remote == "" {
		remote = "hooksup"
	}
	return append(append([]string(nil), ssh...), host, remote, StdioCommand)
}

func (t Transport) timeout() time.Duration {
	if t.Timeout > 0 {
		return t.Timeout
	}
	return DefaultRemoteTimeout
}

// Why a host could not be reached.
var (
	ErrUnreachable = errors.New("unreachable")
	ErrNoHooksup   = errors.New("no hooksup there")
	ErrNoStdio     = errors.New("its hooksup has no hub-stdio")
	ErrNoAnswer    = errors.New("no answer")
	ErrDropped     = errors.New("dropped the connection")
)

// HostError is what went wrong with one host, for people: the host, what, and what to do.
type HostError struct {
	Host   string
	Err    error  // one of the Err… above, or a *VersionError
	Detail string // what ssh or the remote said, its last line
	Fix    string
}

func (e *HostError) Error() string {
	s := "host " + e.Host + ": " + e.Err.Error()
	if e.Detail != "" {
		s += " (" + e.Detail + ")"
	}
	if e.Fix != "" {
		s += ": " + e.Fix
	}
	return s
}

func (e *HostError) Unwrap() error { return e.Err }

// Remote is one connection to another machine's hub: one process (ssh) for as long as it is
// open, every request multiplexed on it.
type Remote struct {
	Host    string
	Hooksup string // the remote hooksup's version, from its Hello
	t       Transport
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	stderr  *tailBuffer

	mu      sync.Mutex
	next    int
	waiting map[int]*waiter
	err     error // set once the connection is gone
	done    chan struct{}
}

// Dial starts t's command for host and waits, at most t's timeout, for the remote's Hello. The
// errors are *HostError.
func Dial(ctx context.Context, t Transport, host string) (*Remote, error) {
	if host == "" || strings.HasPrefix(host, "-") {
		return nil, &HostError{Host: host, Err: ErrUnreachable, Fix: "a host is a name ssh accepts, not an option"}
	}
	argv := t.Command(host)
	cmd := exec.Command(argv[0], argv[1:]...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	r := &Remote{Host: host, t: t, cmd: cmd, stdin: stdin, stderr: &tailBuffer{}, waiting: map[int]*waiter{},
		done: make(chan struct{})}
	cmd.Stderr = r.stderr
	if err := cmd.Start(); err != nil {
		return nil, &HostError{Host: host, Err: ErrUnreachable, Detail: err.Error(), Fix: "install ssh, or set [hub] ssh"}
	}
	exited := make(chan error, 1)
	hello := make(chan Frame, 1)
	go func() {
		dec := json.NewDecoder(bufio.NewReader(stdout))
		first := true
		for {
			var f Frame
			if err := dec.Decode(&f); err != nil {
				exited <- cmd.Wait()
				r.shut(&HostError{Host: host, Err: ErrDropped})
				return
			}
			if first {
				first = false
				hello <- f
				continue
			}
			r.deliver(f)
		}
	}()
	timer := time.NewTimer(t.timeout())
	defer timer.Stop()
	select {
	case f := <-hello:
		if v := protocolOf(f.Protocol); v != Protocol || f.Hello == nil {
			r.Close()
			verr := &VersionError{Ours: Protocol, Theirs: v}
			if f.Hello != nil {
				verr.Hooksup = f.Hello.Hooksup
			}
			return nil, &HostError{Host: host, Err: remoteVersionError{verr}}
		}
		r.Hooksup = f.Hello.Hooksup
		return r, nil
	case err := <-exited:
		return nil, r.startError(err)
	case <-timer.C:
		r.Close()
		return nil, &HostError{Host: host, Err: ErrNoAnswer, Detail: r.stderr.last(),
			Fix: fmt.Sprintf("nothing within %v ([hub] timeout); check that ssh %s works", t.timeout(), host)}
	case <-ctx.Done():
		r.Close()
		return nil, ctx.Err()
	}
}

// remoteVersionError words a VersionError of a whole host.
type remoteVersionError struct{ *VersionError }

func (e remoteVersionError) Error() string {
	theirs := "the remote's hooksup"
	if e.Hooksup != "" {
		theirs += " (" + e.Hooksup + ")"
	}
	todo := "upgrade the remote's hooksup, or reach it with a hooksup of its version"
	if e.Theirs > e.Ours {
		todo = "upgrade this hooksup, or reach the remote with a hooksup of its version"
	}
	return fmt.Sprintf("this hooksup speaks hub protocol %d, %s speaks %d: %s", e.Ours, theirs, e.Theirs, todo)
}

func (e remoteVersionError) Unwrap() error { return e.VersionError }

// startError says why the remote ended before its Hello.
func (r *Remote) startError(err error) error {
	code := -1
	if ee, ok := errors.AsType[*exec.ExitError](err); ok {
		code = ee.ExitCode()
	}
	detail := r.stderr.last()
	all := r.stderr.String()
	remote := r.t.RemoteCommand
	if remote == "" {
		remote = "hooksup"
	}
	switch {
	case strings.Contains(all, `unknown command "`+StdioCommand+`"`):
		return &HostError{Host: r.Host, Err: ErrNoStdio, Detail: detail, Fix: "upgrade hooksup there"}
	case code == 255:
		return &HostError{Host: r.Host, Err: ErrUnreachable, Detail: detail, Fix: "check that ssh " + r.Host + " works"}
	case code == 127 || strings.Contains(all, "not found") || strings.Contains(all, "No such file"):
		return &HostError{Host: r.Host, Err: ErrNoHooksup, Detail: detail,
			Fix: fmt.Sprintf("install hooksup there, or name it in [hub] remote_command (now %q)", remote)}
	}
	if detail == "" && err != nil {
		detail = err.Error()
	}
	return &HostError{Host: r.Host, Err: ErrDropped, Detail: detail}
}

// shut ends every request waiting on r with err.
func (r *Remote) shut(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return
	}
	r.err = err
	for _, w := range r.waiting {
		close(w.ch)
	}
	r.waiting = map[int]*waiter{}
	close(r.done)
}

// waiter is a request waiting for its answer lines; quit is closed when it stops listening.
type waiter struct {
	ch   chan Frame
	quit chan struct{}
}

// deliver hands f to its stream's waiter. Only the goroutine that reads the remote's lines
// calls it (and shut), so a channel is never closed while it sends.
func (r *Remote) deliver(f Frame) {
	r.mu.Lock()
	w := r.waiting[f.Stream]
	if f.End {
		delete(r.waiting, f.Stream)
	}
	r.mu.Unlock()
	if w == nil {
		return
	}
	select {
	case w.ch <- f:
	case <-w.quit:
	}
	if f.End {
		close(w.ch)
	}
}

// abandon stops listening to stream: what comes on it is dropped.
func (r *Remote) abandon(stream int, w *waiter) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.waiting[stream] == w {
		delete(r.waiting, stream)
	}
	close(w.quit)
}

// Close ends the connection: the remote's hub-stdio ends with its input, then ssh.
func (r *Remote) Close() {
	r.stdin.Close()
	select {
	case <-r.done:
	case <-time.After(r.t.timeout()):
		_ = r.cmd.Process.Kill()
	}
}

// Done is closed when the connection is gone.
func (r *Remote) Done() <-chan struct{} { return r.done }

// send opens a stream for f: its answer lines come on the waiter's channel, closed after the
// last.
func (r *Remote) send(f Frame, buffer int) (int, *waiter, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return 0, nil, r.err
	}
	r.next++
	f.Stream, f.Protocol = r.next, Protocol
	w := &waiter{ch: make(chan Frame, buffer), quit: make(chan struct{})}
	r.waiting[f.Stream] = w
	b, _ := json.Marshal(f)
	if _, err := r.stdin.Write(append(b, '\n')); err != nil {
		delete(r.waiting, f.Stream)
		return 0, nil, &HostError{Host: r.Host, Err: ErrDropped}
	}
	return f.Stream, w, nil
}

// answer waits, at most the transport's timeout, for the one answer to f.
func (r *Remote) answer(f Frame) (Frame, error) {
	stream, w, err := r.send(f, 1)
	if err != nil {
		return Frame{}, err
	}
	defer r.abandon(stream, w)
	timer := time.NewTimer(r.t.timeout())
	defer timer.Stop()
	select {
	case a, ok := <-w.ch:
		if !ok {
			return Frame{}, r.gone()
		}
		if a.Error != "" {
			return a, errors.New(a.Error)
		}
		return a, nil
	case <-timer.C:
		return Frame{}, &HostError{Host: r.Host, Err: ErrNoAnswer, Fix: fmt.Sprintf("nothing within %v ([hub] timeout)", r.t.timeout())}
	}
}

func (r *Remote) gone() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return r.err
	}
	return &HostError{Host: r.Host, Err: ErrDropped}
}

// List is hub.List on the remote: its sessions, those of another protocol version with Err.
func (r *Remote) List() ([]Live, error) {
	a, err := r.answer(Frame{Op: OpList})
	if err != nil {
		return nil, err
	}
	out := make([]Live, 0, len(a.Sessions))
	for _, s := range a.Sessions {
		l := Live{Entry: s.Entry, Snapshot: s.Snapshot, Host: r.Host}
		switch {
		case s.Theirs != 0:
			l.Err = &VersionError{Ours: Protocol, Theirs: s.Theirs, PID: s.Entry.PID, Hooksup: s.Entry.Hooksup}
		case s.Error != "":
			l.Err = errors.New(s.Error)
		}
		if l.Snapshot.Pending == nil {
			l.Snapshot.Pending = []Question{}
		}
		out = append(out, l)
	}
	return out, nil
}

// call relays req to the session id and reads its answer as Client does.
func (r *Remote) call(id string, req Request) (Response, error) {
	req.Protocol = Protocol
	a, err := r.answer(Frame{Op: req.Op, Session: id, Request: &req})
	if err != nil {
		return Response{}, err
	}
	if a.Response == nil {
		return Response{}, fmt.Errorf("host %s sent no answer from session %s", r.Host, id)
	}
	return interpret(*a.Response)
}

// Snapshot asks the remote session id how it is.
func (r *Remote) Snapshot(id string) (Snapshot, error) {
	resp, err := r.call(id, Request{Op: OpSnapshot})
	if err != nil {
		return Snapshot{}, err
	}
	if resp.Snapshot == nil {
		return Snapshot{}, errors.New("the session sent no snapshot")
	}
	return *resp.Snapshot, nil
}

// Resolve answers question q of the remote session id, as Client.Resolve.
func (r *Remote) Resolve(id string, q int, decision, reason, by string) error {
	_, err := r.call(id, Request{Op: OpResolve, Question: q, Decision: decision, Reason: reason, By: by})
	return err
}

// Interrupt is Escape in the remote session id, as Client.Interrupt.
func (r *Remote) Interrupt(id string) error {
	_, err := r.call(id, Request{Op: OpInterrupt})
	return err
}

// ResumeGoal resumes the remote session id's goal with budget b, as Client.ResumeGoal.
func (r *Remote) ResumeGoal(id string, b session.GoalBudget) error {
	_, err := r.call(id, Request{Op: OpGoalResume, Goal: &b})
	return err
}

// Events streams the remote session id's events to f until the session ends, f returns false,
// or the connection goes (then a *HostError).
func (r *Remote) Events(id string, f func(Event) bool) error {
	stream, w, err := r.send(Frame{Op: OpEvents, Session: id}, 64)
	if err != nil {
		return err
	}
	defer r.abandon(stream, w)
	timer := time.NewTimer(r.t.timeout())
	defer timer.Stop()
	first := true
	for {
		var a Frame
		var ok bool
		select {
		case a, ok = <-w.ch:
		case <-timer.C:
			if first {
				r.cancel(stream)
				return &HostError{Host: r.Host, Err: ErrNoAnswer}
			}
			continue
		}
		if !ok {
			return r.gone()
		}
		if a.Error != "" {
			r.cancel(stream)
			return errors.New(a.Error)
		}
		if a.End {
			return nil
		}
		if a.Response == nil {
			continue
		}
		if first {
			first = false
			if _, err := interpret(*a.Response); err != nil {
				r.cancel(stream)
				return err
			}
			continue
		}
		if a.Response.Event != nil && !f(*a.Response.Event) {
			r.cancel(stream)
			return nil
		}
	}
}

// cancel asks the remote to end stream.
func (r *Remote) cancel(stream int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return
	}
	b, _ := json.Marshal(Frame{Protocol: Protocol, Op: OpCancel, Stream: stream})
	_, _ = r.stdin.Write(append(b, '\n'))
}

// tailBuffer keeps the end of what a process writes on stderr.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

const tailMax = 4096

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) > tailMax {
		b.buf = b.buf[len(b.buf)-tailMax:]
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}

// last is the last line written that is not empty.
func (b *tailBuffer) last() string {
	lines := bytes.Split(bytes.TrimSpace([]byte(b.String())), []byte("\n"))
	return strings.TrimSpace(string(lines[len(lines)-1]))
}
