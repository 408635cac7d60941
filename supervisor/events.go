package supervisor

import (
	"sync"
	"time"

	"github.com/hooksup/hooksup/checks"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/queue"
	"github.com/hooksup/hooksup/verdictlog"
)

// Event is something the supervisor tells its front end (the TUI or the headless printer).
type Event interface{ eventTime() time.Time }

// At is the time an event happened; embedded in every event.
type At struct{ Time time.Time }

func (a At) eventTime() time.Time { return a.Time }

// EventTime is when ev happened.
func EventTime(ev Event) time.Time { return ev.eventTime() }

// HookReceived: claude ran one of hooksup's hooks.
type HookReceived struct {
	At
	Input *hooks.Input
}

// CheckStarted: a check began for a stop decision.
type CheckStarted struct {
	At
	Run     int // a number unique in the session, shared by the check's later events
	Name    string
	Command string
	Event   string // Stop or SubagentStop
	AgentID string
}

// CheckOutput: a chunk of a running check's combined stdout and stderr.
type CheckOutput struct {
	At
	Run   int
	Name  string
	Chunk []byte
}

// CheckFinished: a check ended.
type CheckFinished struct {
	At
	Run    int
	Result checks.Result
}

// VerdictDecided: a stop was decided (also written to the verdict log).
type VerdictDecided struct {
	At
	Verdict verdictlog.Verdict
}

// OtherHooksReported: claude recorded what the other hooks at a stop did (its transcript
// lags: this comes after the stop's verdict). Entry is the verdict log's OtherHooks entry; its
// Stop names the verdict.
type OtherHooksReported struct {
	At
	Entry verdictlog.Verdict
}

// Interrupted: the person pressed Escape; the rest of the turn may stop at once.
type Interrupted struct {
	At
	Turn int
}

// Notice: something the person should know that is not a verdict (a config problem, a
// failure hooksup recovered from).
type Notice struct {
	At
	Level NoticeLevel
	Text  string
}

// NoticeLevel says how much a notice matters.
type NoticeLevel string

// Notice levels.
const (
	NoticeInfo  NoticeLevel = "info" // for the log; front ends need not show it
	NoticeWarn  NoticeLevel = "warn"
	NoticeError NoticeLevel = "error"
)

// AgentExited: the supervised agent's process ended, or could not start (Err).
type AgentExited struct {
	At
	Code int   // its exit status; 128+N when signal N ended it; 127 when it could not start
	Err  error // why it could not start
}

// bus carries the session's events to the front end, in order: publishing never blocks the
// engine and nothing is dropped, however slow the front end is. Other front ends (the control
// socket's clients) subscribe to taps: bounded, so one that stops reading loses its own events
// and nothing else.
type bus struct {
	q *queue.Queue[Event]

	mu     sync.Mutex
	taps   map[*queue.Queue[Event]]struct{}
	closed bool
}

// tapLimit is how many events a subscriber may fall behind before it loses some.
const tapLimit = 4096

func newBus() *bus { return &bus{q: queue.New[Event](), taps: map[*queue.Queue[Event]]struct{}{}} }

func (b *bus) publish(e Event) {
	b.q.Push(e)
	b.mu.Lock()
	for t := range b.taps {
		t.Push(e)
	}
	b.mu.Unlock()
}

// close delivers what is queued, then closes the channel (the taps' too).
func (b *bus) close() {
	b.q.Close()
	b.mu.Lock()
	b.closed = true
	for t := range b.taps {
		t.Close()
	}
	b.mu.Unlock()
}

func (b *bus) events() <-chan Event { return b.q.Out() }

// subscribe returns a second stream of the events published from now on, closed when the bus
// closes, and the function that ends it (the stream's channel is then closed).
func (b *bus) subscribe() (<-chan Event, func()) {
	t := queue.NewBounded[Event](tapLimit, nil)
	b.mu.Lock()
	if b.closed {
		t.Close()
	} else {
		b.taps[t] = struct{}{}
	}
	b.mu.Unlock()
	return t.Out(), func() {
		b.mu.Lock()
		delete(b.taps, t)
		b.mu.Unlock()
		t.Stop()
	}
}

// Subscribe returns another stream of the session's events, from now on, beside Events (which
// the front end that owns the terminal reads): closed after the agent exits, or when the
// returned function is called. A subscriber that falls far behind loses events; the front end
// never does.
func (s *Supervisor) Subscribe() (<-chan Event, func()) { return s.bus.subscribe() }
