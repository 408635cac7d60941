//go:build !darwin

package transcript

import (
	"errors"

	"github.com/fsnotify/fsnotify"
)

// fsnotifyWatcher is fsnotify watching directories and files alike: what it does per system
// is the system's (inotify: a directory's watch reports writes to its files too).
type fsnotifyWatcher struct {
	*fsnotify.Watcher
	// filesInDirs: a directory's watch reports writes to its files, so AddFile adds nothing.
	filesInDirs bool
}

func (w *fsnotifyWatcher) AddDir(dir string) error { return w.Add(dir) }

func (w *fsnotifyWatcher) AddFile(path string) error {
	if w.filesInDirs {
		return nil
	}
	return w.Add(path)
}

func (w *fsnotifyWatcher) Remove(path string) error {
	if err := w.Watcher.Remove(path); err != nil && !errors.Is(err, fsnotify.ErrNonExistentWatch) {
		return err
	}
	return nil
}

func (w *fsnotifyWatcher) Events() <-chan fsnotify.Event { return w.Watcher.Events }
func (w *fsnotifyWatcher) Errors() <-chan error          { return w.Watcher.Errors }
