package transcript

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/fsnotify/fsnotify"
)

// maxBatch bounds how many queued fsnotify events Run takes before reading the files.
const maxBatch = 256

// runner is Run's state; only Run's goroutine touches it.
type runner struct {
	w       *Watcher
	fw      *fsnotify.Watcher
	ctx     context.Context
	buf     []byte
	watched map[string]bool // directories fsnotify watches
	ensure  bool            // the directories to watch must be re-evaluated
	pending []Update
	stopped bool // ctx ended while sending
}

// dirs are the directories whose changes matter: the session's directory, the session's own
// directory and its subagents directory.
func (r *runner) dirs() (project, session, subagents string) {
	p := r.w.main.info.Path
	return filepath.Dir(p), strings.TrimSuffix(p, jsonlExt), SubagentDir(p)
}

func (r *runner) start() {
	r.ensure = true
	r.w.main.dirty = true
}

func (r *runner) close() {
	r.fw.Close()
	r.w.mu.Lock()
	defer r.w.mu.Unlock()
	r.w.main.close()
	for _, t := range r.w.order {
		t.close()
	}
}

// switchPath follows the path given to Switch.
func (r *runner) switchPath() {
	w := r.w
	w.mu.Lock()
	next := w.next
	w.next = ""
	if next == "" {
		w.mu.Unlock()
		return
	}
	w.main.close()
	for _, t := range w.order {
		t.close()
	}
	w.reset(next)
	src := w.main.source()
	w.mu.Unlock()
	r.ensure = true
	w.main.dirty = true
	clear(r.pending) // what was queued concerned the old session
	r.pending = append(r.pending[:0], Update{Source: src, Record: Record{Kind: KindSession}})
}

// event notes what an fsnotify event changed; flush acts on it.
func (r *runner) event(ev fsnotify.Event) {
	name := filepath.Clean(ev.Name)
	project, session, subagents := r.dirs()
	switch {
	case name == r.w.main.info.Path:
		r.w.main.dirty = true
	case filepath.Dir(name) == subagents:
		r.agentChanged(filepath.Base(name))
	}
	if ev.Has(fsnotify.Create) || ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
		for _, d := range []string{project, session, subagents} {
			if name == d || strings.HasPrefix(d, name+string(filepath.Separator)) {
				r.ensure = true
			}
		}
		if r.watched[name] && !ev.Has(fsnotify.Create) {
			delete(r.watched, name) // fsnotify dropped the watch of a removed directory
			r.ensure = true
		}
	}
}

// agentChanged marks the subagent file name (in the subagents directory) as changed.
func (r *runner) agentChanged(name string) {
	id, meta, ok := agentFile(name)
	if !ok {
		return
	}
	t := r.agent(id)
	if meta {
		t.metaOK = true
	} else {
		t.dirty = true
	}
}

// agent returns the tail of subagent id, creating it on first sight.
func (r *runner) agent(id string) *tail {
	w := r.w
	if t, ok := w.agents[id]; ok {
		return t
	}
	_, _, subagents := r.dirs()
	t := newTail(AgentInfo{ID: id, Path: filepath.Join(subagents, agentPrefix+id+jsonlExt)}, w.opts)
	w.mu.Lock()
	w.agents[id] = t
	w.order = append(w.order, t)
	w.seq++
	w.mu.Unlock()
	r.pending = append(r.pending, Update{Source: t.source(), Record: Record{Kind: KindSubagent}})
	return t
}

// rescan treats everything as changed, as after a lost event.
func (r *runner) rescan() {
	r.ensure = true
	r.w.main.dirty = true
	for _, t := range r.w.order {
		t.dirty, t.metaOK = true, true
	}
}

// ensureWatches watches each directory that matters, or while it does not exist its nearest
// existing ancestor, and looks into the directories it starts watching. It repeats until
// nothing changes, so a directory created just before its parent's watch was added is found.
func (r *runner) ensureWatches() {
	r.ensure = false
	for r.ensureOnce() {
	}
}

