package agents

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
	"github.com/hooksup/hooksup/verdictlog"
	"github.com/hooksup/hooksup/web"
)

// A permission dialog no hook can answer (claude's on its default auto mode, gemini's) is a
// question of the session all the same: hooksup reads it on the agent's screen, lists it, and
// answers it with the keys a person would press, once the dialog has been on screen a moment,
// and only while it still shows the very command the question names.

// keyCommand is a command the agents ask about that creates a file in the project: auto mode
// (offline, its check cannot run) asks about the rm outside the project; gemini asks about
// every shell command.
const keyCommand = "rm -rf ../build-cache && touch created.txt"

// answerAndTime runs hooksup approve or deny with args, and returns how long after it
// returned the dialog left the screen (marker gone).
func answerAndTime(t *testing.T, runDir string, tm *e2e.Tmux, marker, want string, args ...string) time.Duration {
	t.Helper()
	out, errText, code := e2e.HubShell(t, runDir, args...)
	if code != 0 || !strings.Contains(out, want) {
		t.Fatalf("%s: exit %d\n%s%s", args[0], code, out, errText)
	}
	answered := time.Now()
	tm.WaitFor("the dialog to leave", 15*time.Second, func(scr string) bool { return !strings.Contains(scr, marker) })
	took := time.Since(answered)
	t.Logf("the dialog left the screen %v after hooksup %s returned", took.Round(time.Millisecond), args[0])
	return took
}

// nothingPending checks that the one session of runDir lists no question: the answered one is
// gone from the hub.
func nothingPending(t *testing.T, runDir string) {
	t.Helper()
	if ls := e2e.HubLs(t, runDir); len(ls) != 1 || len(ls[0].Pending) != 0 {
		t.Fatalf("a question is still listed: %+v", ls)
	}
}

// keyVerdict is the one permission answer of the verdict log.
func keyVerdict(t *testing.T, vs []verdictlog.Verdict, decision, source, command string) {
	t.Helper()
	var ps []verdictlog.Verdict
	for _, v := range vs {
		if v.Event == "PermissionRequest" {
			ps = append(ps, v)
		}
	}
	if len(ps) != 1 || string(ps[0].Decision) != decision || string(ps[0].Source) != source ||
		ps[0].Permission == nil || ps[0].Permission.Command != command {
		t.Fatalf("the verdict log's permission answers: %+v", ps)
	}
}

// claudeAutoDialog starts the real claude on its default (auto) mode under hooksup's TUI and has
// it ask about keyCommand: offline, auto mode first says that its check cannot run (the person
// stays in auto mode), then asks with its own No/Yes dialog, which hooksup lists.
func claudeAutoDialog(t *testing.T, replies ...mockapi.Reply) (*e2e.RealClaude, *e2e.Tmux, web.Session) {
	t.Helper()
	rc := e2e.NewRealClaudeTUI(t, &mockapi.Script{Main: append([]mockapi.Reply{mockapi.Bash(keyCommand, "Build it")}, replies...)})
	tm := rc.ClaudeTUIWith(rc.Config(`mode = "auto"`), 160, 45)
	const wait = 45 * time.Second
	tm.WaitText(wait, "● waiting for input")
	e2e.TypeIntoClaude(t, tm, "make a file")
	tm.Keys("Enter")
	tm.WaitText(wait, "can't check actions")
	// The notice is the person's: no question for it.
	if ls := e2e.HubLs(t, rc.Run); len(ls) == 1 && len(ls[0].Pending) != 0 {
		t.Fatalf("a question for auto mode's notice: %+v", ls[0].Pending)
	}
	e2e.PressUntil(t, tm, "Enter", "Do you want to proceed?")
	s := e2e.WaitPermission(t, rc.Run, wait)
	q := s.Pending[0]
	if q.Permission == nil || q.Permission.Tool != "Bash" || q.Permission.Command != keyCommand || q.Permission.Always != "" {
		t.Fatalf("the question does not say what claude asks to run: %+v", q.Permission)
	}
	tm.WaitText(10*time.Second, "⚑ Bash: "+keyCommand)
	return rc, tm, s
}

func TestKeysClaudeAutoModeApproved(t *testing.T) {
	t.Parallel()
	rc, tm, _ := claudeAutoDialog(t, mockapi.Text("MADE-IT"))
	answerAndTime(t, rc.Run, tm, "Do you want to proceed?", "allowed Bash: "+keyCommand, "approve")
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
	nothingPending(t, rc.Run)
	keyVerdict(t, rc.Verdicts(), "allow", "manual (hooksup approve)", keyCommand)
	claudePromptClean(t, rc, tm, 2)
}

