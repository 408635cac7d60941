package claude

import (
	"encoding/json"
	"strings"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/termsafe"
)

// Claude's PermissionRequest hook runs beside the dialog it announces, and the first answer
// wins: the person's at the dialog, or the hook's (agent.Permissions). A later one is ignored.
// In its default (auto) mode claude's own fallback dialog fires no PermissionRequest; the ones
// that fire there (a hook's "ask") are answerable the same way.

// AnswersPermission: every PermissionRequest claude fires comes beside a dialog.
func (Agent) AnswersPermission(*hooks.Input) bool { return true }

// permissionUpdate is one of claude's PermissionUpdate values, as a PermissionRequest's
// permission_suggestions offers them and its answer's updatedPermissions takes them.
type permissionUpdate struct {
	Type  string `json:"type"`
	Rules []struct {
		ToolName    string `json:"toolName"`
		RuleContent string `json:"ruleContent,omitempty"`
	} `json:"rules,omitempty"`
	Behavior    string   `json:"behavior,omitempty"`
	Mode        string   `json:"mode,omitempty"`
	Directories []string `json:"directories,omitempty"`
	Destination string   `json:"destination"`
}

// AlwaysRule is claude's first suggestion of a rule for the call (its input's
// permission_suggestions); without one, a Bash command is allowed from now on by its exact text
// in the project's local settings (claude's own "don't ask again" for a command), and another
// tool takes claude's first suggestion of any kind (a directory added, a mode for the session).
// A suggested directory alone would not spare the next Bash command its dialog.
func (Agent) AlwaysRule(in *hooks.Input) (string, json.RawMessage, bool) {
	var sugg []json.RawMessage
	_ = json.Unmarshal(in.PermissionSuggestions, &sugg)
	var first json.RawMessage
	var firstWords string
	for _, raw := range sugg {
		var u permissionUpdate
		if json.Unmarshal(raw, &u) != nil {
			continue
		}
		words := u.words()
		if words == "" {
			continue
		}
		if u.Type == "addRules" {
			return words, raw, true
		}
		if first == nil {
			first, firstWords = raw, words
		}
	}
	if in.ToolName != "Bash" {
		return firstWords, first, first != nil
	}
	if in.ToolName != "Bash" {
		return "", nil, false
	}
	var ti struct {
		Command string `json:"command"`
	}
	if json.Unmarshal(in.ToolInput, &ti) != nil || strings.TrimSpace(ti.Command) == "" {
		return "", nil, false
	}
	rule, err := json.Marshal(map[string]any{"type": "addRules", "behavior": "allow", "destination": "localSettings",
		"rules": []map[string]string{{"toolName": "Bash", "ruleContent": ti.Command}}})
	if err != nil {
		return "", nil, false
	}
	var u permissionUpdate
	_ = json.Unmarshal(rule, &u)
	return u.words(), rule, true
}

// words says what u writes, terminal-safe: "allow Bash(npm test) in .claude/settings.local.json";
// "" for an update hooksup does not know.
func (u permissionUpdate) words() string {
	where := map[string]string{
		"localSettings":   "in .claude/settings.local.json",
		"projectSettings": "in .claude/settings.json",
		"userSettings":    "in ~/.claude/settings.json",
		"session":         "for this session",
		"cliArg":          "for this session",
	}[u.Destination]
	if where == "" {
		return ""
	}
	var what string
	switch u.Type {
	case "addRules":
		var rules []string
		for _, r := range u.Rules {
			if r.RuleContent != "" {
				rules = append(rules, r.ToolName+"("+r.RuleContent+")")
			} else {
				rules = append(rules, r.ToolName)
			}
		}
		if len(rules) == 0 {
			return ""
		}
		what = u.Behavior + " " + strings.Join(rules, ", ")
	case "addDirectories":
		if len(u.Directories) == 0 {
			return ""
		}
		what = "add the working directory " + strings.Join(u.Directories, ", ")
	case "setMode":
		if u.Mode == "" {
			return ""
		}
		what = "switch to " + u.Mode + " mode"
	default:
		return ""
	}
	return termsafe.String(what + " " + where)
}

// PermissionAnswer is the PermissionRequest hook's output: allow, allow with the rule written
// (always), or deny with a message claude gives the model as the tool's result (the turn goes
// on).
func (Agent) PermissionAnswer(decision, message string, rule json.RawMessage) []byte {
	d := map[string]any{"behavior": "allow"}
	switch decision {
	case "deny":
		if strings.TrimSpace(message) == "" {
			message = "The user denied this tool call."
		}
		d = map[string]any{"behavior": "deny", "message": message}
	case "always":
		if len(rule) > 0 {
			d["updatedPermissions"] = []json.RawMessage{rule}
		}
	}
	b, _ := json.Marshal(map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": hooks.PermissionRequest, "decision": d}})
	return b
}
