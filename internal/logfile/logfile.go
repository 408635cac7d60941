// Package logfile is hooksup.log as a hooksup command writes it: appended to by every hooksup
// process at once, and rotated when it passes a bound, keeping one older file beside it
// (hooksup.log.1), so that nothing written to it grows it without end.
package logfile

import (
	"fmt"
	"os"
	"sync"
	"syscall"
)

// MaxSize is the size past which hooksup.log is rotated: it and hooksup.log.1 hold at most
// about twice that (a hook that fails writes its line without rotating).
const MaxSize = 4 << 20

// File is a log file that rotates itself. Another process may append to the same file, and
// rotate it: before each write a File checks that its path is still the file it has open (else
// it opens the new one) and that the write keeps it within its bound (else it renames it to
// path.1 under a lock on it, unless another process did so first, and opens a new one).
type File struct {
	path string
	max  int64
	mu   sync.Mutex
	f    *os.File
}

// Open opens path to append to, rotating it first if it is past max already.
func Open(path string, max int64) (*File, error) {
	l := &File{path: path, max: max}
	if err := l.reopen(); err != nil {
		return nil, err
	}
	l.rotateIfFull(0) //nolint:errcheck // a log that cannot rotate is still written to
	return l, nil
}

func (l *File) reopen() error {
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("open the log: %w", err)
	}
	if l.f != nil {
		l.f.Close()
	}
	l.f = f
	return nil
}

// Write appends p, in one write: a line is never split across the two files.
func (l *File) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.rotateIfFull(int64(len(p))) //nolint:errcheck // a log that cannot rotate is still written to
	return l.f.Write(p)
}

// rotateIfFull makes room for n more bytes.
func (l *File) rotateIfFull(n int64) error {
	open, err := l.f.Stat()
	if err != nil {
		return fmt.Errorf("the log: %w", err)
	}
	if now, err := os.Stat(l.path); err != nil || !os.SameFile(open, now) {
		// Another process rotated it (or it was removed): the file at path is the log now.
		if err := l.reopen(); err != nil {
			return err
		}
		if open, err = l.f.Stat(); err != nil {
			return fmt.Errorf("the log: %w", err)
		}
	}
	if open.Size()+n <= l.max || open.Size() == 0 {
		return nil
	}
	// Processes that find it full at once take turns: the first renames it, the others then
	// find another file at path, and only open it.
	if err := syscall.Flock(int(l.f.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("lock the log: %w", err)
	}
	if now, err := os.Stat(l.path); err == nil && os.SameFile(open, now) {
		err = os.Rename(l.path, l.path+".1")
		if err != nil {
			syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN) //nolint:errcheck // closing unlocks too
			return fmt.Errorf("rotate the log: %w", err)
		}
	}
	syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN) //nolint:errcheck // closing unlocks too
	return l.reopen()
}

// Close closes the file.
func (l *File) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.f.Close()
}