func TestKeysClaudeAutoModeDenied(t *testing.T) {
	t.Parallel()
	rc, tm, s := claudeAutoDialog(t, mockapi.Text("NEXT-TURN"))
	answerAndTime(t, rc.Run, tm, "Do you want to proceed?", "denied Bash: "+keyCommand, "deny", s.SessionID[:8])
	tm.WaitText(45*time.Second, "● interrupted")
	if _, err := os.Stat(filepath.Join(rc.Env.WorkDir, "created.txt")); err == nil {
		t.Fatal("the denied command ran")
	}
	keyVerdict(t, rc.Verdicts(), "deny", "manual (hooksup deny)", keyCommand)
	// Escape ends claude's turn: the refusal reaches the model with the next prompt.
	main := claudePromptClean(t, rc, tm, 1)
	if !hasToolResult(main, "doesn't want to proceed") {
		t.Fatalf("the next request does not carry the refusal: %+v", main.Messages)
	}
}

// deny --reason on auto mode's dialog: No, Tab, the reason typed into claude's own field for
// it, Enter. The command does not run, the turn goes on, and the model reads the reason.
func TestKeysClaudeAutoModeDeniedWithReason(t *testing.T) {
	t.Parallel()
	rc, tm, _ := claudeAutoDialog(t, mockapi.Text("TOOK-THE-HINT"))
	const reason = "use a temporary directory instead"
	answerAndTime(t, rc.Run, tm, "Do you want to proceed?", "denied Bash: "+keyCommand, "deny", "--reason", reason)
	tm.WaitText(45*time.Second, "TOOK-THE-HINT")
	if _, err := os.Stat(filepath.Join(rc.Env.WorkDir, "created.txt")); err == nil {
		t.Fatal("the denied command ran")
	}
	main := rc.Srv.Main()
	if len(main) < 2 || !hasToolResult(main[1], "the user said:\n"+reason) {
		t.Fatalf("the model did not read the reason as the call's result: %d requests", len(main))
	}
	var ps []verdictlog.Verdict
	for _, v := range rc.Verdicts() {
		if v.Event == "PermissionRequest" {
			ps = append(ps, v)
		}
	}
	if len(ps) != 1 || ps[0].Decision != "deny" || ps[0].Reason != reason {
		t.Fatalf("the verdict log's permission answers: %+v", ps)
	}
}

// claudePromptClean types a prompt and checks that the request it makes carries exactly that
// text: no key hooksup pressed landed in claude's prompt box. It returns that request, the
// n-th (from 1).
func claudePromptClean(t *testing.T, rc *e2e.RealClaude, tm *e2e.Tmux, n int) mockapi.Request {
	t.Helper()
	tm.WaitFor("claude's turn to end", 45*time.Second, func(scr string) bool {
		return strings.Contains(scr, "● waiting for input") || strings.Contains(scr, "● interrupted")
	})
	if len(rc.Srv.Main()) >= n+1 {
		t.Fatalf("an extra request before the next prompt: %d", len(rc.Srv.Main()))
	}
	e2e.TypeIntoClaude(t, tm, "next please")
	tm.Keys("Enter")
	tm.WaitFor("the next request", 45*time.Second, func(string) bool { return len(rc.Srv.Main()) > n })
	r := rc.Srv.Main()[n]
	if got := lastPrompt(r); got != "next please" {
		t.Fatalf("the prompt claude sent is %q, not what was typed: a key landed in its prompt box", got)
	}
	return r
}

// lastPrompt is the last text block of the request's last user message that is not one of
// claude's reminders.
func lastPrompt(r mockapi.Request) string {
	m, _ := r.LastUser()
	out := ""
	for _, b := range m.Content {
		if b.Type == "text" && !strings.HasPrefix(strings.TrimSpace(b.Text), "<system-reminder>") {
			out = strings.TrimSpace(b.Text)
		}
	}
	return out
}

func hasToolResult(r mockapi.Request, text string) bool {
	for _, m := range r.Messages {
		for _, b := range m.Content {
			if b.Type == "tool_result" && strings.Contains(b.ResultText(), text) {
				return true
			}
		}
	}
	return false
}

