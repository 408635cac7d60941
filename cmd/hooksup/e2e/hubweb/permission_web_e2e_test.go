package hubweb

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
	"github.com/hooksup/hooksup/web"
)

// hooksup web's API lists claude's permission dialog as the card's question, with the page's
// answers (Allow · Always… · Deny · Deny…), and a deny with a reason refuses the tool: the file is not
// made, and claude's next request carries the reason.
func TestPermissionDeniedThroughTheWebAPI(t *testing.T) {
	t.Parallel()
	rc, tm, s := e2e.PermissionSession(t, mockapi.Text("NOT-MADE-WEB"))
	_, env := e2e.OtherTerminal(t, rc.Run)
	w := e2e.StartWebIn(t, t.TempDir(), env)
	auth := map[string]string{"Authorization": "Bearer " + w.Token}
	resp, body := w.Do(t, "GET", "/api/sessions", "", auth)
	var sessions []web.Session
	if resp.StatusCode != 200 || json.Unmarshal([]byte(body), &sessions) != nil || len(sessions) != 1 || len(sessions[0].Pending) != 1 {
		t.Fatalf("GET /api/sessions: %d %s", resp.StatusCode, body)
	}
	q := sessions[0].Pending[0]
	var labels []string
	for _, a := range q.Answers {
		labels = append(labels, a.Label)
	}
	if q.Permission == nil || q.Permission.Command != "touch created.txt" || strings.Join(labels, " · ") != "Allow · Always… · Deny · Deny…" {
		t.Fatalf("the card's question: %+v (answers %q)", q, labels)
	}
	resp, body = w.Do(t, "POST", "/api/sessions/"+s.SessionID+"/halt", fmt.Sprintf(`{"question": %d}`, q.ID), auth)
	if resp.StatusCode != 400 || !strings.Contains(body, "waits on a permission") {
		t.Fatalf("halt of a permission: %d %s", resp.StatusCode, body)
	}
	resp, body = w.Do(t, "POST", "/api/sessions/"+s.SessionID+"/deny", fmt.Sprintf(`{"question": %d, "reason": "not from the phone"}`, q.ID), auth)
	if resp.StatusCode != 200 || !strings.Contains(body, "denied Bash: touch created.txt") {
		t.Fatalf("deny: %d %s", resp.StatusCode, body)
	}
	tm.WaitText(45*time.Second, "NOT-MADE-WEB")
	if _, err := os.Stat(filepath.Join(rc.Env.WorkDir, "created.txt")); err == nil {
		t.Fatal("the denied command ran")
	}
	main := rc.Srv.Main()
	if len(main) < 2 || len(main[1].ToolResults()) != 1 || !strings.Contains(main[1].ToolResults()[0].ResultText(), "not from the phone") {
		t.Fatalf("the model did not get the refusal with its reason: %d requests", len(main))
	}
	vs := e2e.PermissionVerdicts(rc)
	if len(vs) != 1 || vs[0].Decision != "deny" || vs[0].Source != "manual (hooksup web)" {
		t.Fatalf("the verdict log's permission answers: %+v", vs)
	}
}
