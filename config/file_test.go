package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A configuration file that is not a regular file, or is too large, is refused at once by every
// reader, naming the file, what it is and the fix: a named pipe is never opened to wait on.
func TestLoadRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.toml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	sub := filepath.Join(dir, "dir.toml")
	os.Mkdir(sub, 0o700)
	big := filepath.Join(dir, "big.toml")
	os.WriteFile(big, []byte("# "+strings.Repeat("x", MaxFileSize)+"\n"), 0o600)
	exact := filepath.Join(dir, "exact.toml")
	os.WriteFile(exact, []byte("#"+strings.Repeat("x", MaxFileSize-2)+"\n"), 0o600)

	for _, c := range []struct{ path, want string }{
		{fifo, fifo + ": the file is a named pipe (FIFO), not a regular file, so hooksup does not read it: replace it with a regular file, or remove it"},
		{sub, sub + ": the file is a directory, not a regular file"},
		{"/dev/null", "/dev/null: the file is a character device, not a regular file"},
		{big, big + ": the file is larger than 1 MiB, the most a configuration file may hold"},
	} {
		done := make(chan error, 1)
		go func() {
			_, _, err := Load(LoadOptions{ExplicitFile: c.path})
			done <- err
		}()
		select {
		case err := <-done:
			var fe *FileError
			if err == nil || !strings.HasPrefix(err.Error(), c.want) || !errors.As(err, &fe) {
				t.Errorf("Load(%s) = %v\nwant it to start with %q, a *FileError", c.path, err, c.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("Load(%s) still reading after 10s", c.path)
		}
		if _, err := ReadFile(c.path); err == nil {
			t.Errorf("ReadFile(%s) read it", c.path)
		}
		if err := DecodeFile(c.path, new(Config)); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("DecodeFile(%s) = %v", c.path, err)
		}
		if err := (TrustStore{Path: filepath.Join(dir, "trusted")}).Trust(c.path); err == nil {
			t.Errorf("Trust(%s) trusted it", c.path)
		}
	}
	if b, err := ReadFile(exact); err != nil || len(b) != MaxFileSize {
		t.Errorf("a file of exactly MaxFileSize: %d bytes, %v", len(b), err)
	}
}

// A project whose .hooksup.toml is a named pipe is found, and its file refused by name.
func TestLoadRefusesAProjectFileThatIsAPipe(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, ".hooksup.toml"), 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o700)
	found, ok := FindProject(sub)
	if !ok || found != dir {
		t.Fatalf("FindProject = %q %v, want %q", found, ok, dir)
	}
	done := make(chan error, 1)
	go func() {
		_, _, err := Load(LoadOptions{ProjectDir: found, Trusted: func(string, []byte) bool { return true }})
		done <- err
	}()
	var err error
	select {
	case err = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Load still reading the named pipe after 10s")
	}
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, ".hooksup.toml")+": the file is a named pipe (FIFO)") {
		t.Errorf("Load = %v", err)
	}
}
