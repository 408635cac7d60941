package e2e

import (
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
	"github.com/hooksup/hooksup/verdictlog"
	"github.com/hooksup/hooksup/web"
)

// PermissionSession starts the real claude in --permission-mode default under hooksup's TUI,
// asks it to make a file, and waits until its dialog is on screen and hooksup ls lists the
// permission question; it returns the question.
func PermissionSession(t *testing.T, replies ...mockapi.Reply) (*RealClaude, *Tmux, web.Session) {
	t.Helper()
	rc := NewRealClaudeTUI(t, &mockapi.Script{Main: append([]mockapi.Reply{mockapi.Bash("touch created.txt", "Create a file")}, replies...)})
	tm := rc.ClaudeTUIWith(rc.Config(`mode = "auto"`), 160, 45, "--permission-mode", "default")
	const wait = 45 * time.Second
	tm.WaitText(wait, "● waiting for input")
	TypeIntoClaude(t, tm, "make a file")
	tm.Keys("Enter")
	tm.WaitText(wait, "Do you want to proceed?")
	return rc, tm, WaitPermission(t, rc.Run, wait)
}

// WaitPermission polls hooksup ls --json until a session lists a pending permission question.
func WaitPermission(t *testing.T, runDir string, wait time.Duration) web.Session {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		ls := HubLs(t, runDir)
		for _, s := range ls {
			for _, q := range s.Pending {
				if q.Event == "PermissionRequest" {
					return s
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no permission question listed: %+v", ls)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// PermissionVerdicts are the verdict log's permission answers.
func PermissionVerdicts(rc *RealClaude) []verdictlog.Verdict {
	var out []verdictlog.Verdict
	for _, v := range rc.Verdicts() {
		if v.Event == "PermissionRequest" {
			out = append(out, v)
		}
	}
	return out
}
