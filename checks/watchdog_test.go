package checks

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/internal/procinfo"
)

// envRunCheck has the test binary, re-executed, be a hooksup running one check: this command.
const envRunCheck = "HOOKSUP_TEST_RUN_CHECK"

func TestMain(m *testing.M) {
	if cmd := os.Getenv(envRunCheck); cmd != "" {
		Run(context.Background(), nil, config.Check{Name: "c", Command: cmd}, ".", nil, nil)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// readPid waits (bounded) for a pid written to path.
func readPid(t *testing.T, path string) int {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		b, _ := os.ReadFile(path)
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 1 {
			return pid
		}
		if time.Now().After(deadline) {
			t.Fatalf("no pid in %s", path)
		}
	}
}

// A hooksup killed with SIGKILL while a check runs leaves nothing of the check's group alive
// 2 s later: the watchdog leading the group, which SIGHUP, SIGINT, SIGQUIT and SIGTERM (a
// terminal hanging up, a Ctrl-C, a kill of everything) leave watching, ends it.
func TestWatchdogEndsTheGroupOfAKilledHooksup(t *testing.T) {
	dir := t.TempDir()
	jobs, shell := filepath.Join(dir, "job"), filepath.Join(dir, "shell")
	self, _ := os.Executable()
	hooksup := exec.Command(self, "-test.run=^$")
	hooksup.Env = append(os.Environ(), envRunCheck+"=sleep 300 & echo $! > "+jobs+"; echo $$ > "+shell+"; wait")
	if err := hooksup.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { hooksup.Wait(); close(done) }()
	t.Cleanup(func() { hooksup.Process.Kill(); <-done })
	job, sh := readPid(t, jobs), readPid(t, shell)
	p, err := procinfo.Read(job)
	if err != nil {
		t.Fatal(err)
	}
	pgid := p.Pgid
	t.Cleanup(func() { syscall.Kill(-pgid, syscall.SIGKILL) })
	if pgid == sh || pgid == job {
		t.Fatalf("the check's group %d is led by its shell %d or job %d, not a watchdog", pgid, sh, job)
	}
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTERM} {
		if err := syscall.Kill(pgid, sig); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(100 * time.Millisecond) // a signal is delivered at once; this is for the watchdog to act on it, which it must not
	if _, err := procinfo.Read(pgid); err != nil {
		t.Fatalf("the watchdog %d did not survive SIGHUP, SIGINT, SIGQUIT and SIGTERM: %v", pgid, err)
	}

	hooksup.Process.Signal(syscall.SIGKILL)
	killed := time.Now()
	<-done
	for {
		m, err := procinfo.Group(pgid)
		if err != nil {
			t.Fatal(err)
		}
		if len(m) == 0 {
			break
		}
		if time.Since(killed) > 2*time.Second {
			t.Fatalf("processes %v of the check's group still alive 2s after its hooksup was killed", pids(m))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Run leaves nothing behind: neither the check's processes nor its watchdog.
func TestRunLeavesNoWatchdog(t *testing.T) {
	dir := t.TempDir()
	res := Run(context.Background(), nil, config.Check{Name: "c", Command: `ps -o pgid= -p $$`}, dir, nil, nil)
	pgid, err := strconv.Atoi(strings.TrimSpace(string(res.Output)))
	if err != nil || !res.Passed() {
		t.Fatalf("result %+v", res)
	}
	if m, _ := procinfo.Group(pgid); len(m) != 0 {
		t.Fatalf("left in the check's group %d: %v", pgid, pids(m))
	}
}

// The cost a watchdog adds to every check: starting it, waiting until it is ready, ending it.
func BenchmarkWatchdog(b *testing.B) {
	for b.Loop() {
		wd, err := startWatchdog()
		if err != nil {
			b.Fatal(err)
		}
		syscall.Kill(-wd.pgid(), syscall.SIGKILL)
		wd.stop()
	}
}

// A whole check that does nothing, watchdog included.
func BenchmarkRunTrue(b *testing.B) {
	dir := b.TempDir()
	for b.Loop() {
		if res := Run(context.Background(), nil, config.Check{Name: "c", Command: "true"}, dir, nil, nil); !res.Passed() {
			b.Fatal(res)
		}
	}
}
