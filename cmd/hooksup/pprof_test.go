package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// With HOOKSUP_PPROF_DIR set, each SIGUSR1 writes the next heap profile, whole (gzip-compressed
// protobuf).
func TestHeapProfileOnSignal(t *testing.T) {
	// Serial: it sets the environment with t.Setenv and signals the test process itself.
	if len(profileSignals) == 0 {
		t.Skip("no profile signal on this system")
	}
	dir := t.TempDir()
	t.Setenv(envPprofDir, dir)
	stop := startHeapProfiles(os.Stderr)
	defer stop()
	for n := 1; n <= 2; n++ {
		if err := syscall.Kill(os.Getpid(), syscall.SIGUSR1); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, fmt.Sprintf("heap-%d-%d.pprof", os.Getpid(), n))
		var b []byte
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			var err error
			if b, err = os.ReadFile(path); err == nil {
				break
			}
		}
		if !bytes.HasPrefix(b, []byte{0x1f, 0x8b}) || len(b) < 100 {
			t.Fatalf("profile %d: %d bytes, want a gzip-compressed heap profile at %s", n, len(b), path)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("%d files in the profile directory, want 2: %v", len(entries), entries)
	}
}
