package supervisor

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/verdictlog"
)

// A session that ends right after answering a stop whose transcript is not to be found (a path
// that moved) still logs that stop's verdict, complete, and publishes it before the agent's
// exit.
func TestSessionEndingAfterTheAnswerKeepsTheVerdict(t *testing.T) {
	ss := startStorm(t)
	var events []session.Event
	done := make(chan struct{})
	evs, stop := ss.sup.Subscribe()
	defer stop()
	go func() {
		defer close(done)
		for ev := range evs {
			events = append(events, ev)
		}
	}()
	in := fmt.Sprintf(`{"session_id":"ends","transcript_path":%q,"cwd":%q,"hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"All done."}`,
		filepath.Join(ss.dir, "moved", "transcript.jsonl"), ss.dir)
	if _, out := ss.call(hooks.Stop, []byte(in)); len(out) != 0 {
		t.Fatalf("answer %q, want allow", out)
	}
	ss.stop(t)
	<-done
	f, err := os.Open(verdictlog.Path(verdictlog.SessionsDir(filepath.Join(ss.dir, "state")), "ends"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	vs, errs := verdictlog.Read(f)
	if len(errs) > 0 || len(vs) != 1 || vs[0].Event != hooks.Stop || vs[0].Observation == nil || vs[0].Observation.LastMessage != "All done." {
		t.Fatalf("verdict log %+v (%v): want the stop's verdict with its observation", vs, errs)
	}
	var order []string
	for _, ev := range events {
		switch ev.(type) {
		case session.VerdictDecided, session.AgentExited:
			order = append(order, fmt.Sprintf("%T", ev))
		}
	}
	if fmt.Sprint(order) != "[session.VerdictDecided session.AgentExited]" {
		t.Fatalf("events %v", order)
	}
}
