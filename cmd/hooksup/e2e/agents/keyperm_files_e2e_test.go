package agents

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
	"github.com/hooksup/hooksup/web"
)

// A file write raises a dialog of its own, which no hook answers either: hooksup reads it on the
// agent's screen as it reads the shell command's, lists the tool and the path, and answers it
// with keys.

// keyFile is the new file the agents are asked to write, and keyFileText what it holds.
const (
	keyFile     = "notes.txt"
	keyFileText = "one\ntwo\nthree\n"
)

// fileQuestion checks the one pending question: the tool and the file as the dialog shows
// them.
func fileQuestion(t *testing.T, s web.Session, tool, command string) {
	t.Helper()
	if len(s.Pending) != 1 {
		t.Fatalf("pending: %+v", s.Pending)
	}
	if q := s.Pending[0]; q.Event != "PermissionRequest" || q.Permission == nil || q.Permission.Tool != tool || q.Permission.Command != command {
		t.Fatalf("the question does not say what the agent asks to write: %+v %+v", q, q.Permission)
	}
}

// geminiFileDialog starts the real gemini under hooksup's TUI and has it ask to write keyFile.
func geminiFileDialog(t *testing.T, replies ...mockapi.GeminiReply) (*e2e.RealGemini, *e2e.Tmux) {
	t.Helper()
	rg := newRealGeminiTUI(t, append([]mockapi.GeminiReply{mockapi.GeminiWriteFile(keyFile, keyFileText)}, replies...)...)
	tm := e2e.StartTmux(t, 160, 45, rg.Env.Environ(), rg.Env.WorkDir, e2e.HooksupBin, "--debug", "--config", rg.Config(`mode = "auto"`), "gemini")
	const wait = 60 * time.Second
	tm.WaitText(wait, "hooksup gemini", "Type your message")
	promptGemini(t, tm, rg, "write the notes")
	tm.WaitText(wait, "Apply this change?")
	s := e2e.WaitPermission(t, rg.Run, wait)
	fileQuestion(t, s, "WriteFile", keyFile)
	if a := s.Pending[0].Permission.Always; !strings.HasPrefix(a, "allow every file write and edit for the rest of this gemini session") {
		t.Fatalf("the question's always: %q", a)
	}
	tm.WaitText(10*time.Second, "⚑ WriteFile: "+keyFile)
	return rg, tm
}

func TestKeysGeminiFileApproved(t *testing.T) {
	t.Parallel()
	rg, tm := geminiFileDialog(t, mockapi.GeminiText("WROTE-IT"))
	answerAndTime(t, rg.Run, tm, "Apply this change?", "allowed WriteFile: "+keyFile, "approve")
	tm.WaitText(60*time.Second, "WROTE-IT")
	if b, err := os.ReadFile(filepath.Join(rg.Env.WorkDir, keyFile)); err != nil || string(b) != keyFileText {
		t.Fatalf("the allowed write: %q %v", b, err)
	}
	turns := rg.Srv.Turns()
	if len(turns) < 2 || !geminiHasResponse(turns[1], "successfully created") {
		t.Fatalf("the model did not get the write's result: %d turns", len(turns))
	}
	keyVerdict(t, rg.Verdicts(), "allow", "manual (hooksup approve)", keyFile)
	geminiPromptClean(t, rg, tm)
}

func TestKeysGeminiFileDenied(t *testing.T) {
	t.Parallel()
	rg, tm := geminiFileDialog(t, mockapi.GeminiText("NEXT-TURN"))
	answerAndTime(t, rg.Run, tm, "Apply this change?", "denied WriteFile: "+keyFile, "deny")
	tm.WaitText(60*time.Second, "Request cancelled")
	if _, err := os.Stat(filepath.Join(rg.Env.WorkDir, keyFile)); err == nil {
		t.Fatal("the denied write was made")
	}
	keyVerdict(t, rg.Verdicts(), "deny", "manual (hooksup deny)", keyFile)
	// Escape ends gemini's turn and drops the call, as at its shell dialog: the model never
	// hears of it, and the next prompt follows the one before.
	if r := geminiPromptClean(t, rg, tm); geminiHasResponse(r, "") {
		t.Fatalf("the next request carries a result of the cancelled write: %s", r.Body)
	}
}

