package wire

import (
	"encoding/json"
	"testing"

	"github.com/hooksup/hooksup/hooks"
)

// A halt must not reach qwen as {"continue":false}, which it reads as one more block: it is an
// allow that says why the turn ends.
func TestHaltIsAnAllowWithHooksupsMessage(t *testing.T) {
	out, code := Dialect{}.Answer(hooks.Answer{Decision: hooks.Halt, StopReason: "halted by you"})
	var w map[string]any
	if err := json.Unmarshal(out, &w); err != nil || code != 0 {
		t.Fatalf("answer %q exit %d: %v", out, code, err)
	}
	if _, ok := w["continue"]; ok {
		t.Errorf("halt sends continue to qwen, which continues on it: %s", out)
	}
	if _, ok := w["decision"]; ok {
		t.Errorf("halt sends a decision: %s", out)
	}
	if w["systemMessage"] != "hooksup: halted: halted by you" {
		t.Errorf("systemMessage = %v", w["systemMessage"])
	}
	out, _ = Dialect{}.Answer(hooks.Answer{Decision: hooks.Block, Reason: "fix it"})
	if string(out) != `{"decision":"block","reason":"fix it"}`+"\n" {
		t.Errorf("block = %s", out)
	}
}

// qwen's hooks carry Gemini CLI's and Claude Code's signs too: qwen's own must win.
func TestRanIsSurerThanGeminisAndClaudes(t *testing.T) {
	env := map[string]string{"QWEN_PROJECT_DIR": "/p", "GEMINI_PROJECT_DIR": "/p", "CLAUDE_PROJECT_DIR": "/p", "QWEN_CODE_SESSION_ID": "s"}
	getenv := func(k string) string { return env[k] }
	if n := (Dialect{}).Ran(getenv); n <= 2 {
		t.Errorf("Ran = %d, not surer than gemini's 2", n)
	}
	if d := (Dialect{}).ProjectDir(getenv); d != "/p" {
		t.Errorf("ProjectDir = %q", d)
	}
	if n := (Dialect{}).Ran(func(string) string { return "" }); n != 0 {
		t.Errorf("Ran without qwen's variables = %d", n)
	}
}
