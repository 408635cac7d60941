package project

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A named pipe in a CI workflow's place is passed over, never waited on.
func TestDetectPassesOverANamedPipe(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module x\n\ngo 1.22\n"), 0o600)
	os.MkdirAll(filepath.Join(dir, ".github", "workflows"), 0o700)
	if err := syscall.Mkfifo(filepath.Join(dir, ".github", "workflows", "ci.yml"), 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	done := make(chan Detection, 1)
	go func() { done <- Detect(os.DirFS(dir)) }()
	select {
	case det := <-done:
		if len(det.Checks()) == 0 {
			t.Errorf("the Go module's checks were lost: %+v", det)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Detect still reading .github/workflows/ci.yml, a named pipe, after 10s")
	}
}
