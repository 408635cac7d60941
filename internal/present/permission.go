package present

import (
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/termsafe"
)

// The words of a permission question (an agent's permission dialog answered from elsewhere),
// which hooksup approve and deny, watch, the page and hooksup log share.

// PermissionDecision is what an answer to a permission question is called on the hub's wire:
// approve allows it once (always: and writes the rule), deny refuses it.
func PermissionDecision(action string, always bool) (hooks.Decision, bool) {
	switch {
	case action == "approve" && always:
		return "always", true
	case action == "approve":
		return "allow", true
	case action == "deny" && !always:
		return "deny", true
	}
	return "", false
}

// PermissionAsks says what the agent asks to run: "claude asks to run Bash: touch created.txt".
func PermissionAsks(agent, tool, command string) string {
	s := AgentName(agent) + " asks to run " + termsafe.String(tool)
	if command != "" {
		s += ": " + termsafe.String(command)
	}
	return s
}

// PermissionAnswered is the line that says what an answer did to a permission question in
// session ("" for none): "allowed Bash: touch created.txt in session 1a2b3c4d (~/src/a)", with
// a denial's reason, or the rule an "always" wrote.
func PermissionAnswered(d hooks.Decision, tool, command, rule, session, reason string) string {
	what := termsafe.String(tool)
	if command != "" {
		what += ": " + termsafe.String(command)
	}
	if session != "" {
		what += " in " + session
	}
	switch d {
	case "deny":
		if reason != "" {
			return "denied " + what + ": " + FirstLine(reason)
		}
		return "denied " + what
	case "always":
		return "allowed " + what + ", and from now on: " + termsafe.String(rule)
	}
	return "allowed " + what
}

// PermissionAnswers are the ways to answer a permission question, in the page's words: Allow,
// Always… (when the agent offers a rule), Deny, and Deny… (when a deny's reason reaches the
// model: it opens a field for it); Decision is the hub's word for each.
func PermissionAnswers(always, denyReason bool) []AnswerWords {
	out := []AnswerWords{{Action: "allow", Label: "Allow", Help: "allow it once", Decision: "allow"}}
	if always {
		out = append(out, AnswerWords{Action: "always", Label: "Always…", Help: "allow it, and from now on as the rule says", Decision: "always"})
	}
	out = append(out, AnswerWords{Action: "deny", Label: "Deny", Help: "refuse it: the tool does not run", Decision: "deny"})
	if denyReason {
		out = append(out, AnswerWords{Action: "reason", Label: "Deny…", Help: "refuse it, and tell the agent why", Decision: "deny"})
	}
	return out
}
