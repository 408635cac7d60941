//go:build !linux && !darwin

package transcript

import "github.com/fsnotify/fsnotify"

// newSystemFSWatcher is fsnotify as it is, files watched one by one.
func newSystemFSWatcher() (fsWatcher, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	return &fsnotifyWatcher{Watcher: w}, nil
}
