package web

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// UnsafeFileError is a credential's file that others could read or change: readable or
// writable by group or others, owned by another user, or a symlink (which could point
// anywhere). hooksup web refuses it, as ssh refuses a loose private key, and leaves it as it is.
type UnsafeFileError struct {
	Path    string
	Problem string // "is readable or writable by others (mode 0644)"
	Fix     string // "chmod 600 PATH"
}

func (e *UnsafeFileError) Error() string {
	return fmt.Sprintf("%s %s: hooksup web will not use it; %s", e.Path, e.Problem, e.Fix)
}

// checkPrivate refuses path unless it is a regular file of this user's that no one else may
// read or write; a file that does not exist is fine (it is made 0600).
func checkPrivate(path string) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("check %s: %w", path, err)
	}
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		return &UnsafeFileError{Path: path, Problem: "is a symlink",
			Fix: "remove it (rm " + path + ") and let hooksup make its own"}
	case !fi.Mode().IsRegular():
		return &UnsafeFileError{Path: path, Problem: "is not a regular file", Fix: "remove it and let hooksup make its own"}
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return &UnsafeFileError{Path: path, Problem: fmt.Sprintf("belongs to another user (uid %d)", st.Uid),
			Fix: "remove it and let hooksup make its own"}
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return &UnsafeFileError{Path: path, Problem: fmt.Sprintf("is readable or writable by others (mode %04o)", perm),
			Fix: "chmod 600 " + path}
	}
	return nil
}

// readPrivate reads path after checkPrivate, nil when it does not exist. The file is opened
// without following a symlink, so one put there after the check is refused too.
func readPrivate(path string) ([]byte, error) {
	if err := checkPrivate(path); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return b, nil
}
