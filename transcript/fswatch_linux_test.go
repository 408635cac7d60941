package transcript

import (
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/fsnotify/fsnotify"
)

// kqueueLike is an fsWatcher with kqueue's semantics, made of inotify, so that the watcher's
// macOS behaviour runs here: a directory's watch reports its entries and its own end, not
// writes to the files in it; a file's writes are reported only while the file is watched on its
// own (a descriptor each on kqueue: WatchList counts them), and its removal or rename ends its
// watch.
type kqueueLike struct {
	in     *fsnotify.Watcher
	events chan fsnotify.Event
	done   chan struct{}
	wg     sync.WaitGroup

	mu    sync.Mutex
	dirs  map[string]bool
	files map[string]bool
}

func newKqueueLike() (fsWatcher, error) {
	in, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	k := &kqueueLike{in: in, events: make(chan fsnotify.Event), done: make(chan struct{}),
		dirs: map[string]bool{}, files: map[string]bool{}}
	k.wg.Add(1)
	go func() {
		defer k.wg.Done()
		defer close(k.events)
		for ev := range in.Events {
			if !k.pass(ev) {
				continue
			}
			select {
			case k.events <- ev:
			case <-k.done:
				return
			}
		}
	}()
	return k, nil
}

// pass says whether kqueue would have reported ev.
func (k *kqueueLike) pass(ev fsnotify.Event) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	name := filepath.Clean(ev.Name)
	if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
		delete(k.files, name)
		if k.dirs[name] {
			delete(k.dirs, name)
		}
	}
	if ev.Has(fsnotify.Create) || ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
		return true // an entry of a watched directory, or a watched directory's end
	}
	return k.files[name]
}

func (k *kqueueLike) AddDir(dir string) error {
	if err := k.in.Add(dir); err != nil {
		return err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	k.dirs[filepath.Clean(dir)] = true
	return nil
}

func (k *kqueueLike) AddFile(path string) error {
	if _, err := os.Stat(path); err != nil { // kqueue opens the file
		return err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	k.files[filepath.Clean(path)] = true
	return nil
}

func (k *kqueueLike) Remove(path string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	path = filepath.Clean(path)
	if k.dirs[path] {
		delete(k.dirs, path)
		_ = k.in.Remove(path)
	}
	delete(k.files, path)
	return nil
}

func (k *kqueueLike) Events() <-chan fsnotify.Event { return k.events }
func (k *kqueueLike) Errors() <-chan error          { return k.in.Errors }

func (k *kqueueLike) WatchList() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	l := make([]string, 0, len(k.dirs)+len(k.files))
	for d := range k.dirs {
		l = append(l, d)
	}
	for f := range k.files {
		l = append(l, f)
	}
	slices.Sort(l)
	return l
}

func (k *kqueueLike) Close() error {
	close(k.done)
	err := k.in.Close()
	k.wg.Wait()
	return err
}

// withKqueueLike makes the watchers the test starts watch with kqueue's semantics.
func withKqueueLike(t *testing.T) {
	prev := newFSWatcher
	newFSWatcher = newKqueueLike
	t.Cleanup(func() { newFSWatcher = prev })
}

// The watcher's tests, again with kqueue's semantics: appends, new files, partial lines,
// truncation, replacement, subagents and switching all work as with inotify.
func TestWatcherKqueueLike(t *testing.T) {
	for name, test := range map[string]func(*testing.T){
		"FileAppearsLater":      TestWatcherFileAppearsLater,
		"PartialLines":          TestWatcherPartialLines,
		"Truncation":            TestWatcherTruncation,
		"Replacement":           TestWatcherReplacement,
		"Subagents":             TestWatcherSubagents,
		"SubagentsBeforeStart":  TestWatcherSubagentsBeforeStart,
		"Switch":                TestWatcherSwitch,
		"IdleDoesNoWork":        TestWatcherIdleDoesNoWork,
		"StopsCleanly":          TestWatcherStopsCleanly,
		"ManySubagentsBounded":  TestWatcherManySubagentsBounded,
		"ParkedSubagentWritten": TestWatcherParkedSubagentWritten,
	} {
		t.Run(name, func(t *testing.T) {
			withKqueueLike(t)
			test(t)
		})
	}
}
