// Package wire is how Qwen Code speaks the hook protocol (hooks.Dialect): all the hook client
// links of it.
package wire

import "github.com/hooksup/hooksup/hooks"

// Dialect is Qwen Code's: a fork of Gemini CLI that speaks Claude Code's hook contract (its
// events, input and answer under Claude Code's names), but for a halt.
type Dialect struct{}

func (Dialect) Name() string { return "qwen" }

// Input: qwen's input is Claude Code's (Stop, SubagentStop, Notification with
// permission_prompt and idle_prompt, last_assistant_message, stop_hook_active, prompt_id), but
// qwen fires UserPromptSubmit also for what it sends the model itself within a turn: a tool's
// result (an empty prompt) and the reasons of the Stop hooks that blocked. Only a prompt of the
// person's carries submitted_prompt (0.24.4).
func (Dialect) Input(in *hooks.Input) {
	if in.HookEventName == hooks.UserPromptSubmit && in.Extra["submitted_prompt"] == nil {
		in.Continuing = true
	}
}

// Answer is Claude Code's codec but for a halt: qwen reads {"continue":false} on a Stop as one
// more block, and continues with the stop reason as its prompt (0.24.4). It has no answer that
// ends a turn at once, so a halt is sent as an allow with hooksup's message, which qwen shows:
// the turn ends because the stop is let happen.
func (Dialect) Answer(a hooks.Answer) ([]byte, int) {
	if a.Decision == hooks.Halt {
		msg := "hooksup: halted"
		if a.StopReason != "" {
			msg += ": " + a.StopReason
		}
		if a.SystemMessage != "" {
			msg += "\n" + a.SystemMessage
		}
		a = hooks.Answer{Decision: hooks.Allow, SystemMessage: msg}
	}
	return a.Encode()
}

// Ran: qwen sets QWEN_PROJECT_DIR and QWEN_CODE_SESSION_ID for its hooks, besides Gemini CLI's
// GEMINI_PROJECT_DIR and Claude Code's CLAUDE_PROJECT_DIR: surer than either's sign.
func (Dialect) Ran(getenv func(string) string) int {
	if getenv("QWEN_PROJECT_DIR") != "" || getenv("QWEN_CODE_SESSION_ID") != "" {
		return 3
	}
	return 0
}

// ProjectDir is QWEN_PROJECT_DIR, else CLAUDE_PROJECT_DIR (qwen sets both for its hooks).
func (Dialect) ProjectDir(getenv func(string) string) string {
	if d := getenv("QWEN_PROJECT_DIR"); d != "" {
		return d
	}
	return getenv("CLAUDE_PROJECT_DIR")
}
