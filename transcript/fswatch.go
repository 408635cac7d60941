package transcript

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/fsnotify/fsnotify"
)

// fsWatcher is what the watcher needs of the system's file notifications. Directories are
// watched for their entries (created, removed, renamed: events named by the entry) and for their
// own removal; files are watched for writes. Whether a directory's watch also reports writes to
// the files in it is the system's affair: inotify does (one watch, no descriptor per file), so on
// Linux AddFile adds nothing; kqueue does not, and every watched file costs a descriptor, so on
// macOS the watcher watches only the files still being written (see runner.go).
type fsWatcher interface {
	AddDir(dir string) error
	AddFile(path string) error
	// Remove stops watching path (a directory or a file); a path not watched is no error.
	Remove(path string) error
	Events() <-chan fsnotify.Event
	Errors() <-chan error
	// WatchList is every path watched, each costing a descriptor on kqueue.
	WatchList() []string
	Close() error
}

// newFSWatcher makes the system's fsWatcher; tests replace it.
var newFSWatcher = newSystemFSWatcher

// dirEntries is what a directory held when last listed, for a watcher that learns only that a
// directory changed (kqueue's NOTE_WRITE on it) and must tell which entries came and went.
type dirEntries map[string]bool

// listDir lists dir's entry names; a missing directory has none.
func listDir(dir string) (dirEntries, error) {
	ents, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	m := make(dirEntries, len(ents))
	for _, e := range ents {
		m[e.Name()] = true
	}
	return m, nil
}

// diff is the events that turn d into now: a Create for each new entry, a Remove for each one
// gone, named by the entry's path in dir.
func (d dirEntries) diff(dir string, now dirEntries) []fsnotify.Event {
	var evs []fsnotify.Event
	for name := range now {
		if !d[name] {
			evs = append(evs, fsnotify.Event{Name: filepath.Join(dir, name), Op: fsnotify.Create})
		}
	}
	for name := range d {
		if !now[name] {
			evs = append(evs, fsnotify.Event{Name: filepath.Join(dir, name), Op: fsnotify.Remove})
		}
	}
	return evs
}
