package claude

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/hooks"
)

// "Always" takes claude's suggested rule first, else a Bash command's exact text in the local
// settings, else claude's first suggestion of another kind; its words are terminal-safe.
func TestAlwaysRule(t *testing.T) {
	for _, c := range []struct {
		name, tool, input, sugg, words, rule string
	}{
		{"a suggested rule", "Bash", `{"command":"python3 -c 1"}`,
			`[{"type":"addDirectories","directories":["/tmp/x"],"destination":"session"},{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"python3 *"}],"behavior":"allow","destination":"localSettings"}]`,
			"allow Bash(python3 *) in .claude/settings.local.json", `"ruleContent":"python3 *"`},
		{"a directory alone does not spare the command", "Bash", `{"command":"rm -rf /tmp/x"}`,
			`[{"type":"addDirectories","directories":["/tmp/x"],"destination":"session"}]`,
			"allow Bash(rm -rf /tmp/x) in .claude/settings.local.json", `"ruleContent":"rm -rf /tmp/x"`},
		{"another tool takes the suggestion", "Write", `{"file_path":"/tmp/x"}`,
			`[{"type":"setMode","mode":"acceptEdits","destination":"session"}]`,
			"switch to acceptEdits mode for this session", `"mode":"acceptEdits"`},
		{"controls shown", "Bash", "{\"command\":\"echo \\u001b[2J\"}", ``,
			`allow Bash(echo \e[2J) in .claude/settings.local.json`, `"ruleContent":"echo \u001b[2J"`},
	} {
		in := &hooks.Input{ToolName: c.tool, ToolInput: json.RawMessage(c.input)}
		if c.sugg != "" {
			in.PermissionSuggestions = json.RawMessage(c.sugg)
		}
		words, rule, ok := Agent{}.AlwaysRule(in)
		if !ok || words != c.words || !json.Valid(rule) || !strings.Contains(string(rule), c.rule) {
			t.Errorf("%s: %q %s %v, want %q with %s", c.name, words, rule, ok, c.words, c.rule)
		}
	}
	if _, _, ok := (Agent{}).AlwaysRule(&hooks.Input{ToolName: "Write", ToolInput: json.RawMessage(`{"file_path":"x"}`)}); ok {
		t.Error("a rule offered for a tool claude suggested none for")
	}
}

func TestPermissionAnswer(t *testing.T) {
	for _, c := range []struct{ decision, message, rule, want string }{
		{"allow", "", "", `{"hookSpecificOutput":{"decision":{"behavior":"allow"},"hookEventName":"PermissionRequest"}}`},
		{"deny", "not now", "", `{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"not now"},"hookEventName":"PermissionRequest"}}`},
		{"deny", "", "", `{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"The user denied this tool call."},"hookEventName":"PermissionRequest"}}`},
		{"always", "", `{"type":"setMode","mode":"acceptEdits","destination":"session"}`,
			`{"hookSpecificOutput":{"decision":{"behavior":"allow","updatedPermissions":[{"type":"setMode","mode":"acceptEdits","destination":"session"}]},"hookEventName":"PermissionRequest"}}`},
	} {
		if got := string(Agent{}.PermissionAnswer(c.decision, c.message, json.RawMessage(c.rule))); got != c.want {
			t.Errorf("%s %q: %s, want %s", c.decision, c.message, got, c.want)
		}
	}
}
