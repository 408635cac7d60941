package supervisor

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
)

// NotRunning starts the notice hooksup gives when the agent's transcript shows a reply but none
// of hooksup's hooks has reached it.
func NotRunning(agent string) string { return agent + " is not running hooksup's hooks" }

// hookWatch notices an agent that does not run hooksup's hooks (settings it rejected, hooks
// turned off by a policy, a hook client that fails): its transcript gets a reply, yet no hook
// arrives. It watches the agent's transcripts for the project (a glob) until the first hook
// arrives; the agents fire UserPromptSubmit (and SessionStart) before they ask the model, so
// a reply without a hook means the hooks are not running.
type hookWatch struct {
	glob    string
	isReply func(line []byte) bool
	grace   time.Duration
	every   time.Duration
	arrived atomic.Bool

	mu       sync.Mutex
	offsets  map[string]int64 // how far each transcript was read (its size when the session started)
	seen     time.Time        // when a reply was first seen
	seenPath string
	warned   bool
}

func newHookWatch(glob string, reply func(line []byte) bool) *hookWatch {
	w := &hookWatch{glob: glob, isReply: reply, grace: 2 * time.Second, every: 500 * time.Millisecond, offsets: map[string]int64{}}
	for _, p := range w.transcripts() {
		if fi, err := os.Stat(p); err == nil {
			w.offsets[p] = fi.Size()
		}
	}
	return w
}

// hook records that a hook arrived: the watch ends.
func (w *hookWatch) hook() { w.arrived.Store(true) }

func (w *hookWatch) transcripts() []string {
	m, _ := filepath.Glob(w.glob)
	return m
}

// run polls until a hook arrives or ctx ends, and calls warn once with the transcript that
// showed a reply when no hook arrived within the grace period after it.
func (w *hookWatch) run(ctx context.Context, warn func(path string)) {
	t := time.NewTicker(w.every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if w.arrived.Load() || w.check(false, warn) {
			return
		}
	}
}

// exited is the last look, once claude has exited: every hook it was going to run has run, so
// a reply without a hook is enough.
func (w *hookWatch) exited(warn func(path string)) {
	if !w.arrived.Load() {
		w.check(true, warn)
	}
}

// check reads what the transcripts gained and warns when a reply came without a hook (at
// once when final, else after the grace period). It reports whether the watch is over.
func (w *hookWatch) check(final bool, warn func(path string)) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.warned {
		return true
	}
	if w.seen.IsZero() {
		if p, ok := w.reply(); ok {
			w.seen, w.seenPath = time.Now(), p
		}
	}
	if w.seen.IsZero() || (!final && time.Since(w.seen) < w.grace) || w.arrived.Load() {
		return false
	}
	w.warned = true
	warn(w.seenPath)
	return true
}

// reply reports a transcript whose new lines hold a model's reply (w.mu held).
func (w *hookWatch) reply() (string, bool) {
	for _, p := range w.transcripts() {
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		off := w.offsets[p]
		b, err := io.ReadAll(io.NewSectionReader(f, off, 1<<40))
		f.Close()
		if err != nil {
			continue
		}
		// Only whole lines: the next poll reads the rest.
		if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
			b = b[:i+1]
		} else {
			b = nil
		}
		w.offsets[p] = off + int64(len(b))
		for line := range bytes.Lines(b) {
			if w.isReply(line) {
				return p, true
			}
		}
	}
	return "", false
}
