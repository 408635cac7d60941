package transcript

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"sync"

	"github.com/fsnotify/fsnotify"
	"golang.org/x/sys/unix"
)

// kqueueFSWatcher watches directories with kqueue itself — one descriptor per directory, told
// only that the directory changed (NOTE_WRITE), then listed to tell which entries came and
// went — and files with fsnotify. fsnotify alone would not do: its kqueue backend opens every
// file in a watched directory (to report writes to them, as inotify does), so a project holding
// hundreds of sessions, or a session with hundreds of subagents, would cost as many
// descriptors.
type kqueueFSWatcher struct {
	files  *fsnotify.Watcher
	kq     int
	pipe   [2]int // closing pipe[1] ends the reader
	events chan fsnotify.Event
	errors chan error
	done   chan struct{}
	wg     sync.WaitGroup

	mu     sync.Mutex
	dirs   map[string]*kqueueDir
	byFD   map[int]*kqueueDir
	closed bool
}

type kqueueDir struct {
	path    string
	fd      int
	entries dirEntries
}

// dirNotes are the changes of a directory that matter: its entries (NOTE_WRITE), its end.
const dirNotes = unix.NOTE_WRITE | unix.NOTE_DELETE | unix.NOTE_RENAME | unix.NOTE_REVOKE

func newSystemFSWatcher() (fsWatcher, error) {
	files, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	w := &kqueueFSWatcher{files: files, events: make(chan fsnotify.Event), errors: make(chan error),
		done: make(chan struct{}), dirs: map[string]*kqueueDir{}, byFD: map[int]*kqueueDir{}}
	if err := w.open(); err != nil {
		files.Close()
		return nil, err
	}
	w.wg.Add(3)
	go w.readDirs()
	go func() {
		defer w.wg.Done()
		for ev := range files.Events {
			w.send(ev)
		}
	}()
	go func() {
		defer w.wg.Done()
		for err := range files.Errors {
			w.sendErr(err)
		}
	}()
	return w, nil
}

// open makes the kqueue and the pipe whose closing wakes its reader to end.
func (w *kqueueFSWatcher) open() error {
	kq, err := unix.Kqueue()
	if err != nil {
		return fmt.Errorf("kqueue: %w", err)
	}
	unix.CloseOnExec(kq)
	if err := unix.Pipe(w.pipe[:]); err != nil {
		unix.Close(kq)
		return fmt.Errorf("pipe: %w", err)
	}
	unix.CloseOnExec(w.pipe[0])
	unix.CloseOnExec(w.pipe[1])
	ch := make([]unix.Kevent_t, 1)
	unix.SetKevent(&ch[0], w.pipe[0], unix.EVFILT_READ, unix.EV_ADD|unix.EV_ENABLE|unix.EV_ONESHOT)
	if _, err := unix.Kevent(kq, ch, nil, nil); err != nil {
		unix.Close(kq)
		unix.Close(w.pipe[0])
		unix.Close(w.pipe[1])
		return fmt.Errorf("kevent: %w", err)
	}
	w.kq = kq
	return nil
}

func (w *kqueueFSWatcher) AddDir(dir string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return fsnotify.ErrClosed
	}
	if w.dirs[dir] != nil {
		return nil
	}
	fd, err := unix.Open(dir, unix.O_EVTONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return &os.PathError{Op: "open", Path: dir, Err: err}
	}
	entries, err := listDir(dir)
	if err == nil {
		ch := make([]unix.Kevent_t, 1)
		unix.SetKevent(&ch[0], fd, unix.EVFILT_VNODE, unix.EV_ADD|unix.EV_ENABLE|unix.EV_CLEAR)
		ch[0].Fflags = dirNotes
		_, err = unix.Kevent(w.kq, ch, nil, nil)
	}
	if err != nil {
		unix.Close(fd)
		return &os.PathError{Op: "watch", Path: dir, Err: err}
	}
	d := &kqueueDir{path: dir, fd: fd, entries: entries}
	w.dirs[dir], w.byFD[fd] = d, d
	return nil
}

func (w *kqueueFSWatcher) AddFile(path string) error { return w.files.Add(path) }

func (w *kqueueFSWatcher) Remove(path string) error {
	w.mu.Lock()
	if d := w.dirs[path]; d != nil {
		w.dropLocked(d)
		w.mu.Unlock()
		return nil
	}
	w.mu.Unlock()
	if err := w.files.Remove(path); err != nil && !errors.Is(err, fsnotify.ErrNonExistentWatch) {
		return err
	}
	return nil
}

// dropLocked stops watching d: closing its descriptor removes its kevent.
func (w *kqueueFSWatcher) dropLocked(d *kqueueDir) {
	delete(w.dirs, d.path)
	delete(w.byFD, d.fd)
	unix.Close(d.fd)
}

func (w *kqueueFSWatcher) Events() <-chan fsnotify.Event { return w.events }
func (w *kqueueFSWatcher) Errors() <-chan error          { return w.errors }

func (w *kqueueFSWatcher) WatchList() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append(slices.Collect(maps.Keys(w.dirs)), w.files.WatchList()...)
}

func (w *kqueueFSWatcher) Close() error {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return nil
	}
	w.closed = true
	close(w.done)
	unix.Close(w.pipe[1])
	w.mu.Unlock()
	err := w.files.Close()
	w.wg.Wait()
	w.mu.Lock()
	for _, d := range w.dirs {
		w.dropLocked(d)
	}
	w.mu.Unlock()
	unix.Close(w.kq)
	unix.Close(w.pipe[0])
	close(w.events)
	close(w.errors)
	return err
}

func (w *kqueueFSWatcher) send(ev fsnotify.Event) bool {
	select {
	case w.events <- ev:
		return true
	case <-w.done:
		return false
	}
}

func (w *kqueueFSWatcher) sendErr(err error) bool {
	select {
	case w.errors <- err:
		return true
	case <-w.done:
		return false
	}
}

// readDirs turns the directories' kevents into events for their entries, until Close.
func (w *kqueueFSWatcher) readDirs() {
	defer w.wg.Done()
	buf := make([]unix.Kevent_t, 16)
	for {
		n, err := unix.Kevent(w.kq, nil, buf, nil)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			if !w.sendErr(fmt.Errorf("kevent: %w", err)) {
				return
			}
			continue
		}
		for _, kev := range buf[:n] {
			if int(kev.Ident) == w.pipe[0] {
				return
			}
			for _, ev := range w.dirChanged(int(kev.Ident), kev.Fflags) {
				if !w.send(ev) {
					return
				}
			}
		}
	}
}

// dirChanged is what a kevent on a directory's descriptor means: the directory gone, or entries
// that came and went since it was last listed.
func (w *kqueueFSWatcher) dirChanged(fd int, notes uint32) []fsnotify.Event {
	w.mu.Lock()
	defer w.mu.Unlock()
	d := w.byFD[fd]
	if d == nil {
		return nil
	}
	if notes&(unix.NOTE_DELETE|unix.NOTE_RENAME|unix.NOTE_REVOKE) != 0 {
		w.dropLocked(d)
		return []fsnotify.Event{{Name: d.path, Op: fsnotify.Remove}}
	}
	now, err := listDir(d.path)
	if err != nil {
		return nil // gone or unreadable: its NOTE_DELETE follows, or nothing can be done
	}
	evs := d.entries.diff(d.path, now)
	d.entries = now
	return evs
}
