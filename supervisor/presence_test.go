package supervisor

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hooksup/hooksup/agent/claude"
	"github.com/hooksup/hooksup/config"
)

// A key at the terminal is the activity's last key, what the hub's snapshot tells a front end
// away from the terminal; before any, there is none.
func TestTypedIsTheActivitysLastKey(t *testing.T) {
	dir, err := os.MkdirTemp("", "sv") // short: a socket's path must fit 108 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	s, err := New(Options{Config: config.Defaults(), Agent: claude.Agent{}, Bin: "true", HooksupBin: "/bin/false", ProjectDir: dir,
		StateDir: filepath.Join(dir, "state"), RuntimeDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.server.Close() })
	if k := s.Activity().LastKey; !k.IsZero() {
		t.Fatalf("a last key before any: %v", k)
	}
	at := time.Now()
	s.Typed(at)
	if k := s.Activity().LastKey; !k.Equal(at) {
		t.Fatalf("last key %v, want %v", k, at)
	}
}
