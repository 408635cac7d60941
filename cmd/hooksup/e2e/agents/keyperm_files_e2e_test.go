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
