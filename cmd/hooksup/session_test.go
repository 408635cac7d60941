package main

import (
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hooksup/hooksup/supervisor"
)

// A killed session's socket and what its agent's injection wrote are swept by the next session,
// whichever agents the two run; a live one's are kept.
func TestSweepRuntimeDir(t *testing.T) {
	t.Parallel()
	dir, err := os.MkdirTemp("", "hs") // short: the socket paths must fit
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	dead := filepath.Join(dir, "dead.sock")
	ln, _ := net.ListenUnix("unix", &net.UnixAddr{Name: dead, Net: "unix"})
	ln.SetUnlinkOnClose(false)
	ln.Close()
	os.WriteFile(filepath.Join(dir, "dead.settings.json"), []byte("{}"), 0o600)
	live, err := supervisor.Listen(filepath.Join(dir, "live.sock"), "t", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	os.WriteFile(filepath.Join(dir, "live.settings.json"), []byte("{}"), 0o600)
	old := time.Now().Add(-time.Minute)
	os.Chtimes(dead, old, old)
	os.Chtimes(live.Path, old, old)
	// gemini's session home: links to the person's files, which the sweep must not follow.
	theirs := t.TempDir()
	os.WriteFile(filepath.Join(theirs, "settings.json"), []byte("{}"), 0o600)
	for _, id := range []string{"dead", "live"} {
		os.MkdirAll(filepath.Join(dir, id+".gemini", ".gemini"), 0o700)
		os.Symlink(theirs, filepath.Join(dir, id+".gemini", "home-link"))
		os.Symlink(filepath.Join(theirs, "settings.json"), filepath.Join(dir, id+".gemini", ".gemini", "settings.json"))
	}
	// Every agent's: each named after the session's id.
	for _, id := range []string{"dead", "live"} {
		os.WriteFile(filepath.Join(dir, id+".qwen-system-defaults.json"), []byte("{}"), 0o600)
		os.MkdirAll(filepath.Join(dir, id+".copilot-plugin", "hooks"), 0o700)
	}
	sweepRuntimeDir(dir)
	for name, want := range map[string]bool{"dead.sock": false, "dead.settings.json": false, "dead.gemini": false,
		"dead.qwen-system-defaults.json": false, "dead.copilot-plugin": false,
		"live.sock": true, "live.settings.json": true, "live.gemini": true, "live.qwen-system-defaults.json": true, "live.copilot-plugin": true} {
		_, err := os.Lstat(filepath.Join(dir, name))
		if (err == nil) != want {
			t.Errorf("%s exists=%v, want %v", name, err == nil, want)
		}
	}
	if _, err := os.Stat(filepath.Join(theirs, "settings.json")); err != nil {
		t.Errorf("the sweep reached through a link: %v", err)
	}
}