// codexFileDialog starts the real codex under hooksup's TUI and has the model write a new file
// with a patch where codex does not write on its own: outside the project and the temporary
// folders (/var/tmp). The mock's model has no apply_patch tool of its own, so the patch comes,
// as codex's models also send it, through exec_command ("apply_patch <<'EOF' …"), which codex
// takes as a patch and asks about with its patch dialog. It returns the file's path.
func codexFileDialog(t *testing.T, replies ...mockapi.ResponsesReply) (*e2e.RealCodex, *e2e.Tmux, string) {
	t.Helper()
	dir, err := os.MkdirTemp("/var/tmp", "hooksup-edits")
	if err != nil {
		t.Skipf("no folder in /var/tmp: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	path := filepath.Join(dir, keyFile)
	patch := "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: " + path + "\n+" + strings.ReplaceAll(strings.TrimSuffix(keyFileText, "\n"), "\n", "\n+") + "\n*** End Patch\nEOF\n"
	rc := newRealCodexTUI(t, &mockapi.ResponsesScript{Replies: append([]mockapi.ResponsesReply{mockapi.ShellCall(patch)}, replies...)})
	tm := e2e.StartTmux(t, 160, 45, rc.Env.Environ(), rc.Env.WorkDir, e2e.HooksupBin, "--debug", "--config", rc.Config(`mode = "auto"`), "codex")
	const wait = 45 * time.Second
	tm.WaitText(wait, "hooksup codex", "Ask Codex to do anything")
	promptCodex(t, tm, rc, "write the notes")
	tm.WaitText(wait, "Would you like to make the following edits?")
	s := e2e.WaitPermission(t, rc.Run, wait)
	fileQuestion(t, s, "apply_patch", path)
	if a := s.Pending[0].Permission.Always; !strings.HasPrefix(a, "allow edits of these files for the rest of this codex session") {
		t.Fatalf("the question's always: %q", a)
	}
	tm.WaitText(10*time.Second, "⚑ apply_patch: /var/tmp/")
	return rc, tm, path
}

func TestKeysCodexFileApproved(t *testing.T) {
	t.Parallel()
	rc, tm, path := codexFileDialog(t, mockapi.OutputText("WROTE-IT"))
	answerAndTime(t, rc.Run, tm, "Would you like to make", "allowed apply_patch: "+path, "approve")
	tm.WaitText(45*time.Second, "WROTE-IT")
	if b, err := os.ReadFile(path); err != nil || string(b) != keyFileText {
		t.Fatalf("the allowed patch: %q %v", b, err)
	}
	reqs := rc.Srv.Model()
	if len(reqs) < 2 || len(reqs[1].FunctionOutputs()) == 0 || !strings.Contains(reqs[1].FunctionOutputs()[0].Output, "Success. Updated the following files") {
		t.Fatalf("the model did not get the patch's result: %d requests", len(reqs))
	}
	keyVerdict(t, rc.Verdicts(), "allow", "manual (hooksup approve)", path)
}

func TestKeysCodexFileDenied(t *testing.T) {
	t.Parallel()
	rc, tm, path := codexFileDialog(t, mockapi.OutputText("NEXT-TURN"))
	answerAndTime(t, rc.Run, tm, "Would you like to make", "denied apply_patch: "+path, "deny")
	tm.WaitText(45*time.Second, "Conversation interrupted")
	if _, err := os.Stat(path); err == nil {
		t.Fatal("the denied patch was written")
	}
	keyVerdict(t, rc.Verdicts(), "deny", "manual (hooksup deny)", path)
	// Escape ends codex's turn: the next prompt's request carries the call's rejection.
	promptCodex(t, tm, rc, "next please")
	tm.WaitText(45*time.Second, "NEXT-TURN")
	reqs := rc.Srv.Model()
	if len(reqs) != 2 || reqs[1].LastInputText("user") != "next please" {
		t.Fatalf("%d model requests: the next is not the person's prompt", len(reqs))
	}
	outs := reqs[1].FunctionOutputs()
	t.Logf("the call's output in the next request: %+v", outs)
	if len(outs) != 1 || !strings.Contains(outs[0].Output, "aborted by user") {
		t.Fatalf("the next request does not carry the rejection: %+v", outs)
	}
}

// promptCodex types text into codex's composer and sends it, until the mock has the model
// request it makes: a busy codex can lose an Enter (the text then stays in its composer), and an
// Enter more on an empty composer sends nothing.
func promptCodex(t *testing.T, tm *e2e.Tmux, rc *e2e.RealCodex, text string) {
	t.Helper()
	n := len(rc.Srv.Model())
	typeIntoCodex(t, tm, text)
	deadline := time.Now().Add(45 * time.Second)
	for len(rc.Srv.Model()) == n {
		if time.Now().After(deadline) {
			t.Fatalf("codex sent no request for the prompt; screen:\n%s", tm.Screen())
		}
		tm.Keys("Enter")
		for wait := time.Now().Add(5 * time.Second); len(rc.Srv.Model()) == n && time.Now().Before(wait); {
			time.Sleep(100 * time.Millisecond)
		}
	}
}
