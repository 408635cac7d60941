package transcript

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/hooksup/hooksup/session"
)

// ErrAlreadyRun is returned by Watcher.Run when it is called a second time.
var ErrAlreadyRun = errors.New("transcript: watcher already run")

// Source says which transcript an update came from.
type Source struct {
	AgentID   string `json:"agent_id,omitempty"`   // "" for the session's own transcript
	AgentType string `json:"agent_type,omitempty"` // the subagent's type, when known
	Path      string `json:"path"`
}

// Update is one thing the followed transcripts said: a line (Record.Kind is a line kind), or a
// change the watcher saw (KindSubagent, KindReset, KindSession, KindError).
type Update struct {
	Source Source `json:"source"`
	Record Record `json:"record"`
	Err    error  `json:"-"` // KindError only
}

// Watcher follows a session transcript and its subagents' transcripts. Create it with
// NewWatcher, start Run in a goroutine, read Updates until it is closed, and call Snapshot
// whenever the aggregates are wanted.
type Watcher struct {
	opts    Options
	updates chan Update
	switchc chan struct{}
	wakec   chan struct{}
	ran     atomic.Bool
	wakeups atomic.Int64  // times Run woke up; tests check that an idle watcher sleeps
	parks   atomic.Int64  // subagent transcripts let go (runner.go), for tests
	ready   chan struct{} // closed once Run watches and has read what exists

	mu     sync.Mutex        // guards the fields below
	path   string            // the session transcript followed
	next   string            // the path Switch asked for, "" if none
	woken  map[string]bool   // the subagents Wake named ("" for all) since Run last looked
	follow map[string]string // subagent id → transcript path, given to Follow since Run last looked
	fsw    fsWatcher         // what Run watches with, once it runs (for tests)
	seq    uint64
	main   *tail
	agents map[string]*tail
	order  []*tail // agents in discovery order
}

// NewWatcher returns a watcher for the session transcript at path (SessionStart's
// transcript_path). The file and its directories need not exist yet.
func NewWatcher(path string, opts Options) *Watcher {
	opts = opts.withDefaults()
	w := &Watcher{
		opts:    opts,
		updates: make(chan Update, opts.UpdateBuffer),
		switchc: make(chan struct{}, 1),
		wakec:   make(chan struct{}, 1),
		ready:   make(chan struct{}),
		woken:   map[string]bool{},
		follow:  map[string]string{},
	}
	w.reset(path)
	return w
}

// reset starts following path with empty aggregates. The caller holds w.mu or owns w alone.
func (w *Watcher) reset(path string) {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	w.path = path
	w.main = newTail(session.AgentInfo{Path: path}, w.opts)
	w.agents = map[string]*tail{}
	w.order = nil
	w.seq++
}

// Updates delivers the interesting lines and watcher events in order. Lines of types hooksup
// does not interpret and malformed lines are only counted. The channel is closed when Run
// returns; Run waits while it is full, so the consumer must keep reading it.
func (w *Watcher) Updates() <-chan Update { return w.updates }

// Switch makes the watcher follow another session transcript (after /clear claude starts a new
// session id and file). Aggregates start over; a KindSession update marks the switch.
func (w *Watcher) Switch(path string) {
	w.mu.Lock()
	w.next = path
	w.mu.Unlock()
	select {
	case w.switchc <- struct{}{}:
	default:
	}
}

// Wake says that a subagent is active (a hook named it), or with "" that the session is at a
// stop: the watcher looks again at the transcripts it no longer watches (see runner.go) — the
// subagent's, or all of them — and follows any that grew. It never blocks.
func (w *Watcher) Wake(agentID string) {
	w.mu.Lock()
	w.woken[agentID] = true
	w.mu.Unlock()
	select {
	case w.wakec <- struct{}{}:
	default:
	}
}

