package checks

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hooksup/hooksup/config"
)

// alive reports whether pid still runs half a second on (a process that has closed its files
// is not a zombie at once; and a zombie is as good as gone).
func alive(pid int) bool {
	for deadline := time.Now().Add(500 * time.Millisecond); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if syscall.Kill(pid, 0) != nil {
			return false
		}
		if st, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); strings.Contains(string(st), ") Z") {
			return false
		}
	}
	return true
}

// A check's verdict is its shell's own exit status, whatever it left running; what it left is
// given LeftoverGrace to finish (a job that still writes its output is waited for), then
// killed, and the result says so.
func TestRunVerdictIsTheShellsExitStatus(t *testing.T) {
	for _, tc := range []struct {
		name, command string
		exit          int
		left          bool
		output        string
	}{
		{"passes, leaves a job holding its output", "sleep 30 & echo $! > PID; echo ok", 0, true, "ok"},
		{"fails, leaves a job holding its output", "sleep 30 & echo $! > PID; echo bad; exit 3", 3, true, "bad"},
		{"passes, leaves a job writing nowhere", "sleep 30 >/dev/null 2>&1 & echo $! > PID; echo ok", 0, true, "ok"},
		{"a job that finishes within the grace", "(sleep 0.2; echo late) & echo $! > PID; echo early", 0, false, "early\nlate"},
		{"leaves nothing", "echo $$ > PID; echo ok", 0, false, "ok"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			pidFile := filepath.Join(dir, "pid")
			cmd := strings.ReplaceAll(tc.command, "PID", pidFile)
			start := time.Now()
			res := Run(context.Background(), nil, config.Check{Name: "c", Command: cmd}, dir, nil, nil)
			took := time.Since(start)
			b, _ := os.ReadFile(pidFile)
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatalf("the check's pid file: %q", b)
			}
			t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
			if res.ExitCode != tc.exit || res.LeftRunning != tc.left || res.Passed() != (tc.exit == 0) || res.StartErr != nil || res.TimedOut || res.Canceled {
				t.Fatalf("result %+v, want exit %d, left running %v", res, tc.exit, tc.left)
			}
			if got := Text(res); got != tc.output {
				t.Fatalf("output %q, want %q", got, tc.output)
			}
			if alive(pid) {
				t.Fatalf("process %d the check started still runs after it", pid)
			}
			switch {
			case tc.left && took < LeftoverGrace:
				t.Fatalf("what it left was killed after %s, before the grace of %s", took, LeftoverGrace)
			case took > LeftoverGrace+2*time.Second:
				t.Fatalf("the check took %s", took)
			}
		})
	}
}

// A check that leaves nothing running is not made to wait for the grace.
func TestRunWithoutLeftoversDoesNotWait(t *testing.T) {
	res := Run(context.Background(), nil, config.Check{Name: "c", Command: "echo ok"}, t.TempDir(), nil, nil)
	if !res.Passed() || res.LeftRunning || res.Duration > LeftoverGrace/2 {
		t.Fatalf("result %+v", res)
	}
}
