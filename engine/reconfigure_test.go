package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/hooks"
)

// A configuration given while a stop's checks run is not the one they run by: that stop ends
// by the checks it started with, and the next stop is decided by the new one.
func TestReconfigureWaitsForTheStopBeingDecided(t *testing.T) {
	dir := t.TempDir()
	started, release := filepath.Join(dir, "started"), filepath.Join(dir, "release")
	cfg := config.Defaults()
	cfg.Mode = config.ModeAuto
	cfg.Stop.Checks = []config.Check{{Name: "slow", Command: "touch " + started + "; while [ ! -f " + release + " ]; do sleep 0.01; done"}}
	e, _ := newTestEngine(t, cfg)

	answers := make(chan hooks.Answer, 1)
	go func() { answers <- e.Decide(context.Background(), stopIn(false)) }()
	for deadline := time.Now().Add(10 * time.Second); ; {
		if _, err := os.Stat(started); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the check never started")
		}
		time.Sleep(time.Millisecond)
	}
	next := config.Defaults()
	next.Mode = config.ModeAuto
	next.Stop.Checks = []config.Check{{Name: "lint", Command: "exit 1"}}
	applied := 0
	e.Reconfigure(next, func() { applied++ })
	os.WriteFile(release, nil, 0o600)
	if a := <-answers; a.Decision != hooks.Allow {
		t.Fatalf("the stop being decided switched checks: %+v", a)
	}
	if applied != 0 {
		t.Fatal("the configuration was applied before a stop came")
	}
	a := e.Decide(context.Background(), stopIn(true))
	if a.Decision != hooks.Block || applied != 1 {
		t.Fatalf("the next stop was not decided by the new checks: %+v (applied %d)", a, applied)
	}
	if got := e.Counts(); got.Verdicts != 2 {
		t.Fatalf("counts %+v", got)
	}
}
