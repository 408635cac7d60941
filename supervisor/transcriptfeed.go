package supervisor

import (
	"context"
	"log/slog"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/transcript"
	"github.com/hooksup/hooksup/verdictlog"
)

// transcriptThrottle is the least time between two TranscriptUpdated events.
const transcriptThrottle = 250 * time.Millisecond

// transcriptFeed follows the session's transcript once a hook names it, and switches when a
// new session (/clear) names another.
type transcriptFeed struct {
	ctx     context.Context
	publish func(session.Event)
	// onRecord sees every line of the main transcript (for state inference); onSnapshot every
	// published snapshot; onStopHooks every stop_hook_summary naming another hook, with the
	// agent whose transcript holds it ("" the main agent).
	onRecord    func(transcript.Record)
	onSnapshot  func(session.Transcript)
	onStopHooks func(agentID string, r transcript.Record)
	logger      *slog.Logger
	ownHook     func(string) bool
	decoder     func(maxText int) transcript.Decoder

	busy atomic.Int32 // consume is handling an update

	mu      sync.Mutex
	changed chan struct{} // closed and replaced whenever the transcript says something new
	w       *transcript.Watcher
	path    string
	pending bool
	last    time.Time
	stops   []stopSeen // the latest stops the main transcript marked, newest last
}

// stopSeen is a stop the main transcript marked (transcript.KindStopHook) and the reply before it.
type stopSeen struct{ mark, reply string }

// stopsKept is how many marked stops the feed remembers: a stop is looked for as its hook
// arrives, and the agent waits for that hook before it stops again.
const stopsKept = 8

// newTranscriptFeed makes a feed of transcripts read by decoder (nil: the parser's own format); the commands of hooksup's own hooks
// start with one of bins.
func newTranscriptFeed(ctx context.Context, publish func(session.Event), logger *slog.Logger, decoder func(maxText int) transcript.Decoder, bins ...string) *transcriptFeed {
	return &transcriptFeed{ctx: ctx, publish: publish, logger: logger, ownHook: transcript.HookProgram(bins...), decoder: decoder,
		changed: make(chan struct{})}
}

// follow starts (or switches) the tail to path.
func (f *transcriptFeed) follow(path string) {
	if path == "" {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.path == path {
		return
	}
	f.path = path
	if f.w != nil {
		f.w.Switch(path)
		return
	}
	f.w = transcript.NewWatcher(path, transcript.Options{OwnHook: f.ownHook, Decoder: f.decoder})
	w := f.w
	go func() {
		if err := w.Run(f.ctx); err != nil {
			f.logger.Warn("transcript tail stopped", "err", err)
		}
	}()
	go f.consume(w)
}

// wake tells the tail that a hook named a subagent, or ("") that the session stops: a subagent
// transcript it let go is read again if it grew (transcript.Watcher.Wake).
func (f *transcriptFeed) wake(agentID string) {
	if w := f.watcher(); w != nil {
		w.Wake(agentID)
	}
}

// followAgent tells the tail where subagent agentID writes its transcript
// (transcript.Watcher.Follow).
func (f *transcriptFeed) followAgent(agentID, path string) {
	if w := f.watcher(); w != nil {
		w.Follow(agentID, path)
	}
}

// consume reads the watcher's updates and publishes snapshots, throttled.
func (f *transcriptFeed) consume(w *transcript.Watcher) {
	for u := range w.Updates() {
		f.busy.Store(1)
		f.handle(w, u)
		f.busy.Store(0)
		f.notify() // a stop's read waits until what was read before its message is handled
	}
}

// notify wakes whoever awaits a change of the feed.
func (f *transcriptFeed) notify() {
	f.mu.Lock()
	defer f.mu.Unlock()
	close(f.changed)
	f.changed = make(chan struct{})
}

// idle reports whether every line w has read is handled.
func (f *transcriptFeed) idle(w *transcript.Watcher) bool {
	return len(w.Updates()) == 0 && f.busy.Load() == 0
}

// handle passes one update on and schedules a snapshot.
func (f *transcriptFeed) handle(w *transcript.Watcher, u transcript.Update) {
	if u.Err != nil {
		f.logger.Warn("transcript", "path", u.Source.Path, "err", u.Err)
	}
	if u.Source.AgentID == "" && f.onRecord != nil {
		f.onRecord(u.Record)
	}
	if f.onStopHooks != nil && isStopHookSummary(u.Record) {
		f.onStopHooks(u.Source.AgentID, u.Record)
	}
	f.mu.Lock()
	if u.Source.AgentID == "" && u.Record.Kind == transcript.KindStopHook {
		if len(f.stops) == stopsKept {
			f.stops = append(f.stops[:0], f.stops[1:]...)
		}
		f.stops = append(f.stops, stopSeen{u.Record.StopMark, u.Record.Text})
	}
	close(f.changed)
	f.changed = make(chan struct{})
	if f.pending {
		f.mu.Unlock()
		return
	}
	wait := transcriptThrottle - time.Since(f.last)
	f.pending = true
	f.mu.Unlock()
	if wait < 0 {
		wait = 0
	}
	time.AfterFunc(wait, func() {
		f.mu.Lock()
		f.pending = false
		f.last = time.Now()
		f.mu.Unlock()
		snap := w.Snapshot()
		if f.onSnapshot != nil {
			f.onSnapshot(snap)
		}
		f.publish(session.TranscriptUpdated{At: session.At{Time: time.Now()}, Snapshot: snap})
	})
}

// followed is the main transcript being followed ("" before a hook named one).
func (f *transcriptFeed) followed() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.path
}