// Follow says that subagent agentID (of the session followed) writes its transcript at path,
// where the watcher would not look by itself: Codex keeps a subagent's rollout beside the
// session's, named by the subagent's own thread id, and names it in SubagentStop's
// agent_transcript_path. The watcher follows it as it follows a subagent it found (read from its
// start, watched until it has finished and been quiet, then let go and looked at again when
// woken); a subagent it already follows is only looked at again. It never blocks.
func (w *Watcher) Follow(agentID, path string) {
	if agentID == "" || path == "" {
		return
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	w.mu.Lock()
	w.follow[agentID] = path
	w.woken[agentID] = true
	w.mu.Unlock()
	select {
	case w.wakec <- struct{}{}:
	default:
	}
}

// Snapshot returns a copy of the current aggregates. It is safe to call at any time from any
// goroutine.
func (w *Watcher) Snapshot() session.Transcript {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := session.Transcript{
		Path:      w.path,
		SessionID: strings.TrimSuffix(filepath.Base(w.path), jsonlExt),
		Seq:       w.seq,
		Main:      w.main.p.Stats(),
	}
	s.Usage = s.Main.Usage
	s.ByModel = maps.Clone(s.Main.ByModel)
	if s.ByModel == nil {
		s.ByModel = map[string]session.Usage{}
	}
	for _, t := range w.order {
		a := session.AgentTranscript{AgentInfo: t.info, Stats: t.p.Stats()}
		if a.Type == "" {
			a.Type = a.Stats.AgentType
		}
		s.Agents = append(s.Agents, a)
		s.Usage = addUsage(s.Usage, a.Stats.Usage)
		for m, u := range a.Stats.ByModel {
			s.ByModel[m] = addUsage(s.ByModel[m], u)
		}
	}
	return s
}

// Run follows the transcripts until ctx is done, then closes every file and the Updates
// channel and returns nil. It returns an error only if it cannot start watching. Run reacts to
// fsnotify events alone: while nothing is written it does no work.
func (w *Watcher) Run(ctx context.Context) error {
	if !w.ran.CompareAndSwap(false, true) {
		return ErrAlreadyRun
	}
	defer close(w.updates)
	fw, err := newFSWatcher()
	if err != nil {
		return fmt.Errorf("transcript: start fsnotify: %w", err)
	}
	r := &runner{w: w, fw: fw, ctx: ctx, buf: make([]byte, readChunk), watched: map[string]bool{}, files: map[string]bool{}, byPath: map[string]*tail{},
		quiet: stopTimer(time.NewTimer(time.Hour))}
	defer r.close()

	w.mu.Lock()
	w.fsw = fw
	if w.next != "" { // Switch before Run: start with the newest path
		w.reset(w.next)
		w.next = ""
	}
	w.mu.Unlock()
	r.start()
	ready := w.ready
	for {
		if !r.flush() {
			return nil
		}
		if ready != nil {
			close(ready)
			ready = nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-w.switchc:
			w.wakeups.Add(1)
			r.switchPath()
		case <-w.wakec:
			w.wakeups.Add(1)
			r.woken()
		case <-r.quiet.C:
			w.wakeups.Add(1)
		case ev, ok := <-fw.Events():
			if !ok {
				return nil
			}
			w.wakeups.Add(1)
			r.event(ev)
			// Take what else is queued (up to a bound, so a steady stream of writes is still
			// read) so that a burst of writes costs one read per file.
			for range maxBatch {
				var more bool
				select {
				case ev, more = <-fw.Events():
					if more {
						r.event(ev)
					}
				default:
				}
				if !more {
					break
				}
			}
		case err, ok := <-fw.Errors():
			if !ok {
				return nil
			}
			w.wakeups.Add(1)
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				r.rescan() // events were lost: look at everything once
				continue
			}
			r.send(Update{Source: r.w.main.source(), Record: Record{Kind: KindError}, Err: fmt.Errorf("transcript: watch: %w", err)})
		}
	}
}
