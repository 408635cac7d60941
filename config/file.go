package config

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// MaxFileSize is the most a configuration file may hold, 1 MiB: a hundred times the largest
// .hooksup.toml anyone writes, and little enough to read at every stop.
const MaxFileSize = 1 << 20 // FileError.Problem says it

// FileError is a configuration file that is not one hooksup reads: not a regular file (a named
// pipe, which would make the reader wait for a writer for ever, a device, a directory, a
// socket), or one larger than MaxFileSize.
type FileError struct {
	Path string
	Mode fs.FileMode // the file's type; regular when it is too large
	Size int64       // what was read of a regular file: more than MaxFileSize
}

func (e *FileError) Error() string { return e.Path + ": " + e.Problem() }

// Problem says what is wrong with the file, and the fix.
func (e *FileError) Problem() string {
	if e.Mode.IsRegular() {
		return "the file is larger than 1 MiB, the most a configuration file may hold: is it the file you meant? (replace it with the configuration, or remove it)"
	}
	return fmt.Sprintf("the file is %s, not a regular file, so hooksup does not read it: replace it with a regular file, or remove it", kindText(e.Mode))
}

// ReadFile reads a configuration file, refusing at once (a *FileError) one that is not a regular
// file or holds more than MaxFileSize. It never waits: the file's type is looked at before it is
// opened, it is opened without blocking (a named pipe put in its place meanwhile), and looked at
// again once open.
func ReadFile(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &FileError{Path: path, Mode: fi.Mode().Type()}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &FileError{Path: path, Mode: fi.Mode().Type()}
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxFileSize {
		return nil, &FileError{Path: path, Size: int64(len(b))}
	}
	return b, nil
}

// kindText names a file's type as a person would.
func kindText(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	}
	return "of type " + m.String()
}