// snapshot is the aggregates now (ok false before any transcript is followed).
func (f *transcriptFeed) snapshot() (session.Transcript, bool) {
	w := f.watcher()
	if w == nil {
		return session.Transcript{}, false
	}
	return w.Snapshot(), true
}

// observation is what a transcript's aggregates say for a verdict.
func observation(s session.Transcript) *verdictlog.Observation {
	o := &verdictlog.Observation{
		Model:        s.Main.Model,
		InputTokens:  s.Usage.InputTokens,
		OutputTokens: s.Usage.OutputTokens,
		CacheRead:    s.Usage.CacheReadTokens,
		CacheCreate:  s.Usage.CacheCreationTokens,
		Turns:        int(s.Main.Turns),
		TurnMS:       s.Main.LastTurn.Milliseconds(),
	}
	if len(s.Main.ToolCalls) > 0 {
		o.ToolCalls = make(map[string]int, len(s.Main.ToolCalls))
		for k, v := range s.Main.ToolCalls {
			o.ToolCalls[k] = int(v)
		}
	}
	return o
}

// await returns once done says so, asked at once and after each change of the feed, or ctx
// ends. done takes the feed's lock itself if it needs it.
func (f *transcriptFeed) await(ctx context.Context, done func() bool) {
	for {
		f.mu.Lock()
		changed := f.changed
		f.mu.Unlock()
		if done() {
			return
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return
		}
	}
}

// watcher is the tail of the transcript being followed (nil before a hook named one).
func (f *transcriptFeed) watcher() *transcript.Watcher {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.w
}

// read is a stop's one read of the transcript (engine.Options.Transcript): it returns once the
// transcript has the last message the stop names (the main transcript's for a Stop, the
// subagent's for a SubagentStop) and every line read before it is handled (what the other hooks
// did at the stop before is told before this stop's verdict), or ctx ends, with what the
// transcript says then; nil before a hook named one.
func (f *transcriptFeed) read(ctx context.Context, in *hooks.Input) *verdictlog.Observation {
	want := strings.TrimSpace(in.LastAssistantMessage)
	var snap session.Transcript
	var w *transcript.Watcher
	f.await(ctx, func() bool {
		if w = f.watcher(); w == nil {
			return want == ""
		}
		snap = w.Snapshot()
		return want == "" || hasMessage(lastText(snap, in), want) && f.idle(w)
	})
	if w == nil {
		return nil
	}
	if ctx.Err() != nil { // the wait is over: what the transcript says now
		snap = w.Snapshot()
	}
	return observation(snap)
}

// stopReplyWait bounds how long a stop waits for the transcript to reach it
// (hooks.Input.StopMark).
const stopReplyWait = 2 * time.Second

// stopReply gives a stop whose input the agent's transcript had not reached yet
// (hooks.Input.StopMark) the reply before it, once the tail reads the line that marks it; it
// waits for that at most stopReplyWait, or until ctx ends, and leaves the input's reply as it
// was if the line does not come.
func (f *transcriptFeed) stopReply(ctx context.Context, in *hooks.Input) {
	if in.StopMark == "" {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, stopReplyWait)
	defer cancel()
	f.await(ctx, func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		for _, s := range f.stops {
			if s.mark == in.StopMark {
				if s.reply != "" {
					in.LastAssistantMessage = s.reply
				}
				return true
			}
		}
		return false
	})
}

// lastText is the latest assistant text of the transcript a stop is about.
func lastText(s session.Transcript, in *hooks.Input) string {
	if in.HookEventName != hooks.SubagentStop {
		return s.Main.LastText
	}
	for _, a := range s.Agents {
		if a.ID == in.AgentID {
			return a.Stats.LastText
		}
	}
	return ""
}

// hasMessage reports whether a transcript's latest assistant text (cut at a length, "…"
// marking the cut) is the end of the message a hook names.
func hasMessage(lastText, message string) bool {
	t := strings.TrimSpace(lastText)
	if t == "" {
		return false
	}
	if cut, ok := strings.CutSuffix(t, "…"); ok && cut != "" {
		t = cut
	}
	return strings.Contains(message, t)
}

// settle waits (at most timeout) until the tail has read the whole main transcript as it is on
// disk now, and what it read has been handled (a stop's last summary is recorded): claude has
// exited, so nothing more is coming. It is the one place that polls, once, at the end of a
// session.
func (f *transcriptFeed) settle(timeout time.Duration) (session.Transcript, bool) {
	deadline := time.Now().Add(timeout)
	quiet := 0
	for {
		s, ok := f.snapshot()
		if !ok {
			return s, false
		}
		fi, err := os.Stat(s.Path)
		if err != nil || time.Now().After(deadline) {
			return s, true
		}
		// Twice in a row: the tail counts a line's bytes just before it hands the line on.
		if s.Main.Bytes >= fi.Size() && len(f.updates()) == 0 && f.busy.Load() == 0 {
			if quiet++; quiet == 2 {
				return s, true
			}
		} else {
			quiet = 0
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// updates is the watcher's queue of updates not yet handled.
func (f *transcriptFeed) updates() <-chan transcript.Update {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.w == nil {
		return nil
	}
	return f.w.Updates()
}

func summaryOf(s session.Transcript) session.Summary {
	tools := map[string]int64{}
	for k, v := range s.Main.ToolCalls {
		tools[k] += v
	}
	for _, a := range s.Agents {
		for k, v := range a.Stats.ToolCalls {
			tools[k] += v
		}
	}
	return session.Summary{SessionID: s.SessionID, Transcript: s.Path, Model: s.Main.Model, Usage: s.Usage, ByModel: s.ByModel,
		ToolCalls: tools, Turns: s.Main.Turns, APIErrors: s.Main.APIErrors, Subagents: len(s.Agents)}
}
