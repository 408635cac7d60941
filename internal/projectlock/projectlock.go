// Package projectlock lets one run of a project's checks go at a time, across every hooksup
// process of the user: sessions, the hook `hooksup install` registers, `hooksup check`. Two
// runs at once see each other's half-built tree (one's build deletes what the other's tests
// read) and fail for nothing.
//
// The lock is the kernel's: flock on a file in the private runtime directory, named by a hash
// of the project's path (made absolute, with its symlinks resolved). The kernel drops it when
// its holder exits, however it ends, so a dead holder's lock is taken at once. The file is
// opened close-on-exec, so no check, nor anything a check leaves running, ever holds it. The
// holder writes who it is into the file (its session, agent, pid, the check it runs, since
// when), for whoever waits to say for whom; a holder that lets go removes it, so what a new
// holder finds there is a holder that died with the lock.
package projectlock

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/hooksup/hooksup/internal/termsafe"
)

// Holder is who holds a project's lock, as the file tells it.
type Holder struct {
	SessionID string    `json:"session_id,omitempty"` // the agent's session; none for `hooksup check`
	Agent     string    `json:"agent"`                // the agent's name (claude, codex, …), or "hooksup check"
	PID       int       `json:"pid"`                  // the process holding it
	Check     string    `json:"check,omitempty"`      // the check it runs now
	Since     time.Time `json:"since"`                // when it took the lock
	Project   string    `json:"project"`
}

// Wait is what taking the lock came to.
type Wait struct {
	Waited time.Duration // how long it waited for another holder (0: it was free)
	For    *Holder       // whom it waited for last, when it waited and was told
	// TookOver is a holder that died holding the lock, whose place this one took.
	TookOver *Holder
}

// Lock is a project's lock, held.
type Lock struct {
	mu   sync.Mutex
	f    *os.File
	me   Holder
	path string
}

// pollEvery is how often a waiter tries the lock again and reads who holds it.
const pollEvery = 50 * time.Millisecond

// Project is dir as the lock names it: absolute, cleaned, its symlinks resolved (as it is when
// it cannot be resolved).
func Project(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return filepath.Clean(dir)
}

// Path is the lock file of project in runtimeDir.
func Path(runtimeDir, project string) string {
	sum := sha256.Sum256([]byte(Project(project)))
	return filepath.Join(runtimeDir, "project-"+hex.EncodeToString(sum[:8])+".lock")
}

// Acquire takes the lock of me.Project, waiting while another holds it, until ctx ends (its
// error, nothing held). waiting, when not nil, hears whom it waits for, as soon as the holder
// has said, and again whenever that changes (another holder, another check).
func Acquire(ctx context.Context, runtimeDir string, me Holder, waiting func(Holder)) (*Lock, Wait, error) {
	var w Wait
	me.Project = Project(me.Project)
	path := Path(runtimeDir, me.Project)
	var f *os.File
	defer func() {
		if f != nil {
			f.Close()
		}
	}()
	var start time.Time
	var tick *time.Ticker
	for {
		if f == nil {
			// os.OpenFile opens with O_CLOEXEC: a check never inherits the descriptor.
			var err error
			if f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600); err != nil {
				return nil, w, fmt.Errorf("project lock: %w", err)
			}
		}
		took, err := tryLock(f)
		if err != nil {
			return nil, w, err
		}
		if took {
			if isPath(f, path) {
				break
			}
			// Its holder removed it as it let go: the lock is the file at path now.
			f.Close()
			f = nil
			continue
		}
		if tick == nil {
			start, tick = time.Now(), time.NewTicker(pollEvery)
			defer tick.Stop()
		}
		if h, ok := readHolder(f); ok && (w.For == nil || *w.For != h) {
			w.For = &h
			if waiting != nil {
				waiting(h)
			}
		}
		select {
		case <-ctx.Done():
			w.Waited = time.Since(start)
			return nil, w, ctx.Err()
		case <-tick.C:
		}
	}
	if tick != nil {
		w.Waited = time.Since(start)
	}
	if h, ok := readHolder(f); ok {
		w.TookOver = &h
	}
	me.Since = time.Now()
	l := &Lock{f: f, me: me, path: path}
	f = nil
	l.mu.Lock()
	defer l.mu.Unlock()
	l.write()
	return l, w, nil
}

// isPath reports whether f is the file at path still.
func isPath(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Stat(path)
	return err == nil && os.SameFile(a, b)
}

// tryLock takes f's lock if it is free.
func tryLock(f *os.File) (bool, error) {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EWOULDBLOCK):
			return false, nil
		}
		return false, fmt.Errorf("project lock %s: %w", f.Name(), err)
	}
}

// readHolder reads who holds the lock from its file; false when it says nobody (a holder let
// go, or one that has not said yet).
func readHolder(f *os.File) (Holder, bool) {
	var h Holder
	b, err := io.ReadAll(io.NewSectionReader(f, 0, 1<<16))
	if err != nil || len(b) == 0 || json.Unmarshal(b, &h) != nil || h.PID == 0 {
		return Holder{}, false
	}
	return h, true
}

// write says who holds the lock; l.mu is held.
func (l *Lock) write() {
	b, _ := json.Marshal(l.me)
	// A waiter reading between the two sees nobody for a moment, and reads again.
	_ = l.f.Truncate(0)
	_, _ = l.f.WriteAt(b, 0)
}

// Name is the holder as a person reads it: "session 1a2b3c4d (claude, pid 4242)", or
// "hooksup check (pid 4242)" for a holder with no session; safe to print on a terminal.
func (h Holder) Name() string {
	if h.SessionID == "" {
		return fmt.Sprintf("%s (pid %d)", termsafe.String(h.Agent), h.PID)
	}
	id := h.SessionID
	if len(id) > 8 {
		id = id[:8]
	}
	return fmt.Sprintf("session %s (%s, pid %d)", termsafe.String(id), termsafe.String(h.Agent), h.PID)
}

// Running says which check the holder runs now, for those who wait. A nil Lock (none taken)
// does nothing.
func (l *Lock) Running(check string) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil || l.me.Check == check {
		return
	}
	l.me.Check = check
	l.write()
}

// Release lets the lock go, removing its file first, so that a clean release leaves nothing in
// the runtime directory and the file a new holder finds filled is a dead holder's. (A waiter
// that takes the lock of the removed file sees that it is no longer the file at its path, and
// tries the one there.) It may be called more than once, and on a nil Lock.
func (l *Lock) Release() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return
	}
	_ = os.Remove(l.path)
	_ = syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	l.f.Close()
	l.f = nil
}
