package headless

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"

	"github.com/hooksup/hooksup/internal/agentsim"
)

// simIn runs a headless session in dir (a project of its own) whose check fails once: one
// continuation, then the limit lets claude stop. It returns the session's id.
func simIn(t *testing.T, s *e2e.Sandbox, dir string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	before := map[string]bool{}
	for _, v := range s.Verdicts() {
		before[v.SessionID] = true
	}
	saved := s.Project
	s.Project = dir
	defer func() { s.Project = saved }()
	r := s.RunSim(s.Config("mode = \"auto\"\n[stop]\nmax_continuations = 1\n[[stop.checks]]\nname = \"lint\"\ncommand = \"exit 1\"\n"),
		agentsim.Scenario{}, "-p", "x")
	if r.Code != 0 {
		t.Fatalf("session in %s: exit %d\n%s", dir, r.Code, r.Stderr)
	}
	for _, v := range r.Verdicts {
		if !before[v.SessionID] {
			return v.SessionID
		}
	}
	t.Fatalf("session in %s: no verdict", dir)
	return ""
}

// hooksupIn runs hooksup with args in dir.
func hooksupIn(t *testing.T, s *e2e.Sandbox, dir string, args ...string) (int, string) {
	t.Helper()
	cmd := e2e.ExecHooksup(s, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil && cmd.ProcessState == nil {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), string(out)
}

// hooksup log in a project shows that project's latest session and names the project, even
// when another project's session is newer; outside any project, the latest of all, naming its
// project; --list lists them all, newest first, with what was decided.
func TestLogShowsTheProjectsLatestSession(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	root := filepath.Dir(s.Project)
	a, b := filepath.Join(root, "alpha"), filepath.Join(root, "beta")
	idA := simIn(t, s, a)
	idB := simIn(t, s, b)
	if idA == "" || idB == "" || idA == idB {
		t.Fatalf("sessions %q and %q", idA, idB)
	}

	sub := filepath.Join(a, "sub")
	os.MkdirAll(sub, 0o700)
	for _, dir := range []string{a, sub} {
		code, out := hooksupIn(t, s, dir, "log")
		head, _, _ := strings.Cut(out, "\n")
		if code != 0 || !strings.Contains(head, "session "+idA) || !strings.Contains(head, "project "+a) || strings.Contains(out, idB) {
			t.Errorf("hooksup log in %s: exit %d, want session %s of project %s:\n%s", dir, code, idA, a, out)
		}
	}

	elsewhere := filepath.Join(root, "home")
	code, out := hooksupIn(t, s, elsewhere, "log")
	head, _, _ := strings.Cut(out, "\n")
	if code != 0 || !strings.Contains(head, "session "+idB) || !strings.Contains(head, "project "+b) || !strings.Contains(head, "latest") {
		t.Errorf("hooksup log outside any project: exit %d, want the latest session, %s of %s, said to be the latest:\n%s", code, idB, b, out)
	}

	code, out = hooksupIn(t, s, elsewhere, "log", "--list")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 3 {
		t.Fatalf("hooksup log --list: exit %d, want a heading and two sessions:\n%s", code, out)
	}
	for i, want := range []struct{ id, project string }{{idB, b}, {idA, a}} {
		l := lines[i+1]
		if !strings.HasPrefix(l, want.id[:8]) || !strings.Contains(l, "claude") || !strings.HasSuffix(l, want.project) ||
			!strings.Contains(l, "1 continued") || !strings.Contains(l, "1 let stop") {
			t.Errorf("hooksup log --list line %d is not %s of %s, 1 continued, 1 let stop:\n%s", i+1, want.id, want.project, out)
		}
	}

	code, out = hooksupIn(t, s, elsewhere, "log", "--list", "--json")
	var list []struct {
		SessionID string         `json:"session_id"`
		Agent     string         `json:"agent"`
		Project   string         `json:"project"`
		Started   string         `json:"started"`
		Decisions map[string]int `json:"decisions"`
	}
	if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil || len(list) != 2 {
		t.Fatalf("hooksup log --list --json: exit %d, %v:\n%s", code, err, out)
	}
	if list[0].SessionID != idB || list[1].SessionID != idA || list[1].Project != a || list[1].Agent != "claude" ||
		list[1].Started == "" || list[1].Decisions["block"] != 1 || list[1].Decisions["allow"] != 1 {
		t.Errorf("hooksup log --list --json:\n%s", out)
	}
}

// A project with no session yet is said to have none, rather than shown another's verdicts.
func TestLogInAProjectWithoutSessions(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	root := filepath.Dir(s.Project)
	simIn(t, s, filepath.Join(root, "alpha"))
	fresh := filepath.Join(root, "fresh")
	os.MkdirAll(fresh, 0o700)
	os.WriteFile(filepath.Join(fresh, ".hooksup.toml"), nil, 0o644)
	code, out := hooksupIn(t, s, fresh, "log")
	if code != 1 || !strings.Contains(out, "no session in project "+fresh) || !strings.Contains(out, "hooksup log --list") {
		t.Errorf("hooksup log in a project without sessions: exit %d\n%s", code, out)
	}
}
