package supervisor

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/verdictlog"
)

// askPermission fires claude's PermissionRequest hook for command and waits until the session
// lists its question; the hook's answer comes on the channel.
func askPermission(t *testing.T, ss *stormSession, command, shown string) (session.Question, <-chan []byte) {
	t.Helper()
	cmd, _ := json.Marshal(command)
	in := fmt.Sprintf(`{"session_id":"perm","transcript_path":%q,"cwd":%q,"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":%s}}`,
		ss.dir+"/transcript.jsonl", ss.dir, cmd)
	out := make(chan []byte, 1)
	go func() { _, b := ss.call(hooks.PermissionRequest, []byte(in)); out <- b }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		for _, q := range ss.sup.Pending() {
			if q.Permission != nil && q.Permission.Command == shown {
				return q, out
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no permission question for %q: %+v", command, ss.sup.Pending())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func answerOf(t *testing.T, out <-chan []byte) []byte {
	t.Helper()
	select {
	case b := <-out:
		return b
	case <-time.After(10 * time.Second):
		t.Fatal("the hook was not answered")
	}
	return nil
}

// The first answer wins; a stop's decision fits no permission; the answer is claude's deny
// with the reason. The command's controls are shown visibly in the question.
func TestPermissionQuestionFirstAnswerWins(t *testing.T) {
	ss := startStorm(t)
	ss.sup.o.Interactive = true
	defer ss.stop(t)
	q, out := askPermission(t, ss, "rm -rf x\x1b[2J", `rm -rf x\e[2J`)
	if q.Event != hooks.PermissionRequest || q.Permission.Command != `rm -rf x\e[2J` || q.Permission.Always == "" {
		t.Fatalf("question %+v %+v", q, q.Permission)
	}
	if err := ss.sup.ResolveBy(q.ID, hooks.Block, "", session.ManualSource("test")); !errors.Is(err, session.ErrNotPermission) {
		t.Fatalf("a stop's decision: %v", err)
	}
	if err := ss.sup.ResolveBy(q.ID, session.PermissionDeny, "not here", session.ManualSource("test")); err != nil {
		t.Fatal(err)
	}
	if err := ss.sup.ResolveBy(q.ID, session.PermissionAllow, "", session.ManualSource("late")); !errors.Is(err, session.ErrAnswered) {
		t.Fatalf("a second answer: %v", err)
	}
	var got struct {
		HookSpecificOutput struct {
			HookEventName string
			Decision      struct{ Behavior, Message string }
		}
	}
	if b := answerOf(t, out); json.Unmarshal(b, &got) != nil || got.HookSpecificOutput.HookEventName != hooks.PermissionRequest ||
		got.HookSpecificOutput.Decision.Behavior != "deny" || got.HookSpecificOutput.Decision.Message != "not here" {
		t.Fatalf("the hook's answer %s", b)
	}
	if len(ss.sup.Pending()) != 0 {
		t.Fatalf("still pending: %+v", ss.sup.Pending())
	}
}

// The person answers at claude's dialog: claude reports it works again, the question is
// withdrawn, the hook answers nothing (claude keeps the person's answer), and a late answer
// finds it answered.
func TestPermissionQuestionWithdrawnByTheTerminal(t *testing.T) {
	ss := startStorm(t)
	ss.sup.o.Interactive = true
	defer ss.stop(t)
	ss.sup.TerminalStatus(session.TerminalStatus{State: session.TerminalBlocked, Kind: session.BlockedPermission, Msg: "approve Bash: touch a"})
	q, out := askPermission(t, ss, "touch a", "touch a")
	ss.sup.TerminalStatus(session.TerminalStatus{State: session.TerminalWorking})
	if b := answerOf(t, out); len(b) != 0 {
		t.Fatalf("the hook answered %s after the person did", b)
	}
	if err := ss.sup.ResolveBy(q.ID, session.PermissionAllow, "", session.ManualSource("late")); !errors.Is(err, session.ErrAnswered) {
		t.Fatalf("a late answer: %v", err)
	}
	// Asked while claude still says it works (the hook may come first): not withdrawn until
	// the dialog it announces has come and gone.
	q, out = askPermission(t, ss, "touch b", "touch b")
	ss.sup.TerminalStatus(session.TerminalStatus{State: session.TerminalBlocked, Kind: session.BlockedPermission, Msg: "approve Bash: touch b"})
	if err := ss.sup.ResolveBy(q.ID, session.PermissionAllow, "", verdictlog.SourceManual); err != nil {
		t.Fatalf("the question was withdrawn as its dialog opened: %v", err)
	}
	if b := answerOf(t, out); !json.Valid(b) || len(b) == 0 {
		t.Fatalf("the hook's answer %q", b)
	}
}
