package hooks

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Decision is what hooksup answers a Stop or SubagentStop hook.
type Decision string

const (
	// Allow lets the agent stop.
	Allow Decision = "allow"
	// Block makes the agent continue, with Reason as the feedback it reads.
	Block Decision = "block"
	// Halt ends the turn at once: no further requests (continue:false).
	Halt Decision = "halt"
)

// MaxOutputChars is Claude Code's cap on hook output strings, in UTF-16 code units
// (JavaScript string length).
const MaxOutputChars = 10000

// Answer is a hook's verdict before encoding.
type Answer struct {
	Decision Decision
	// Reason is the feedback for Block (the model reads it as "Stop hook feedback").
	Reason string
	// StopReason is shown to the user for Halt.
	StopReason string
	// SystemMessage is a warning shown to the user, with any decision.
	SystemMessage string
}

type wireAnswer struct {
	Continue      *bool  `json:"continue,omitempty"`
	StopReason    string `json:"stopReason,omitempty"`
	Decision      string `json:"decision,omitempty"`
	Reason        string `json:"reason,omitempty"`
	SystemMessage string `json:"systemMessage,omitempty"`
}

// Encode returns what the hook prints on stdout and its exit code, exactly as Claude Code
// reads them: nothing and exit 0 to allow; {"decision":"block","reason":R} to block;
// {"continue":false,"stopReason":S} to halt; a systemMessage alongside when there is a warning.
// Every string is cut to MaxOutputChars. The exit code is always 0: exit 2 would show the
// model the whole hook command line.
func (a Answer) Encode() (stdout []byte, exit int) {
	var w wireAnswer
	switch a.Decision {
	case Block:
		w.Decision = "block"
		w.Reason = a.SentReason()
	case Halt:
		f := false
		w.Continue = &f
		w.StopReason = Truncate(a.StopReason, MaxOutputChars)
	}
	w.SystemMessage = Truncate(a.SystemMessage, MaxOutputChars)
	if w == (wireAnswer{}) {
		return nil, 0
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(w) // a struct of strings always encodes
	return b.Bytes(), 0
}

// SentReason is the reason a block sends the agent, as Encode writes it.
func (a Answer) SentReason() string {
	if r := Truncate(a.Reason, MaxOutputChars); r != "" {
		return r
	}
	return "hooksup: continue"
}

// DecodeAnswer reads a Stop hook's result the way Claude Code 2.1.330 does: exit 2 blocks with
// stderr as the reason; exit 0 with JSON may halt (continue:false wins over block) or block;
// anything else allows.
func DecodeAnswer(stdout []byte, exit int, stderr []byte) Answer {
	switch exit {
	case 2:
		return Answer{Decision: Block, Reason: string(stderr)}
	case 0:
	default:
		return Answer{Decision: Allow}
	}
	var w wireAnswer
	if json.Unmarshal(bytes.TrimSpace(stdout), &w) != nil {
		return Answer{Decision: Allow}
	}
	a := Answer{Decision: Allow, SystemMessage: w.SystemMessage}
	switch {
	case w.Continue != nil && !*w.Continue:
		a.Decision, a.StopReason = Halt, w.StopReason
	case w.Decision == "block":
		a.Decision, a.Reason = Block, w.Reason
	}
	return a
}

const truncMark = "\n… (cut by hooksup) …\n"

// Truncate cuts s to at most max UTF-16 code units, keeping its beginning and its end (where a
// failing command usually says why) around a marker. Valid UTF-8 stays valid.
func Truncate(s string, max int) string {
	if utf16Len(s) <= max {
		return s
	}
	budget := max - utf16Len(truncMark)
	if budget <= 0 {
		return headUnits(s, max)
	}
	head := headUnits(s, budget/4)
	tail := tailUnits(s, budget-utf16Len(head))
	return head + truncMark + tail
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += max(utf16.RuneLen(r), 1) // invalid bytes decode as U+FFFD: one unit
	}
	return n
}

// headUnits returns the longest prefix of s of at most n UTF-16 units.
func headUnits(s string, n int) string {
	units := 0
	for i, r := range s {
		u := max(utf16.RuneLen(r), 1)
		if units+u > n {
			return s[:i]
		}
		units += u
	}
	return s
}

// tailUnits returns the longest suffix of s of at most n UTF-16 units.
func tailUnits(s string, n int) string {
	units := 0
	i := len(s)
	for i > 0 {
		r, size := utf8.DecodeLastRuneInString(s[:i])
		u := max(utf16.RuneLen(r), 1)
		if units+u > n {
			break
		}
		units += u
		i -= size
	}
	return strings.Clone(s[i:])
}
