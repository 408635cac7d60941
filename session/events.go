package session

import (
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/verdictlog"
)

// HookReceived: claude ran one of hooksup's hooks.
type HookReceived struct {
	At
	Input *hooks.Input `json:"input"`
}

// VerdictDecided: a stop was decided (also written to the verdict log).
type VerdictDecided struct {
	At
	Verdict verdictlog.Verdict `json:"verdict"`
}

// OtherHooksReported: claude recorded what the other hooks at a stop did (its transcript
// lags: this comes after the stop's verdict). Entry is the verdict log's OtherHooks entry; its
// Stop names the verdict.
type OtherHooksReported struct {
	At
	Entry verdictlog.Verdict `json:"entry"`
}

// Interrupted: the person pressed Escape; the rest of the turn may stop at once.
type Interrupted struct {
	At
	Turn int `json:"turn"`
}

// AgentExited: the supervised agent's process ended, or could not start (Err).
type AgentExited struct {
	At
	Code int   `json:"code"` // its exit status; 128+N when signal N ended it; 127 when it could not start
	Err  error `json:"err"`  // why it could not start
}
