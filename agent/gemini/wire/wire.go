// Package wire is how Gemini CLI speaks the hook protocol (hooks.Dialect): all the hook client
// links of it.
package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/hooksup/hooksup/hooks"
)

// Dialect is Gemini CLI's: its hooks are modelled on Claude Code's, under other names.
type Dialect struct{}

func (Dialect) Name() string { return "gemini" }

// Input maps gemini's event names to hooksup's: AfterAgent is the Stop (gemini has no
// SubagentStop), BeforeAgent a prompt's start, and a ToolPermission notification a permission
// prompt. The chat it names is the person's file (the session's home only links to it). A
// stop's last message is the chat's latest reply, which gemini has written by then:
// its prompt_response repeats the pieces of a streamed reply and runs on across continuations.
func (Dialect) Input(in *hooks.Input) {
	// The chat is named through the session's home, which goes with the session: follow the
	// person's file itself.
	in.TranscriptPath = realPath(in.TranscriptPath)
	switch in.HookEventName {
	case "AfterAgent":
		in.HookEventName = hooks.Stop
		if in.LastAssistantMessage == "" {
			in.LastAssistantMessage = LastReply(in.TranscriptPath)
		}
	case "BeforeAgent":
		in.HookEventName = hooks.UserPromptSubmit
	case hooks.Notification:
		if in.NotificationType == "ToolPermission" {
			in.NotificationType = "permission_prompt"
		}
	}
}

// Answer is Claude Code's codec, which gemini reads the same way for AfterAgent.
func (Dialect) Answer(a hooks.Answer) ([]byte, int) { return a.Encode() }

// Ran: gemini sets GEMINI_PROJECT_DIR and GEMINI_CLI for its hooks, and CLAUDE_PROJECT_DIR too:
// surer than claude's sign.
func (Dialect) Ran(getenv func(string) string) int {
	if getenv("GEMINI_PROJECT_DIR") != "" || getenv("GEMINI_CLI") != "" {
		return 2
	}
	return 0
}

// realPath is p with its links resolved (its directory's, when p does not exist yet).
func realPath(p string) string {
	if p == "" {
		return p
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	if d, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
		return filepath.Join(d, filepath.Base(p))
	}
	return p
}

// geminiTail is how much of the end of a chat LastReply reads.
const geminiTail = 1 << 20

// LastReply is the text of the latest reply in Gemini CLI's chat at path ("" when none is
// found in its last MiB): the stop's last message, which the AfterAgent hook's prompt_response
// gives with its streamed pieces repeated.
func LastReply(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return ""
	}
	off := max(fi.Size()-geminiTail, 0)
	b := make([]byte, fi.Size()-off)
	if _, err := f.ReadAt(b, off); err != nil && !errors.Is(err, io.EOF) {
		return ""
	}
	for len(b) > 0 {
		i := bytes.LastIndexByte(bytes.TrimRight(b, "\n"), '\n')
		line := b[i+1:]
		b = b[:max(i, 0)]
		if !bytes.Contains(line, []byte(`"type":"gemini"`)) {
			continue
		}
		var l struct {
			Type    string          `json:"type"`
			Content json.RawMessage `json:"content"`
		}
		var text string
		if json.Unmarshal(line, &l) == nil && l.Type == "gemini" && json.Unmarshal(l.Content, &text) == nil && strings.TrimSpace(text) != "" {
			return text
		}
	}
	return ""
}

// ProjectDir is CLAUDE_PROJECT_DIR, which gemini sets for its hooks as claude does.
func (Dialect) ProjectDir(getenv func(string) string) string {
	return getenv("CLAUDE_PROJECT_DIR")
}
