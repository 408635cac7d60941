package agents

import (
	"os"
	"path/filepath"
	"strconv"
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

// Always presses gemini's own "Allow for this session", which at a file's dialog switches it to
// accepting edits: a second write in the same turn is made with no dialog and no new question.
func TestKeysGeminiFileAlways(t *testing.T) {
	t.Parallel()
	rg, tm := geminiFileDialog(t, mockapi.GeminiWriteFile("again.txt", "again\n"), mockapi.GeminiText("WROTE-BOTH"))
	answerAndTime(t, rg.Run, tm, "Apply this change?", "allowed WriteFile: "+keyFile, "approve", "--always")
	tm.WaitText(60*time.Second, "WROTE-BOTH")
	for _, f := range []string{keyFile, "again.txt"} {
		if _, err := os.Stat(filepath.Join(rg.Env.WorkDir, f)); err != nil {
			t.Fatalf("a file allowed always was not written: %v", err)
		}
	}
	nothingPending(t, rg.Run)
	keyVerdict(t, rg.Verdicts(), "always", "manual (hooksup approve)", keyFile)
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
// takes as a patch and asks about with its patch dialog; then(the file's path) are the replies
// after it. It returns the file's path.
func codexFileDialog(t *testing.T, then func(path string) []mockapi.ResponsesReply) (*e2e.RealCodex, *e2e.Tmux, string) {
	t.Helper()
	dir, err := os.MkdirTemp("/var/tmp", "hooksup-edits")
	if err != nil {
		t.Skipf("no folder in /var/tmp: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	path := filepath.Join(dir, keyFile)
	patch := "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: " + path + "\n+" + strings.ReplaceAll(strings.TrimSuffix(keyFileText, "\n"), "\n", "\n+") + "\n*** End Patch\nEOF\n"
	rc := newRealCodexTUI(t, &mockapi.ResponsesScript{Replies: append([]mockapi.ResponsesReply{mockapi.ShellCall(patch)}, then(path)...)})
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
	rc, tm, path := codexFileDialog(t, func(string) []mockapi.ResponsesReply { return []mockapi.ResponsesReply{mockapi.OutputText("WROTE-IT")} })
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

// Always takes codex's own "Yes, and don't ask again for these files": a second patch of the same
// file in the same turn is applied with no dialog and no new question, and codex writes no rule.
func TestKeysCodexFileAlways(t *testing.T) {
	t.Parallel()
	rc, tm, path := codexFileDialog(t, func(path string) []mockapi.ResponsesReply {
		return []mockapi.ResponsesReply{mockapi.ShellCall("apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: " + path + "\n@@\n-one\n+uno\n*** End Patch\nEOF\n"), mockapi.OutputText("WROTE-BOTH")}
	})
	answerAndTime(t, rc.Run, tm, "Would you like to make", "allowed apply_patch: "+path, "approve", "--always")
	tm.WaitText(45*time.Second, "WROTE-BOTH")
	if b, err := os.ReadFile(path); err != nil || string(b) != strings.Replace(keyFileText, "one", "uno", 1) {
		t.Fatalf("the patches allowed always: %q %v", b, err)
	}
	nothingPending(t, rc.Run)
	if _, err := os.Stat(filepath.Join(rc.Env.CodexHome, "rules", "default.rules")); err == nil {
		t.Fatal("always wrote a rule of codex's")
	}
	keyVerdict(t, rc.Verdicts(), "always", "manual (hooksup approve)", path)
}

func TestKeysCodexFileDenied(t *testing.T) {
	t.Parallel()
	rc, tm, path := codexFileDialog(t, func(string) []mockapi.ResponsesReply {
		return []mockapi.ResponsesReply{mockapi.OutputText("NEXT-TURN")}
	})
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

// qwenFileDialog starts the real qwen on its defaults (auto mode, which writes in the project
// without asking) under hooksup's TUI and has it write keyFile beside the project, which it asks
// about. It returns the file's path.
func qwenFileDialog(t *testing.T, replies ...mockapi.ChatReply) (*realQwen, *e2e.Tmux, string) {
	t.Helper()
	rq, tm, s, path := qwenFileDialogArgs(t, nil, filepath.Dir, func(string) []mockapi.ChatReply { return replies })
	if a := s.Pending[0].Permission.Always; a != "" {
		t.Fatalf("auto mode's file dialog offers always: %q", a)
	}
	return rq, tm, path
}

// qwenFileDialogArgs is qwenFileDialog with qwen's own arguments, keyFile written in the folder
// dir(the project), and then(the project) the replies after the write. Qwen shows a path in the
// project relative to it, and another whole.
func qwenFileDialogArgs(t *testing.T, args []string, dir func(string) string, then func(string) []mockapi.ChatReply) (*realQwen, *e2e.Tmux, web.Session, string) {
	t.Helper()
	e2e.RequireTmux(t)
	script := &mockapi.ChatScript{}
	srv := mockapi.NewChatServer(t, script, mockapi.WithQuiet())
	env := mockapi.NewQwenEnv(t, srv.URL, "")
	env.Setenv("TERM", "xterm-256color")
	env.Setenv("HOOKSUP_QWEN_BIN", env.Qwen)
	rq := &realQwen{HooksupEnv: e2e.NewHooksupEnv(t, "hq", env.Home, env.Setenv, srv.Run, env.Command), srv: srv, env: env}
	path := filepath.Join(dir(env.WorkDir), keyFile)
	script.Replies = append([]mockapi.ChatReply{mockapi.QwenWriteFile(path, keyFileText)}, then(env.WorkDir)...)
	tm := e2e.StartTmux(t, 160, 45, env.Environ(), env.WorkDir,
		append([]string{e2e.HooksupBin, "--debug", "--config", rq.Config(`mode = "auto"`), "qwen"}, args...)...)
	const wait = 90 * time.Second
	tm.WaitText(wait, "hooksup qwen", "Type your message")
	promptQwen(t, tm, rq, "write the notes")
	tm.WaitText(wait, "Apply this change?")
	s := e2e.WaitPermission(t, rq.Run, wait)
	shown := path
	if rel, err := filepath.Rel(env.WorkDir, path); err == nil && !strings.HasPrefix(rel, "..") {
		shown = rel
	}
	fileQuestion(t, s, "WriteFile", shown)
	tm.WaitText(10*time.Second, "⚑ WriteFile: "+shown[:min(len(shown), 20)])
	return rq, tm, s, path
}

// On --approval-mode default qwen asks about every write; always presses its own "Yes, allow
// always", which switches it to accepting edits: a second write in the same turn is made with no
// dialog and no new question, and nothing is written to qwen's settings.
func TestKeysQwenFileAlways(t *testing.T) {
	t.Parallel()
	var second string
	rq, tm, s, path := qwenFileDialogArgs(t, []string{"--approval-mode", "default"}, func(work string) string { return work }, func(work string) []mockapi.ChatReply {
		second = filepath.Join(work, "again.txt")
		return []mockapi.ChatReply{mockapi.QwenWriteFile(second, "again\n"), mockapi.ChatText("WROTE-BOTH")}
	})
	if a := s.Pending[0].Permission.Always; !strings.HasPrefix(a, "allow every file write and edit for the rest of this qwen session") {
		t.Fatalf("the question's always: %q", a)
	}
	answerAndTime(t, rq.Run, tm, "Apply this change?", "allowed WriteFile: "+keyFile, "approve", "--always")
	tm.WaitText(90*time.Second, "WROTE-BOTH")
	for _, f := range []string{path, second} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("a file allowed always was not written: %v", err)
		}
	}
	nothingPending(t, rq.Run)
	if _, err := os.Stat(filepath.Join(rq.env.WorkDir, ".qwen", "settings.json")); err == nil {
		t.Fatal("always wrote qwen's project settings")
	}
	keyVerdict(t, rq.Verdicts(), "always", "manual (hooksup approve)", keyFile)
}

func TestKeysQwenFileApproved(t *testing.T) {
	t.Parallel()
	rq, tm, path := qwenFileDialog(t, mockapi.ChatText("WROTE-IT"), mockapi.ChatText("NEXT-TURN"))
	answerAndTime(t, rq.Run, tm, "Apply this change?", "allowed WriteFile: "+path, "approve")
	tm.WaitText(60*time.Second, "WROTE-IT")
	if b, err := os.ReadFile(path); err != nil || string(b) != keyFileText {
		t.Fatalf("the allowed write: %q %v", b, err)
	}
	turns := rq.srv.Turns()
	if len(turns) < 2 || len(turns[1].ToolResults()) != 1 || !strings.Contains(turns[1].ToolResults()[0].Text(), "Successfully created") {
		t.Fatalf("the model did not get the write's result: %d turns", len(turns))
	}
	keyVerdict(t, rq.Verdicts(), "allow", "manual (hooksup approve)", path)
	qwenPromptClean(t, rq, tm)
}

func TestKeysQwenFileDenied(t *testing.T) {
	t.Parallel()
	rq, tm, path := qwenFileDialog(t, mockapi.ChatText("NEXT-TURN"))
	answerAndTime(t, rq.Run, tm, "Apply this change?", "denied WriteFile: "+path, "deny")
	tm.WaitText(60*time.Second, "Type your message")
	if _, err := os.Stat(path); err == nil {
		t.Fatal("the denied write was made")
	}
	keyVerdict(t, rq.Verdicts(), "deny", "manual (hooksup deny)", path)
	// Escape cancels the call and ends qwen's turn: the model reads the refusal with the next
	// prompt, as the call's result.
	r := qwenPromptClean(t, rq, tm)
	if len(rq.srv.Turns()) != 2 {
		t.Fatalf("%d turn requests: the denied call went on to the model before the next prompt", len(rq.srv.Turns()))
	}
	if res := r.ToolResults(); len(res) != 1 || !strings.Contains(res[0].Text(), "User did not allow tool call") {
		t.Fatalf("the next request does not carry the refusal: %+v", res)
	}
}

// copilotFileDialog starts the real copilot, on its default settings, under hooksup's TUI and
// has it create keyFile in the project, which it asks about, then answers with then(the
// project). It returns the file's path.
func copilotFileDialog(t *testing.T, then func(dir string) []mockapi.ChatReply) (*realCopilot, *e2e.Tmux, string) {
	t.Helper()
	e2e.RequireTmux(t)
	script := &mockapi.ChatScript{}
	srv := mockapi.NewChatServer(t, script, mockapi.WithQuiet())
	env := mockapi.NewCopilotEnv(t, srv.URL, "")
	env.Setenv("TERM", "xterm-256color")
	env.Setenv("HOOKSUP_COPILOT_BIN", env.Copilot)
	rc := &realCopilot{HooksupEnv: e2e.NewHooksupEnv(t, "hp", env.Home, env.Setenv, srv.Run, env.Command), Srv: srv, Env: env}
	path := filepath.Join(env.WorkDir, keyFile)
	script.Replies = append([]mockapi.ChatReply{mockapi.CopilotCreate(path, keyFileText)}, then(env.WorkDir)...)
	tm := e2e.StartTmux(t, 160, 45, env.Environ(), env.WorkDir, e2e.HooksupBin, "--debug", "--config", rc.Config(`mode = "auto"`), "copilot")
	const wait = 60 * time.Second
	tm.WaitText(wait, "Do you trust the files in this folder?", "❯ 1. Yes")
	tm.Keys("Enter")
	tm.WaitText(wait, "hooksup copilot", "Manual Approval")
	promptCopilot(t, tm, rc, "write the notes")
	tm.WaitText(wait, "Do you want to create")
	s := e2e.WaitPermission(t, rc.Run, wait)
	fileQuestion(t, s, "create", path+" (+3 -0)")
	if a := s.Pending[0].Permission.Always; !strings.HasPrefix(a, "allow file operations when in this directory (") {
		t.Fatalf("the question's always: %q", a)
	}
	tm.WaitText(10*time.Second, "⚑ create: /tmp/")
	return rc, tm, path
}

func TestKeysCopilotFileApproved(t *testing.T) {
	t.Parallel()
	rc, tm, path := copilotFileDialog(t, func(string) []mockapi.ChatReply {
		return []mockapi.ChatReply{mockapi.ChatText("WROTE-IT"), mockapi.ChatText("NEXT-TURN")}
	})
	answerAndTime(t, rc.Run, tm, "Do you want to create", "allowed create: "+path, "approve")
	tm.WaitText(60*time.Second, "WROTE-IT")
	if b, err := os.ReadFile(path); err != nil || string(b) != keyFileText {
		t.Fatalf("the allowed write: %q %v", b, err)
	}
	turns := rc.Srv.Turns()
	if len(turns) < 2 || len(turns[1].ToolResults()) != 1 || !strings.Contains(turns[1].ToolResults()[0].Text(), "Created file") {
		t.Fatalf("the model did not get the write's result: %d turns", len(turns))
	}
	keyVerdict(t, rc.Verdicts(), "allow", "manual (hooksup approve)", path+" (+3 -0)")
	copilotPromptClean(t, rc, tm)
}

// Always presses copilot's own "Yes, and don't ask again for file operations when in this
// directory": the file is written, copilot keeps the approval for the project's directory
// (its permissions-config.json, a "write" approval), and a second file in the same
// turn is written with no dialog and no new question.
func TestKeysCopilotFileAlways(t *testing.T) {
	t.Parallel()
	var second string
	rc, tm, path := copilotFileDialog(t, func(dir string) []mockapi.ChatReply {
		second = filepath.Join(dir, "again.txt")
		return []mockapi.ChatReply{mockapi.CopilotCreate(second, "again\n"), mockapi.ChatText("WROTE-BOTH")}
	})
	answerAndTime(t, rc.Run, tm, "Do you want to create", "allowed create: "+path, "approve", "--always")
	tm.WaitText(60*time.Second, "WROTE-BOTH")
	for _, f := range []string{path, second} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("a file allowed always was not written: %v", err)
		}
	}
	nothingPending(t, rc.Run)
	conf, err := os.ReadFile(filepath.Join(rc.Env.Home, ".copilot", "permissions-config.json"))
	if err != nil || !strings.Contains(string(conf), strconv.Quote(rc.Env.WorkDir)) || !strings.Contains(string(conf), `"kind": "write"`) {
		t.Fatalf("copilot's permissions after always: %q %v", conf, err)
	}
	keyVerdict(t, rc.Verdicts(), "always", "manual (hooksup approve)", path+" (+3 -0)")
}

func TestKeysCopilotFileDenied(t *testing.T) {
	t.Parallel()
	rc, tm, path := copilotFileDialog(t, func(string) []mockapi.ChatReply { return []mockapi.ChatReply{mockapi.ChatText("NEXT-TURN")} })
	answerAndTime(t, rc.Run, tm, "Do you want to create", "denied create: "+path, "deny")
	tm.WaitText(60*time.Second, "Operation cancelled by user")
	if _, err := os.Stat(path); err == nil {
		t.Fatal("the denied write was made")
	}
	keyVerdict(t, rc.Verdicts(), "deny", "manual (hooksup deny)", path+" (+3 -0)")
	// Escape ends copilot's turn: the next prompt's request carries the call as interrupted.
	r := copilotPromptClean(t, rc, tm)
	if res := r.ToolResults(); len(res) != 1 || !strings.Contains(res[0].Text(), "interrupted") {
		t.Fatalf("the next request does not carry the refused call: %+v", res)
	}
}

// deny --reason at copilot's file dialog types the reason into its third option, the one for
// feedback: the file is not written, the turn goes on, and the model reads the reason.
func TestKeysCopilotFileDeniedWithReason(t *testing.T) {
	t.Parallel()
	rc, tm, path := copilotFileDialog(t, func(string) []mockapi.ChatReply { return []mockapi.ChatReply{mockapi.ChatText("TOOK-THE-HINT")} })
	const reason = "write it under docs instead"
	answerAndTime(t, rc.Run, tm, "Do you want to create", "denied create: "+path, "deny", "--reason", reason)
	copilotReadTheReason(t, rc, tm, reason)
	if _, err := os.Stat(path); err == nil {
		t.Fatal("the denied write was made")
	}
	keyVerdict(t, rc.Verdicts(), "deny", "manual (hooksup deny)", path+" (+3 -0)")
}

// A file outside the project: copilot asks first about the path ("Allow path access", a
// question of its own), then about the file. Both are answered from the CLI.
func TestKeysCopilotPathApproved(t *testing.T) {
	t.Parallel()
	rc, tm, outside := copilotPathDialog(t, mockapi.ChatText("WROTE-IT"))
	answerAndTime(t, rc.Run, tm, "Allow path access", "allowed path access: "+outside, "approve")
	tm.WaitText(60*time.Second, "Do you want to create")
	s := e2e.WaitPermission(t, rc.Run, 60*time.Second)
	fileQuestion(t, s, "create", outside+" (+3 -0)")
	answerAndTime(t, rc.Run, tm, "Do you want to create", "allowed create: "+outside, "approve")
	tm.WaitText(60*time.Second, "WROTE-IT")
	if b, err := os.ReadFile(outside); err != nil || string(b) != keyFileText {
		t.Fatalf("the allowed write: %q %v", b, err)
	}
}

func TestKeysCopilotPathDenied(t *testing.T) {
	t.Parallel()
	rc, tm, outside := copilotPathDialog(t, mockapi.ChatText("NEXT-TURN"))
	answerAndTime(t, rc.Run, tm, "Allow path access", "denied path access: "+outside, "deny")
	tm.WaitText(60*time.Second, "Operation cancelled by user")
	if _, err := os.Stat(outside); err == nil {
		t.Fatal("the denied write was made")
	}
	keyVerdict(t, rc.Verdicts(), "deny", "manual (hooksup deny)", outside)
}

// copilotPathDialog starts the real copilot as copilotFileDialog does, and has it create keyFile
// beside the project, outside the paths it may write: the question is its path's.
func copilotPathDialog(t *testing.T, replies ...mockapi.ChatReply) (*realCopilot, *e2e.Tmux, string) {
	t.Helper()
	e2e.RequireTmux(t)
	script := &mockapi.ChatScript{}
	srv := mockapi.NewChatServer(t, script, mockapi.WithQuiet())
	env := mockapi.NewCopilotEnv(t, srv.URL, "")
	env.Setenv("TERM", "xterm-256color")
	env.Setenv("HOOKSUP_COPILOT_BIN", env.Copilot)
	rc := &realCopilot{HooksupEnv: e2e.NewHooksupEnv(t, "hp", env.Home, env.Setenv, srv.Run, env.Command), Srv: srv, Env: env}
	outside := filepath.Join(filepath.Dir(env.WorkDir), keyFile)
	script.Replies = append([]mockapi.ChatReply{mockapi.CopilotCreate(outside, keyFileText)}, replies...)
	tm := e2e.StartTmux(t, 160, 45, env.Environ(), env.WorkDir, e2e.HooksupBin, "--debug", "--config", rc.Config(`mode = "auto"`), "copilot")
	const wait = 60 * time.Second
	tm.WaitText(wait, "Do you trust the files in this folder?", "❯ 1. Yes")
	tm.Keys("Enter")
	tm.WaitText(wait, "hooksup copilot", "Manual Approval")
	promptCopilot(t, tm, rc, "write the notes")
	tm.WaitText(wait, "Allow path access")
	s := e2e.WaitPermission(t, rc.Run, wait)
	fileQuestion(t, s, "path access", outside)
	if a := s.Pending[0].Permission.Always; !strings.HasPrefix(a, "allow this path for the rest of this copilot session") {
		t.Fatalf("the question's always: %q", a)
	}
	return rc, tm, outside
}