// geminiDialog starts the real gemini under hooksup's TUI and has it ask to run keyCommand.
func geminiDialog(t *testing.T, replies ...mockapi.GeminiReply) (*e2e.RealGemini, *e2e.Tmux, web.Session) {
	t.Helper()
	rg := newRealGeminiTUI(t, append([]mockapi.GeminiReply{mockapi.GeminiShell(keyCommand)}, replies...)...)
	tm := e2e.StartTmux(t, 160, 45, rg.Env.Environ(), rg.Env.WorkDir, e2e.HooksupBin, "--debug", "--config", rg.Config(`mode = "auto"`), "gemini")
	const wait = 60 * time.Second
	tm.WaitText(wait, "hooksup gemini", "Type your message")
	promptGemini(t, tm, rg, "make a file")
	tm.WaitText(wait, "Allow once")
	s := e2e.WaitPermission(t, rg.Run, wait)
	q := s.Pending[0]
	if q.Permission == nil || q.Permission.Tool != "Shell" || q.Permission.Command != keyCommand ||
		!strings.Contains(q.Permission.Always, "for the rest of this gemini session") {
		t.Fatalf("the question does not say what gemini asks to run: %+v", q.Permission)
	}
	tm.WaitText(10*time.Second, "⚑ Shell: "+keyCommand)
	return rg, tm, s
}

func TestKeysGeminiApproved(t *testing.T) {
	t.Parallel()
	rg, tm, _ := geminiDialog(t, mockapi.GeminiText("MADE-IT"), mockapi.GeminiText("NEXT-TURN"))
	answerAndTime(t, rg.Run, tm, "Allow once", "allowed Shell: "+keyCommand, "approve")
	tm.WaitText(60*time.Second, "MADE-IT")
	if _, err := os.Stat(filepath.Join(rg.Env.WorkDir, "created.txt")); err != nil {
		t.Fatalf("the allowed command did not run: %v", err)
	}
	turns := rg.Srv.Turns()
	if len(turns) < 2 || !geminiHasResponse(turns[1], "") {
		t.Fatalf("the model did not get the command's result: %d turns", len(turns))
	}
	nothingPending(t, rg.Run)
	keyVerdict(t, rg.Verdicts(), "allow", "manual (hooksup approve)", keyCommand)
	geminiPromptClean(t, rg, tm)
}

// Always presses gemini's own "Allow for this session": the command runs, and the same command
// again in the same turn runs with no dialog and no new question.
func TestKeysGeminiAlways(t *testing.T) {
	t.Parallel()
	rg, tm, _ := geminiDialog(t, mockapi.GeminiShell(keyCommand), mockapi.GeminiText("MADE-BOTH"))
	answerAndTime(t, rg.Run, tm, "Allow once", "allowed Shell: "+keyCommand, "approve", "--always")
	tm.WaitText(60*time.Second, "MADE-BOTH")
	if _, err := os.Stat(filepath.Join(rg.Env.WorkDir, "created.txt")); err != nil {
		t.Fatalf("the allowed command did not run: %v", err)
	}
	// The model got both calls' results.
	turns := rg.Srv.Turns()
	results := 0
	for _, c := range turns[len(turns)-1].Contents {
		for _, p := range c.Parts {
			if len(p.FunctionResponse) > 0 {
				results++
			}
		}
	}
	if results != 2 {
		t.Fatalf("the last request carries %d results, not both calls'", results)
	}
	nothingPending(t, rg.Run)
	keyVerdict(t, rg.Verdicts(), "always", "manual (hooksup approve)", keyCommand)
}

func TestKeysGeminiDenied(t *testing.T) {
	t.Parallel()
	rg, tm, _ := geminiDialog(t, mockapi.GeminiText("NEXT-TURN"))
	answerAndTime(t, rg.Run, tm, "Allow once", "denied Shell: "+keyCommand, "deny")
	tm.WaitText(60*time.Second, "Request cancelled")
	if _, err := os.Stat(filepath.Join(rg.Env.WorkDir, "created.txt")); err == nil {
		t.Fatal("the denied command ran")
	}
	keyVerdict(t, rg.Verdicts(), "deny", "manual (hooksup deny)", keyCommand)
	// Escape ends gemini's turn and drops the call: the model never hears of it, and the
	// next prompt follows the one before.
	r := geminiPromptClean(t, rg, tm)
	if geminiHasResponse(r, "") {
		t.Fatalf("the next request carries a result of the cancelled call: %s", r.Body)
	}
	t.Logf("the next request's contents: %+v", r.Contents)
}

// geminiPromptClean types a prompt and checks that the request it makes ends with exactly that
// text: no key hooksup pressed landed in gemini's input.
func geminiPromptClean(t *testing.T, rg *e2e.RealGemini, tm *e2e.Tmux) mockapi.GeminiRequest {
	t.Helper()
	tm.WaitText(60*time.Second, "Type your message")
	promptGemini(t, tm, rg, "next please")
	turns := rg.Srv.Turns()
	r := turns[len(turns)-1]
	var got string
	if c := r.Contents[len(r.Contents)-1]; c.Role == "user" && len(c.Parts) > 0 {
		got = strings.TrimSpace(c.Parts[len(c.Parts)-1].Text)
	}
	if got != "next please" {
		t.Fatalf("the prompt gemini sent is %q, not what was typed: a key landed in its input", got)
	}
	return r
}

