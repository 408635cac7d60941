package e2e

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
	"github.com/hooksup/hooksup/verdictlog"
)

func AssertGoneProc(t *testing.T, pidFile string) {
	t.Helper()
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	for i := 0; i < 100; i++ {
		if syscall.Kill(pid, 0) != nil {
			return
		}
		if st, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); strings.Contains(string(st), ") Z") {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the check's child %d survived the interrupt", pid)
}

// StopFeedback is the "Stop hook feedback" text block of the request's last user message.
func StopFeedback(t *testing.T, r mockapi.Request) string {
	t.Helper()
	m, _ := r.LastUser()
	for _, b := range m.Content {
		if b.Type == "text" && strings.Contains(b.Text, "Stop hook feedback:") {
			return b.Text
		}
	}
	t.Fatalf("no Stop hook feedback in the last user message: %q", m.Text())
	return ""
}

// VerdictsJSON is `hooksup log --json`, decoded.
func (rc *RealClaude) VerdictsJSON() []verdictlog.Verdict {
	rc.T.Helper()
	res := rc.Hooksup("log", "--json")
	if res.ExitCode != 0 {
		rc.T.Fatalf("hooksup log --json: exit %d: %s", res.ExitCode, res.Stderr)
	}
	if strings.ContainsAny(res.Stdout, "\x1b\x07") || strings.Contains(res.Stdout, `\u001b`) || strings.Contains(res.Stdout, `\u0007`) {
		rc.T.Fatalf("hooksup log --json has terminal controls:\n%s", res.Stdout)
	}
	vs, errs := verdictlog.Read(strings.NewReader(res.Stdout))
	if len(errs) > 0 {
		rc.T.Fatalf("hooksup log --json: %v", errs)
	}
	return vs
}
