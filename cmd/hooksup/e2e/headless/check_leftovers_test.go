package headless

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/internal/agentsim"
)

// tookRE is how long a check that waited out the grace took, as `hooksup check` prints it.
var tookRE = regexp.MustCompile(`\(1(\.\d+)?s`)

// leftoverPid reads the pid a check wrote to path and kills it when the test ends.
func leftoverPid(t *testing.T, path string) int {
	t.Helper()
	b, _ := os.ReadFile(path)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 1 {
		t.Fatalf("the pid the check wrote: %q", b)
	}
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	return pid
}

// waitGone waits (bounded) for pid to end; false if it still runs after within.
func waitGone(pid int, within time.Duration) bool {
	for deadline := time.Now().Add(within); !e2e.Gone(pid); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			return false
		}
	}
	return true
}

// `hooksup check` on a check that leaves a background job holding its output: the verdict is the
// shell's own exit status (0: passed; 3: failed with exit 3, never "exit -1"), the output says
// the job was left running and killed after the grace, and the job is gone.
func TestCheckLeavingBackgroundJobIsJudgedByItsExitStatus(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	for _, tc := range []struct {
		name, command string
		code          int
		want          string
	}{
		{"passes", "sleep 30 & echo $! > %s; echo ok", 0,
			"✓ leaves (1.0s; left background processes running, killed after 1s)\n1 check passed\n"},
		{"fails", "sleep 30 & echo $! > %s; echo 'FAIL: want 2'; exit 3", 1,
			"✗ leaves: exit 3; left background processes running, killed after 1s (1.0s)\n" +
				"The check \"leaves\" failed (exit 3; left background processes running, killed after 1s). Fix what it reports, then finish. Its output:\nFAIL: want 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pidFile := filepath.Join(s.Project, tc.name+".pid")
			cfg := s.Config(fmt.Sprintf(`
[[stop.checks]]
name = "leaves"
command = %q
`, fmt.Sprintf(tc.command, pidFile)))
			cmd := e2e.ExecHooksup(s, "--config", cfg, "check")
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, _ := cmd.Output()
			got := strings.ReplaceAll(string(out), pidFile, "PID")
			// The durations vary: a second and a little, rounded to the millisecond.
			got = tookRE.ReplaceAllString(got, "(1.0s")
			if cmd.ProcessState.ExitCode() != tc.code || !strings.Contains(got, tc.want) || strings.Contains(got, "exit -1") {
				t.Fatalf("exit %d, stdout:\n%s\nwant it to hold:\n%s\nstderr:\n%s", cmd.ProcessState.ExitCode(), got, tc.want, stderr.String())
			}
			if pid := leftoverPid(t, pidFile); !waitGone(pid, time.Second) {
				t.Fatalf("the job %d the check left still runs", pid)
			}
		})
	}
}

// In a session, such checks are judged by their shells' exit statuses too: the verdict log's
// records say what each left running, and the reason the agent reads says exit 3.
func TestSessionCheckLeavingBackgroundJobs(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	passPid, failPid := filepath.Join(s.Project, "pass.pid"), filepath.Join(s.Project, "fail.pid")
	marker := filepath.Join(s.Project, "failed-once")
	cfg := s.Config(fmt.Sprintf(`
mode = "auto"
[[stop.checks]]
name = "passes"
command = "sleep 30 & echo $! > %[1]s; echo ok"
[[stop.checks]]
name = "fails"
command = "test -f %[3]s && exit 0; touch %[3]s; sleep 30 & echo $! > %[2]s; echo 'FAIL: want 2'; exit 3"
`, passPid, failPid, marker))
	r := s.RunSim(cfg, agentsim.Scenario{}, "-p", "go")
	if r.Code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", r.Code, r.Stderr)
	}
	if got := e2e.Decisions(r.Verdicts); got != "Stop:block/check:fails Stop:allow/checks" {
		t.Fatalf("verdicts %s", got)
	}
	first := r.Verdicts[0].Checks
	if len(first) != 2 || first[0].Name != "passes" || first[0].ExitCode != 0 || !first[0].LeftRunning ||
		first[1].Name != "fails" || first[1].ExitCode != 3 || !first[1].LeftRunning {
		t.Fatalf("the first stop's check records: %+v", first)
	}
	stops := e2e.StopTrace(r.Trace, "Stop")
	if len(stops) != 2 || !stops[0].Block {
		t.Fatalf("claude saw %+v", stops)
	}
	if reason := stops[0].Reasons[0]; !strings.Contains(reason, `The check "fails" failed (exit 3; left background processes running, killed after 1s).`) ||
		!strings.Contains(reason, "FAIL: want 2") || strings.Contains(reason, "exit -1") {
		t.Fatalf("the reason claude read: %q", reason)
	}
	for _, f := range []string{passPid, failPid} {
		if pid := leftoverPid(t, f); !waitGone(pid, time.Second) {
			t.Fatalf("the job %d a check left still runs", pid)
		}
	}
	// hooksup log says it of each check.
	out, err := e2e.ExecHooksup(s, "log").CombinedOutput()
	log := regexp.MustCompile(`in \d+ ms`).ReplaceAllString(string(out), "in N ms")
	for _, want := range []string{"check passes: exit 0 in N ms; left background processes running, killed after 1s\n",
		"check fails: exit 3 in N ms; left background processes running, killed after 1s\n"} {
		if err != nil || !strings.Contains(log, want) {
			t.Fatalf("hooksup log (%v):\n%s\nwant a line:\n%s", err, out, want)
		}
	}
}