// ensureOnce adjusts the watches once and reports whether it added any.
func (r *runner) ensureOnce() (added bool) {
	project, session, subagents := r.dirs()
	want := map[string]bool{}
	for _, d := range []string{project, session, subagents} {
		want[nearestDir(d)] = true
	}
	for d := range r.watched {
		if !want[d] {
			_ = r.fw.Remove(d) // it may be gone already
			delete(r.watched, d)
		}
	}
	for d := range want {
		if r.watched[d] {
			continue
		}
		if err := r.fw.Add(d); err != nil {
			r.pending = append(r.pending, Update{Source: r.w.main.source(), Record: Record{Kind: KindError}, Err: fmt.Errorf("transcript: watch %s: %w", d, err)})
			continue
		}
		r.watched[d] = true
		added = true
		// Files may have appeared before the watch: look once.
		switch d {
		case project:
			r.w.main.dirty = true
		case subagents:
			entries, _ := os.ReadDir(d) // a vanished directory simply has no entries
			for _, e := range entries {
				r.agentChanged(e.Name())
			}
		}
	}
	return added
}

// nearestDir returns d if it is an existing directory, else its nearest existing ancestor.
func nearestDir(d string) string {
	for {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return d
		}
		d = parent
	}
}

// flush acts on the changes noted since the last flush. It returns false once ctx is done.
func (r *runner) flush() bool {
	if r.ensure {
		r.ensureWatches()
	}
	for _, t := range r.w.order {
		if t.metaOK {
			t.metaOK = false
			r.readMeta(t)
		}
	}
	if !r.sendPending() {
		return false
	}
	r.poll(r.w.main)
	for _, t := range r.w.order {
		if r.stopped {
			break
		}
		r.poll(t)
	}
	return !r.stopped
}

func (r *runner) readMeta(t *tail) {
	m, err := readAgentMeta(filepath.Join(filepath.Dir(t.info.Path), agentPrefix+t.info.ID+metaExt))
	if err != nil {
		return // absent or half written: a later event brings it
	}
	info := t.info
	info.Type, info.Description, info.Finished = m.AgentType, m.Description, m.Finished
	if info == t.info {
		return
	}
	r.w.mu.Lock()
	t.info = info
	r.w.seq++
	r.w.mu.Unlock()
	r.pending = append(r.pending, Update{Source: t.source(), Record: Record{Kind: KindSubagent, Text: info.Description}})
}

// poll reads what was appended to t since the last read, if a change was reported.
func (r *runner) poll(t *tail) {
	if !t.dirty {
		return
	}
	t.dirty = false
	w := r.w
	restart, err := t.sync()
	if restart {
		w.mu.Lock()
		t.restart()
		w.seq++
		w.mu.Unlock()
		r.pending = append(r.pending, Update{Source: t.source(), Record: Record{Kind: KindReset}})
	}
	if err != nil && !t.failed {
		t.failed = true
		r.pending = append(r.pending, Update{Source: t.source(), Record: Record{Kind: KindError}, Err: err})
	} else if err == nil {
		t.failed = false
	}
	if !r.sendPending() {
		return
	}
	src := t.source()
	line := func(b []byte) {
		rec := t.p.Feed(b)
		if deliver(&rec) {
			if src.AgentType == "" && rec.AgentType != "" {
				src.AgentType = rec.AgentType
			}
			r.pending = append(r.pending, Update{Source: src, Record: rec})
		}
	}
	err = t.read(r.buf, func(chunk []byte) bool {
		w.mu.Lock()
		t.p.skipOversized(t.lb.feed(chunk, line))
		w.seq++
		w.mu.Unlock()
		return r.sendPending()
	})
	if err != nil {
		r.send(Update{Source: src, Record: Record{Kind: KindError}, Err: err})
	}
}

// deliver reports whether a parsed line is worth an update.
func deliver(r *Record) bool {
	switch r.Kind {
	case KindOther, KindMalformed:
		return false
	case KindHook:
		return len(r.Hooks) > 0 // all were the caller's own
	}
	return true
}

// sendPending delivers the queued updates; false once ctx is done.
func (r *runner) sendPending() bool {
	for i, u := range r.pending {
		if !r.send(u) {
			clear(r.pending[i:])
			r.pending = r.pending[:0]
			return false
		}
	}
	clear(r.pending)
	r.pending = r.pending[:0]
	return true
}

func (r *runner) send(u Update) bool {
	if r.stopped {
		return false
	}
	select {
	case r.w.updates <- u:
		return true
	case <-r.ctx.Done():
		r.stopped = true
		return false
	}
}
