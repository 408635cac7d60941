package web

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// Each server has its own file: Servers lists those running, oldest first; a file whose
// process is gone (killed) is listed as gone and removed; a server's remove takes its own
// file only.
func TestServersTellRunningFromGone(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	removeFirst, err := Announce(dir, Running{URL: "http://127.0.0.1:7862/", Addr: "127.0.0.1:7862", PID: os.Getpid(), Started: now})
	if err != nil {
		t.Fatal(err)
	}
	parent := os.Getppid() // another running process
	if _, err := Announce(dir, Running{URL: "http://127.0.0.1:9000/", Addr: "127.0.0.1:9000", PID: parent, Started: now.Add(-time.Minute)}); err != nil {
		t.Fatal(err)
	}
	const dead = 1 << 30 // above any pid_max
	if _, err := Announce(dir, Running{URL: "http://127.0.0.1:9001/", Addr: "127.0.0.1:9001", PID: dead, Started: now}); err != nil {
		t.Fatal(err)
	}
	running, gone, err := Servers(dir)
	if err != nil || len(running) != 2 || running[0].PID != parent || running[1].PID != os.Getpid() || len(gone) != 1 || gone[0].PID != dead {
		t.Fatalf("Servers: %+v, gone %+v, %v", running, gone, err)
	}
	if _, err := os.Stat(filepath.Join(dir, ServersDir, "1073741824")); !os.IsNotExist(err) {
		t.Fatalf("the gone server's file is left: %v", err)
	}
	removeFirst()
	if running, gone, err := Servers(dir); err != nil || len(running) != 1 || running[0].PID != parent || len(gone) != 0 {
		t.Fatalf("Servers once one removed its file: %+v, gone %+v, %v", running, gone, err)
	}
	os.Chmod(filepath.Join(dir, ServersDir, strconv.Itoa(parent)), 0o644)
	if _, _, err := Servers(dir); err == nil {
		t.Fatal("a server's file others may read is used")
	}
}
