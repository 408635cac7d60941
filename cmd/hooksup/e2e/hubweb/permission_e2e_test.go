package hubweb

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// Claude's permission dialog in --permission-mode default is a question of the session: listed
// by hooksup ls with the command claude will run, answered from another shell with hooksup
// approve or deny, and withdrawn everywhere once the person answers at claude's own dialog.

func TestPermissionListedAndAllowedFromCLI(t *testing.T) {
	t.Parallel()
	rc, tm, s := e2e.PermissionSession(t, mockapi.Text("MADE-IT"))
	q := s.Pending[0]
	if q.Permission == nil || q.Permission.Tool != "Bash" || q.Permission.Command != "touch created.txt" || q.ID == 0 {
		t.Fatalf("the question does not say what claude asks to run: %+v", q)
	}
	tm.WaitText(10*time.Second, "⚑ Bash: touch created.txt (question")
	if out, _, code := e2e.HubShell(t, rc.Run, "status"); code != 0 || !strings.Contains(out, "1 waiting on you") {
		t.Fatalf("status: exit %d, %q", code, out)
	}
	out, errText, code := e2e.HubShell(t, rc.Run, "approve")
	if code != 0 || !strings.Contains(out, "allowed Bash: touch created.txt") {
		t.Fatalf("approve: exit %d\n%s%s", code, out, errText)
	}
	scr := tm.WaitText(45*time.Second, "MADE-IT")
	if strings.Contains(scr, "⚑ Bash") {
		t.Fatalf("the header still shows the answered permission:\n%s", scr)
	}
	if _, err := os.Stat(filepath.Join(rc.Env.WorkDir, "created.txt")); err != nil {
		t.Fatalf("the allowed command did not run: %v", err)
	}
	main := rc.Srv.Main()
	if len(main) < 2 || len(main[1].ToolResults()) != 1 || main[1].ToolResults()[0].IsError {
		t.Fatalf("the model did not get the command's result: %d requests", len(main))
	}
	if ls := e2e.HubLs(t, rc.Run); len(ls) != 1 || len(ls[0].Pending) != 0 {
		t.Fatalf("the answered question is still listed: %+v", ls)
	}
	vs := e2e.PermissionVerdicts(rc)
	if len(vs) != 1 || vs[0].Decision != "allow" || vs[0].Source != "manual (hooksup approve)" ||
		vs[0].Permission == nil || vs[0].Permission.Command != "touch created.txt" || vs[0].Time.Before(vs[0].Asked) {
		t.Fatalf("the verdict log's permission answers: %+v", vs)
	}
}

func TestPermissionDeniedFromCLIWithReason(t *testing.T) {
	t.Parallel()
	rc, tm, s := e2e.PermissionSession(t, mockapi.Text("NOT-MADE"))
	out, errText, code := e2e.HubShell(t, rc.Run, "deny", s.SessionID[:8], "--reason", "use a temp dir instead")
	if code != 0 || !strings.Contains(out, "denied Bash: touch created.txt") {
		t.Fatalf("deny: exit %d\n%s%s", code, out, errText)
	}
	tm.WaitText(45*time.Second, "NOT-MADE")
	if _, err := os.Stat(filepath.Join(rc.Env.WorkDir, "created.txt")); err == nil {
		t.Fatal("the denied command ran")
	}
	main := rc.Srv.Main()
	if len(main) < 2 || len(main[1].ToolResults()) != 1 || !main[1].ToolResults()[0].IsError ||
		!strings.Contains(main[1].ToolResults()[0].ResultText(), "use a temp dir instead") {
		t.Fatalf("the model did not get the refusal with its reason: %d requests", len(main))
	}
	vs := e2e.PermissionVerdicts(rc)
	if len(vs) != 1 || vs[0].Decision != "deny" || vs[0].Source != "manual (hooksup deny)" || vs[0].Reason != "use a temp dir instead" {
		t.Fatalf("the verdict log's permission answers: %+v", vs)
	}
	if res := rc.Hooksup("log"); !strings.Contains(res.Stdout, "permission  denied Bash: touch created.txt by you (hooksup deny)") ||
		!strings.Contains(res.Stdout, "told claude: use a temp dir instead") {
		t.Fatalf("hooksup log: %q %q", res.Stdout, res.Stderr)
	}
}

// The person answers at claude's own dialog: the question leaves hooksup ls within a second
// of the dialog closing, and a late answer from another shell finds it gone.
func TestPermissionAnsweredAtTerminalIsWithdrawn(t *testing.T) {
	// Serial: it bounds the time the question takes to be withdrawn at a second, which tests running beside it would stretch.
	rc, tm, _ := e2e.PermissionSession(t, mockapi.Text("MADE-HERE"))
	tm.PressUntil("1", "the dialog closes", 30*time.Second, func(scr string) bool { return !strings.Contains(scr, "Do you want to proceed?") })
	gone := time.Now()
	// The header drops the question as the session withdraws it: read from the same screen
	// the dialog left, so the figure is what a person sees (hooksup ls, a process of its own,
	// takes longer to ask).
	tm.WaitFor("the header to drop the question", 10*time.Second, func(scr string) bool { return !strings.Contains(scr, "⚑ Bash") })
	took := time.Since(gone)
	t.Logf("the question was withdrawn %v after the dialog left the screen", took.Round(time.Millisecond))
	if took > time.Second {
		t.Fatalf("the question answered at the terminal was withdrawn only %v later", took)
	}
	if ls := e2e.HubLs(t, rc.Run); len(ls) != 1 || len(ls[0].Pending) != 0 {
		t.Fatalf("the question answered at the terminal is still listed: %+v", ls)
	}
	if _, errText, code := e2e.HubShell(t, rc.Run, "deny"); code != 1 || !strings.Contains(errText, "no question is pending") {
		t.Fatalf("a late deny: exit %d, %q", code, errText)
	}
	tm.WaitText(45*time.Second, "MADE-HERE")
	if _, err := os.Stat(filepath.Join(rc.Env.WorkDir, "created.txt")); err != nil {
		t.Fatalf("the command allowed at the terminal did not run: %v", err)
	}
}

// approve --always shows the rule it writes first, then allows the call as claude's own
// "always" would: the same command asked again runs without a dialog.
func TestPermissionAllowedAlwaysFromCLI(t *testing.T) {
	t.Parallel()
	rc, tm, s := e2e.PermissionSession(t, mockapi.Bash("touch created.txt", "Create it again"), mockapi.Text("BOTH-RAN"))
	rule := s.Pending[0].Permission.Always
	if rule == "" {
		t.Fatalf("the question offers no rule for always: %+v", s.Pending[0])
	}
	out, errText, code := e2e.HubShell(t, rc.Run, "approve", "--always")
	want := "always: " + rule + "\napprove: allowed Bash: touch created.txt in session "
	if code != 0 || !strings.HasPrefix(out, want) || !strings.Contains(out, ", and from now on: "+rule) {
		t.Fatalf("approve --always: exit %d\n%s%s\nwant it to start %q", code, out, errText, want)
	}
	scr := tm.WaitText(45*time.Second, "BOTH-RAN")
	main := rc.Srv.Main()
	if len(main) != 3 || len(main[2].ToolResults()) != 1 || main[2].ToolResults()[0].IsError {
		t.Fatalf("the second call did not run unasked: %d requests\n%s", len(main), scr)
	}
	vs := e2e.PermissionVerdicts(rc)
	if len(vs) != 1 || vs[0].Decision != "always" || vs[0].Permission.Rule != rule {
		t.Fatalf("the verdict log's permission answers (one: the second call was not asked): %+v", vs)
	}
}
