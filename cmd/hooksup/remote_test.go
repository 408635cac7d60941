package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/hub"
)

// A host the watch cannot reach is one card saying why and when it is tried again; it is not
// dialled again before then, and each failure doubles the wait.
func TestWatchHostBacksOff(t *testing.T) {
	dir := t.TempDir()
	dials := filepath.Join(dir, "dials")
	ssh := filepath.Join(dir, "ssh")
	script := "#!/bin/sh\necho dial >>" + shellQuote(dials) + "\necho 'ssh: connect to host devbox port 22: Connection refused' >&2\nexit 255\n"
	if err := os.WriteFile(ssh, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	count := func() int {
		b, _ := os.ReadFile(dials)
		return strings.Count(string(b), "dial")
	}
	h := &watchHost{name: "devbox", t: hub.Transport{SSH: []string{ssh}, Timeout: 5 * time.Second}}
	card := func() string {
		t.Helper()
		ls := h.list()
		if len(ls) != 1 || ls[0].Host != "devbox" || ls[0].Err == nil {
			t.Fatalf("listed %+v, want the host's card", ls)
		}
		return ls[0].Err.Error()
	}
	first := card()
	if !strings.Contains(first, "disconnected: unreachable (ssh: connect to host devbox port 22: Connection refused)") ||
		!strings.Contains(first, "trying again in 1s") || count() != 1 {
		t.Fatalf("after the first dial (%d dials): %s", count(), first)
	}
	card()
	if count() != 1 {
		t.Fatalf("dialled %d times within the wait", count())
	}
	for deadline := time.Now().Add(10 * time.Second); count() < 2; {
		if time.Now().After(deadline) {
			t.Fatal("never dialled again")
		}
		time.Sleep(100 * time.Millisecond)
		second := card()
		if count() == 2 && !strings.Contains(second, "trying again in 2s") {
			t.Fatalf("after the second failure: %s", second)
		}
	}
}
