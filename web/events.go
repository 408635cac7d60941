package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/hooksup/hooksup/hub"
	"github.com/hooksup/hooksup/internal/present"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/verdictlog"
)

// The events of the page's stream besides the sessions' own (hub's Event… names).
const (
	EventSessionStarted = "SessionStarted" // a session the page had not seen answers
	EventSessionEnded   = "SessionEnded"   // a session's event stream ended: it is gone, or about to be listed again
)

// pageEvent is one line of GET /api/events: a session's event, under its name on the hub's
// wire, with the session's id (hooksup's, the API's "id") and its host ("" for this machine).
type pageEvent struct {
	Type    string          `json:"type"`
	Host    string          `json:"host,omitempty"`
	Session string          `json:"session"`
	Time    time.Time       `json:"time"`
	Data    json.RawMessage `json:"data,omitempty"`
	// Words: a VerdictDecided's verdict as the TUI words it, for the page to show as it is.
	Words *Words `json:"words,omitempty"`
}

// Words are a verdict's decision and what it did as hooksup log words them (present.Decision,
// present.Outcome): the page shows "continued by you (hooksup web)", as the TUI's verdicts pane
// does, with "logged block" in its title; `hooksup log` says "Stop → block: continued by you
// (hooksup web)".
type Words struct {
	Decision string `json:"decision"`
	Source   string `json:"source"`
}

// VerdictWords are v's Words.
func VerdictWords(v verdictlog.Verdict) Words {
	return Words{Decision: present.Decision(v.Decision), Source: present.Outcome(v)}
}

// pageEventOf is a session's event for the page: its data with the keys of this hooksup's
// wire, snake_case, whichever hooksup's session sent it (hub.DecodeEvent reads the older one's
// too), as it came when it is not one this hooksup knows; a verdict with its Words.
func pageEventOf(host, id string, ev hub.Event) pageEvent {
	pe := pageEvent{Type: ev.Type, Host: host, Session: id, Time: ev.Time, Data: ev.Data}
	e, err := hub.DecodeEvent(ev)
	if err != nil {
		return pe
	}
	if b, err := json.Marshal(e); err == nil {
		pe.Data = b
	}
	if v, ok := e.(session.VerdictDecided); ok {
		w := VerdictWords(v.Verdict)
		pe.Words = &w
	}
	return pe
}

// keptVerdicts is how many of each session's latest verdicts a new stream is sent first (a
// snapshot has none).
const keptVerdicts = 5

// subscriberBuffer is how far a stream may fall behind before it is dropped (the page then
// reconnects and lists the sessions again).
const subscriberBuffer = 256

// broker hands every event to every open stream.
type broker struct {
	mu       sync.Mutex
	subs     map[chan []byte]struct{}
	verdicts map[string][][]byte // per session, oldest first
}

func newBroker() *broker {
	return &broker{subs: map[chan []byte]struct{}{}, verdicts: map[string][][]byte{}}
}

func (b *broker) publish(session string, ev pageEvent) {
	line, err := json.Marshal(ev)
	if err != nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if ev.Type == hub.EventVerdictDecided {
		v := append(b.verdicts[session], line)
		if len(v) > keptVerdicts {
			v = v[len(v)-keptVerdicts:]
		}
		b.verdicts[session] = v
	}
	for c := range b.subs {
		select {
		case c <- line:
		default: // too far behind: its stream ends, and the page starts over
			delete(b.subs, c)
			close(c)
		}
	}
}

// forgetExcept drops the kept verdicts of the sessions not in live.
func (b *broker) forgetExcept(live map[string]bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for id := range b.verdicts {
		if !live[id] {
			delete(b.verdicts, id)
		}
	}
}

// subscribe returns a stream of events, starting with the kept verdicts, and its cancel.
func (b *broker) subscribe() (<-chan []byte, func()) {
	c := make(chan []byte, subscriberBuffer+keptVerdicts*64)
	b.mu.Lock()
	for _, vs := range b.verdicts {
		for _, v := range vs {
			select {
			case c <- v:
			default:
			}
		}
	}
	b.subs[c] = struct{}{}
	b.mu.Unlock()
	return c, func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		if _, ok := b.subs[c]; ok {
			delete(b.subs, c)
			close(c)
		}
	}
}

// keepAlive is how often an idle stream gets a comment line, so a connection that died is
// noticed by both sides.
const keepAlive = 15 * time.Second

// recheck is how often an open stream checks that its credential is still valid: a revoked
// device's stream ends within it.
const recheck = 2 * time.Second

// stream is GET /api/events: Server-Sent Events, one JSON pageEvent per message.
func (s *Server) stream(w http.ResponseWriter, r *http.Request) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		writeError(w, http.StatusInternalServerError, "stream", "streaming is not supported here")
		return
	}
	given, _ := r.Context().Value(credentialKey{}).(string)
	if !s.streams.open(given) {
		writeError(w, http.StatusTooManyRequests, "too_many_streams",
			fmt.Sprintf("this device already has %d event streams open: close a tab of the page", MaxStreamsPerCredential))
		return
	}
	defer s.streams.close(given)
	// The request's read deadline (ReadTimeout) ends with its reading: a stream outlives it.
	_ = http.NewResponseController(w).SetReadDeadline(time.Time{})
	events, cancel := s.events.subscribe()
	defer cancel()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, "retry: 1000\n\n")
	flusher.Flush()
	ping := time.NewTicker(keepAlive)
	defer ping.Stop()
	check := time.NewTicker(recheck)
	defer check.Stop()
	for {
		select {
		case <-check.C:
			if ok, _ := s.valid(given, clientAddr(r)); !ok {
				return
			}
		case <-r.Context().Done():
			return
		case line, ok := <-events:
			if !ok {
				return
			}
			if _, err := fmt.Fprintf(w, "data: %s\n\n", line); err != nil {
				return
			}
			flusher.Flush()
		case <-ping.C:
			if _, err := fmt.Fprint(w, ": ping\n\n"); err != nil {
				return
			}
			flusher.Flush()
		}
	}
}