// geminiHasResponse reports whether the request carries a function response whose JSON holds
// text (any, for "").
func geminiHasResponse(r mockapi.GeminiRequest, text string) bool {
	for _, c := range r.Contents {
		for _, p := range c.Parts {
			if len(p.FunctionResponse) > 0 && strings.Contains(strings.ToLower(string(p.FunctionResponse)), text) {
				return true
			}
		}
	}
	return false
}

// The person answers at gemini's own dialog: the question leaves the header within a second of
// the dialog leaving the screen, and a late answer from another shell finds it answered.
func TestKeysGeminiAnsweredAtTerminalIsWithdrawn(t *testing.T) {
	t.Parallel()
	rg, tm, _ := geminiDialog(t, mockapi.GeminiText("MADE-HERE"))
	tm.PressUntil("Enter", "the dialog closes", 30*time.Second, func(scr string) bool { return !strings.Contains(scr, "Allow once") })
	gone := time.Now()
	tm.WaitFor("the header to drop the question", 10*time.Second, func(scr string) bool { return !strings.Contains(scr, "⚑ Shell") })
	took := time.Since(gone)
	t.Logf("the question was withdrawn %v after the dialog left the screen", took.Round(time.Millisecond))
	if took > time.Second {
		t.Fatalf("the question answered at the terminal was withdrawn only %v later", took)
	}
	tm.WaitText(60*time.Second, "MADE-HERE")
	if _, _, code := e2e.HubShell(t, rg.Run, "approve"); code == 0 {
		t.Fatal("a late approve succeeded")
	}
	if _, err := os.Stat(filepath.Join(rg.Env.WorkDir, "created.txt")); err != nil {
		t.Fatalf("the command allowed at the terminal did not run: %v", err)
	}
	for _, v := range rg.Verdicts() {
		if v.Event == "PermissionRequest" {
			t.Fatalf("an answer at gemini's own dialog was recorded as hooksup's: %+v", v)
		}
	}
}

// Typed ahead: the person types while claude works towards its next dialog (claude keeps the
// text in its prompt box and draws the dialog later). The question comes with the dialog, the
// answer's keys go to the dialog alone, and the prompt box keeps just what the person typed: the
// prompt they finish is sent as they typed it, and nothing else is.
func TestKeysClaudeAutoModeTypedAhead(t *testing.T) {
	t.Parallel()
	const second = "rm -rf ../build-cache2 && touch second.txt"
	rc, tm, _ := claudeAutoDialog(t, mockapi.Text("MADE-IT"), mockapi.Bash(second, "Again"), mockapi.Text("MADE-TWO"), mockapi.Text("LAST"))
	answerAndTime(t, rc.Run, tm, "Do you want to proceed?", "allowed Bash: "+keyCommand, "approve")
	tm.WaitText(45*time.Second, "MADE-IT")
	e2e.TypeIntoClaude(t, tm, "again")
	tm.Keys("Enter")
	tm.Text("x") // typed ahead, while claude asks the model
	s := e2e.WaitPermission(t, rc.Run, 45*time.Second)
	if q := s.Pending[0]; q.Permission == nil || q.Permission.Command != second {
		t.Fatalf("the question: %+v", q.Permission)
	}
	answerAndTime(t, rc.Run, tm, "Do you want to proceed?", "allowed Bash: "+second, "approve")
	tm.WaitText(45*time.Second, "MADE-TWO")
	if _, err := os.Stat(filepath.Join(rc.Env.WorkDir, "second.txt")); err != nil {
		t.Fatalf("the allowed command did not run: %v", err)
	}
	n := len(rc.Srv.Main())
	if n != 4 {
		t.Fatalf("%d requests: a key of hooksup's sent the prompt box", n)
	}
	tm.Text("yz")
	tm.Keys("Enter")
	tm.WaitFor("the last request", 45*time.Second, func(string) bool { return len(rc.Srv.Main()) > n })
	got := lastPrompt(rc.Srv.Main()[n])
	t.Logf("the prompt sent after the dialog: %q", got)
	for _, l := range strings.Split(rc.Log(), "\n") {
		if strings.Contains(l, "with keys") || strings.Contains(l, "the key again") {
			t.Log(l)
		}
	}
	if got != "xyz" && got != "yz" { // x lands in the prompt box, or in the dialog, which ignores it
		t.Fatalf("the prompt claude sent is %q: a key of hooksup's landed in its prompt box", got)
	}
}
