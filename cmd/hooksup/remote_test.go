package main

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/hub"
)

// A host the watch cannot reach is one card saying why and when it is tried again; it is not
// dialled again before then, and each failure doubles the wait.
func TestWatchHostBacksOff(t *testing.T) {
	dir := t.TempDir()
	dials := filepath.Join(dir, "dials")
	ssh := filepath.Join(dir, "ssh")
	script := "#!/bin/sh\necho dial >>" + e2e.ShellQuote(dials) + "\necho 'ssh: connect to host devbox port 22: Connection refused' >&2\nexit 255\n"
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

// Lists of one host at once, as hooksup web's page and its event follower make, dial it once:
// the others wait for that dial and list its outcome.
func TestWatchHostDialsOnceForListsAtOnce(t *testing.T) {
	dir := t.TempDir()
	dials := filepath.Join(dir, "dials")
	ssh := filepath.Join(dir, "ssh")
	script := "#!/bin/sh\necho dial >>" + e2e.ShellQuote(dials) + "\nsleep 0.5\necho 'ssh: connect to host devbox port 22: Connection refused' >&2\nexit 255\n"
	if err := os.WriteFile(ssh, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	h := &watchHost{name: "devbox", t: hub.Transport{SSH: []string{ssh}, Timeout: 5 * time.Second}}
	const lists = 8
	cards := make([]string, lists)
	var wg sync.WaitGroup
	for i := range lists {
		wg.Go(func() {
			if ls := h.list(); len(ls) == 1 && ls[0].Err != nil {
				cards[i] = ls[0].Err.Error()
			}
		})
	}
	wg.Wait()
	b, _ := os.ReadFile(dials)
	if n := strings.Count(string(b), "dial"); n != 1 {
		t.Fatalf("%d lists at once dialled %d times, want once", lists, n)
	}
	for _, c := range cards {
		if !strings.Contains(c, "disconnected: unreachable") {
			t.Fatalf("a list's card: %q", c)
		}
	}
}
