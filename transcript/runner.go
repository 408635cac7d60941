package transcript

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/hooksup/hooksup/session"
)

// maxBatch bounds how many queued fsnotify events Run takes before reading the files.
const maxBatch = 256

// Which files are watched. On Linux a directory's watch reports writes to its files, so the
// three directories are all the watcher needs. On macOS (kqueue) a directory's watch reports only
// its entries, and each watched file is a descriptor: there the session's transcript and the
// live subagents' transcripts and .meta.json are watched one by one, and a subagent's are let go
// ("parked": unwatched, its file closed, where it was read to kept) once it has finished and been
// quiet for parkQuiet, and beyond maxLiveAgents the least recently written one is parked. So the
// descriptors stay bounded (the directories, the main transcript, at most maxLiveAgents × 3)
// however many subagents a session runs. A parked transcript is looked at again (a stat: read
// on if it grew, and watched again) when the watcher is told the subagent is active (Wake, from
// a hook that names it), at a stop (Wake("")), when the subagents directory changes, and after
// lost events — so a steered subagent's new lines are read, never lost.
const (
	maxLiveAgents = 16
	parkQuiet     = 2 * time.Second
)

// runner is Run's state; only Run's goroutine touches it.
type runner struct {
	w       *Watcher
	fw      fsWatcher
	ctx     context.Context
	buf     []byte
	watched map[string]bool  // directories watched
	files   map[string]bool  // files watched one by one (fsWatcher.AddFile)
	byPath  map[string]*tail // subagents given to Follow, by transcript path
	ensure  bool             // the directories to watch must be re-evaluated
	recheck bool             // look at every parked transcript at the next flush
	pending []Update
	stopped bool // ctx ended while sending
	// quiet fires when a finished subagent has been quiet for parkQuiet.
	quiet *time.Timer
}

func stopTimer(t *time.Timer) *time.Timer {
	t.Stop()
	return t
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
	r.quiet.Stop()
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
	for p := range r.files {
		_ = r.fw.Remove(p)
	}
	clear(r.files)
	clear(r.byPath)
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
		if ev.Has(fsnotify.Create) || ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
			r.recheck = true
		}
	case r.byPath[name] != nil:
		r.byPath[name].dirty = true
	}
	if r.files[name] && (ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename)) {
		r.unwatchFile(name) // the watch went with the file: the file now at the path is watched anew
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
	_, _, subagents := r.dirs()
	return r.agentAt(id, filepath.Join(subagents, agentPrefix+id+jsonlExt))
}

