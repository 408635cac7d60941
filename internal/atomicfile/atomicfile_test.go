package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The file has the new content and mode, and nothing else is left beside it; a failure names
// the path and leaves the old content.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "trust.json")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	fi, _ := os.Stat(path)
	if string(b) != "new" || fi.Mode().Perm() != 0o600 {
		t.Fatalf("content %q mode %o", b, fi.Mode().Perm())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("left beside it: %v", entries)
	}
	err := Write(filepath.Join(dir, "missing", "x.json"), []byte("y"), 0o600)
	if err == nil || !strings.Contains(err.Error(), "write "+filepath.Join(dir, "missing", "x.json")) {
		t.Fatalf("err = %v", err)
	}
	if err := os.Chmod(dir, 0o500); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o700)
	if os.Getuid() != 0 { // root writes anywhere
		if err := Write(path, []byte("newer"), 0o600); err == nil {
			t.Fatal("wrote into a read-only directory")
		}
		if b, _ := os.ReadFile(path); string(b) != "new" {
			t.Fatalf("content %q after a failed write", b)
		}
	}
}
