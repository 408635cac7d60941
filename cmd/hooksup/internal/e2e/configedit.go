package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/internal/agentsim"
)

// EditProject replaces the project's .hooksup.toml as editors do: the new content is written
// beside it, then renamed over it.
func (s *Sandbox) EditProject(content string) {
	s.t.Helper()
	tmp := filepath.Join(s.Project, ".hooksup.toml.swp")
	if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
		s.t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(s.Project, ".hooksup.toml")); err != nil {
		s.t.Fatal(err)
	}
}

// WaitStderr waits until hooksup's stderr holds want, and returns it.
func (ls *LiveSession) WaitStderr(want string) string {
	ls.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		out := ls.ErrText()
		if strings.Contains(out, want) {
			return out
		}
		select {
		case <-ls.done:
			ls.t.Fatalf("hooksup exited without saying %q; stderr:\n%s", want, out)
		default:
		}
		if time.Now().After(deadline) {
			ls.t.Fatalf("hooksup never said %q; stderr:\n%s", want, out)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// WaitStops waits until claude finished n Stop hooks, and returns them.
func (ls *LiveSession) WaitStops(n int) []agentsim.TraceEntry {
	ls.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if st := StopTrace(ls.traceEntries(), "Stop"); len(st) >= n {
			return st
		}
		if time.Now().After(deadline) {
			ls.t.Fatalf("claude never finished %d Stop hooks; stderr:\n%s", n, ls.ErrText())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// OpenGate lets the simulated claude start turn n.
func (ls *LiveSession) OpenGate(gate string, n int) {
	ls.t.Helper()
	if err := os.WriteFile(gate+"."+string(rune('0'+n)), []byte("go"), 0o600); err != nil {
		ls.t.Fatal(err)
	}
}

// WaitTraceStops waits until the simulated claude finished n Stop hooks, and returns them.
func WaitTraceStops(t *testing.T, trace string, n int) []agentsim.TraceEntry {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var entries []agentsim.TraceEntry
		if b, err := os.ReadFile(trace); err == nil {
			for _, l := range strings.Split(string(b), "\n") {
				var e agentsim.TraceEntry
				if json.Unmarshal([]byte(l), &e) == nil {
					entries = append(entries, e)
				}
			}
		}
		if st := StopTrace(entries, "Stop"); len(st) >= n {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("claude never finished %d Stop hooks", n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