// agentAt returns the tail of subagent id, creating it on first sight with its transcript at
// path.
func (r *runner) agentAt(id, path string) *tail {
	w := r.w
	if t, ok := w.agents[id]; ok {
		return t
	}
	t := newTail(session.AgentInfo{ID: id, Path: path}, w.opts)
	t.changed = time.Now()
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
		if err := r.fw.AddDir(d); err != nil {
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
	if r.recheck {
		r.recheck = false
		for _, t := range r.w.order {
			if t.parked {
				t.dirty, t.metaOK = true, true
			}
		}
	}
	for _, t := range r.w.order {
		if t.metaOK && !t.parked {
			t.metaOK = false
			r.makeRoom(t)
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
	if !r.stopped {
		r.parkQuiet()
	}
	return !r.stopped
}

// woken takes the subagents Wake named: each is looked at again, all parked ones for "".
func (r *runner) woken() {
	w := r.w
	w.mu.Lock()
	ids := w.woken
	w.woken = map[string]bool{}
	follow := w.follow
	w.follow = map[string]string{}
	w.mu.Unlock()
	_, _, subagents := r.dirs()
	for id, path := range follow {
		if _, ok := w.agents[id]; ok {
			continue
		}
		if filepath.Dir(path) == subagents { // where the watcher looks anyway (claude's)
			r.agent(id).dirty = true
			continue
		}
		t := r.agentAt(id, path)
		// Nothing but a hook names it: it is watched while it writes, and let go (looked at
		// again when woken) once it has been quiet, as a finished subagent is.
		w.mu.Lock()
		t.info.Finished = true
		w.mu.Unlock()
		r.byPath[path] = t
	}
	for id := range ids {
		if id == "" {
			r.recheck = true
		} else if t, ok := w.agents[id]; ok {
			t.dirty, t.metaOK = true, true
		}
	}
}

// watchFile watches path on its own; a file not there yet is watched once an event brings it.
func (r *runner) watchFile(path string) {
	if r.files[path] {
		return
	}
	if err := r.fw.AddFile(path); err == nil {
		r.files[path] = true
	}
}

func (r *runner) unwatchFile(path string) {
	if r.files[path] {
		_ = r.fw.Remove(path)
		delete(r.files, path)
	}
}

func metaPath(t *tail) string {
	return filepath.Join(filepath.Dir(t.info.Path), agentPrefix+t.info.ID+metaExt)
}

// park lets a subagent's transcript go: unwatched and closed, where it was read to kept.
func (r *runner) park(t *tail) {
	r.w.parks.Add(1)
	t.parked = true
	t.park()
	r.unwatchFile(t.info.Path)
	r.unwatchFile(metaPath(t))
}

// makeRoom parks the least recently written live subagents other than t until fewer than
// maxLiveAgents are: t, about to be watched, makes at most maxLiveAgents.
func (r *runner) makeRoom(t *tail) {
	if t.info.ID == "" {
		return // the session's own transcript is always watched
	}
	for {
		live := 0
		var oldest *tail
		for _, o := range r.w.order {
			if o.parked || o == t {
				continue
			}
			live++
			if oldest == nil || o.changed.Before(oldest.changed) {
				oldest = o
			}
		}
		if live < maxLiveAgents {
			return
		}
		r.park(oldest)
	}
}

// parkQuiet parks the finished subagents quiet for parkQuiet, and sets the timer for the next.
func (r *runner) parkQuiet() {
	now := time.Now()
	var next time.Time
	for _, t := range r.w.order {
		if t.parked || !t.info.Finished {
			continue
		}
		at := t.changed.Add(parkQuiet)
		if !now.Before(at) {
			r.park(t)
		} else if next.IsZero() || at.Before(next) {
			next = at
		}
	}
	if next.IsZero() {
		r.quiet.Stop()
	} else {
		r.quiet.Reset(next.Sub(now))
	}
}

// grown reports whether a parked transcript has more to read: it grew, shrank, or another file
// is at its path. A transcript that is gone has nothing more.
func (t *tail) grown() bool {
	pi, err := os.Stat(t.info.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return false
	}
	if err != nil || t.fi == nil || !os.SameFile(pi, t.fi) {
		return true
	}
	return pi.Size() != t.off
}

// metaChanged reports whether a parked subagent's .meta.json changed since it was read.
func (t *tail) metaChanged() bool {
	mi, err := os.Stat(metaPath(t))
	if err != nil {
		return false
	}
	return t.metaFi == nil || !os.SameFile(mi, t.metaFi) || mi.Size() != t.metaFi.Size() || !mi.ModTime().Equal(t.metaFi.ModTime())
}

func (r *runner) readMeta(t *tail) {
	if !t.parked {
		r.watchFile(metaPath(t)) // before reading: a write after the read is reported
	}
	t.metaFi, _ = os.Stat(metaPath(t))
	m, err := readAgentMeta(metaPath(t))
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
	if !t.dirty && !(t.parked && t.metaOK) {
		return
	}
	t.dirty = false
	if t.parked {
		if t.metaOK {
			t.metaOK = false
			if t.metaChanged() {
				r.readMeta(t)
			}
		}
		if !t.grown() {
			return
		}
		t.parked = false
		t.changed = time.Now()
		r.makeRoom(t)
		r.readMeta(t)
	}
	w := r.w
	r.makeRoom(t)
	restart, err := t.sync()
	if t.f != nil {
		r.watchFile(t.info.Path) // before reading: a write after the read is reported
	}
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
		t.changed = time.Now()
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
