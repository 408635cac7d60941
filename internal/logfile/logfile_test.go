package logfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// line is the nth line a test writes, 100 bytes.
func line(writer string, n int) string {
	s := fmt.Sprintf("time=2025-01-01T00:00:00Z level=WARN msg=\"web: wrong credentials\" writer=%s n=%d ", writer, n)
	return s + strings.Repeat("x", 99-len(s)) + "\n"
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(b)
}

// Two writers (two hooksup processes) take turns on one log, 10 times its bound in all: it and
// its .1 stay within the bound, nothing else is made, and together they hold the latest lines
// written, every one, in order: a writer whose file the other rotated writes to the new file,
// and no file is rotated twice.
func TestTwoWritersKeepTheLogBoundedAndWhole(t *testing.T) {
	const max = 16 << 10
	dir := t.TempDir()
	path := filepath.Join(dir, "hooksup.log")
	a, err := Open(path, max)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(path, max)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	const lines = 10 * max / 100
	for n := range lines {
		w := a
		if n%3 == 0 {
			w = b
		}
		if _, err := w.Write([]byte(line("ab", n))); err != nil {
			t.Fatal(err)
		}
	}
	log, old := read(t, path), read(t, path+".1")
	if len(log) > max || len(old) > max || len(old) < max-100 {
		t.Fatalf("hooksup.log %d bytes, hooksup.log.1 %d, want each within %d (and .1 full)", len(log), len(old), max)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Fatalf("the directory holds %d files, want hooksup.log and hooksup.log.1", len(entries))
	}
	kept := strings.SplitAfter(strings.TrimSuffix(old+log, "\n"), "\n")
	first := lines - len(kept)
	for i, l := range kept {
		if l != line("ab", first+i) && l+"\n" != line("ab", first+i) {
			t.Fatalf("line %d of the %d kept is %q, want line %d of those written", i, len(kept), l, first+i)
		}
	}
}

// A writer whose log another process rotated writes its next line to the new log, even a line
// that would have fitted in the old one.
func TestAWriterFollowsARotationByAnother(t *testing.T) {
	const max = 1000
	path := filepath.Join(t.TempDir(), "hooksup.log")
	a, err := Open(path, max)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(path, max)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for n := range 9 {
		a.Write([]byte(line("a", n))) // 900 bytes
	}
	long := strings.Repeat("b", 149) + "\n"
	b.Write([]byte(long))            // 1050: b rotates
	a.Write([]byte("a short one\n")) // would fit in the old one
	if got := read(t, path); got != long+"a short one\n" {
		t.Fatalf("hooksup.log after b rotated it holds %q", got)
	}
}

// Several writers at once, as hooksup processes append together: the log and its .1 stay within
// the bound (but for a line each writer may add between the check and its write), and no line
// is torn.
func TestConcurrentWritersKeepTheLogBounded(t *testing.T) {
	const max, writers, each = 16 << 10, 4, 2000
	dir := t.TempDir()
	path := filepath.Join(dir, "hooksup.log")
	var wg sync.WaitGroup
	for w := range writers {
		f, err := Open(path, max)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		wg.Go(func() {
			for n := range each {
				f.Write([]byte(line(strconv.Itoa(w), n)))
			}
		})
	}
	wg.Wait()
	if old := read(t, path+".1"); len(old) < max-writers*100 {
		t.Fatalf("hooksup.log.1 holds %d bytes: rotated while not full (twice at once?)", len(old))
	}
	for _, p := range []string{path, path + ".1"} {
		b := read(t, p)
		if len(b) > max+writers*100 {
			t.Fatalf("%s: %d bytes, want within %d", filepath.Base(p), len(b), max+writers*100)
		}
		for _, l := range strings.SplitAfter(b, "\n") {
			if l != "" && (len(l) != 100 || !strings.HasSuffix(l, "\n")) {
				t.Fatalf("%s holds a torn line %q", filepath.Base(p), l)
			}
		}
	}
}

// A log past its bound already is rotated when it is opened.
func TestOpenRotatesAFullLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hooksup.log")
	old := strings.Repeat(line("old", 0), 200)
	os.WriteFile(path, []byte(old), 0o600)
	f, err := Open(path, 10<<10)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.Write([]byte(line("new", 1)))
	if got := read(t, path+".1"); got != old {
		t.Fatalf("hooksup.log.1 holds %d bytes, want the old log's %d", len(got), len(old))
	}
	if got := read(t, path); got != line("new", 1) {
		t.Fatalf("hooksup.log holds %q", got)
	}
}
