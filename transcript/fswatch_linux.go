package transcript

import "github.com/fsnotify/fsnotify"

// newSystemFSWatcher is inotify: a directory's watch reports writes to the files in it, without
// a descriptor per file.
func newSystemFSWatcher() (fsWatcher, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	return &fsnotifyWatcher{Watcher: w, filesInDirs: true}, nil
}
