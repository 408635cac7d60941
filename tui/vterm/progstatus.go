package vterm

import (
	"bytes"
	"encoding/base64"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The Program Status Protocol (OSC 7501) lets a program tell its terminal what it is doing:
// idle, working, done, blocked on the person (a permission, a question, a sign-in) or failed,
// and why. Claude Code asks whether the terminal speaks it with OSC 7501 ; ? right before its
// DA1 probe, and reports only to a terminal that answered first. A report is key=value pairs
// joined by ':' (state, kind, id, app, progress, and title and msg in base64); a report a
// terminal must discard (an unknown state, a bad id, text too long, not base64 or with a
// control character) is dropped whole. See https://www.superlogical.com/rex/docs/build/program-status.

// ProgramStatus is one report of the Program Status Protocol.
type ProgramStatus struct {
	// ID names the record the report replaces: "" is the program itself (the root record);
	// "task/a1" is one of the things it runs (Claude Code's subagents and tasks).
	ID string
	// State is "idle", "working", "done", "blocked", "error", or "clear" (the record and every
	// record under it end; the root's clear ends them all).
	State string
	// Kind says what a blocked program waits for: "permission", "question" or "auth"; "" when
	// the report names none (or an unknown one).
	Kind string
	// App names the program (Claude Code says "claude-code"); "" when absent or unusable.
	App string
	// Progress is 0–100 on a working or blocked report, else -1.
	Progress int
	// Title and Msg are the decoded texts, without formatting characters.
	Title, Msg string
}

// programStatusReply answers the query: the query's own body, as the protocol asks.
const programStatusReply = "\x1b]7501;?\x1b\\"

// Protocol limits.
const (
	psMaxKey      = 16
	psMaxID       = 128
	psMaxIDDepth  = 8
	psMaxSegment  = 32
	psMaxTitle    = 192
	psMaxMsg      = 2048
	psMaxTitleB64 = 256
	psMaxMsgB64   = 2732
)

// isProgramStatusQuery reports whether an OSC 7501 body is the support query.
func isProgramStatusQuery(body []byte) bool { return string(bytes.TrimSpace(body)) == "?" }

// parseProgramStatus reads the body of an OSC 7501 report (the bytes after "7501;"); ok is
// false when the protocol says to discard it.
func parseProgramStatus(body []byte) (ProgramStatus, bool) {
	var state, id, kind, app, progress, title, msg []byte
	var hasState, hasID, hasTitle, hasMsg bool
	for pair := range bytes.SplitSeq(body, []byte{':'}) {
		k, v, ok := bytes.Cut(pair, []byte{'='})
		if !ok {
			continue
		}
		k = bytes.TrimSpace(k)
		if len(k) > psMaxKey {
			return ProgramStatus{}, false
		}
		if len(k) == 0 || !isLower(k) {
			continue
		}
		v = bytes.TrimSpace(v)
		switch string(k) {
		case "state":
			state, hasState = v, true
		case "id":
			id, hasID = v, true
		case "kind":
			kind = v
		case "app":
			app = v
		case "progress":
			progress = v
		case "title":
			title, hasTitle = v, true
		case "msg":
			msg, hasMsg = v, true
		}
	}
	if !hasState {
		return ProgramStatus{}, false
	}
	s := ProgramStatus{Progress: -1}
	if hasID && !validID(id) {
		return ProgramStatus{}, false
	}
	s.ID = string(id)
	if validSegment(app) {
		s.App = string(app)
	}
	var ok bool
	if hasTitle {
		if s.Title, ok = decodeStatusText(title, psMaxTitleB64, psMaxTitle); !ok {
			return ProgramStatus{}, false
		}
	}
	if hasMsg {
		if s.Msg, ok = decodeStatusText(msg, psMaxMsgB64, psMaxMsg); !ok {
			return ProgramStatus{}, false
		}
	}
	switch st := string(state); st {
	case "clear":
		return ProgramStatus{ID: s.ID, State: st, Progress: -1}, true
	case "idle", "working", "done", "blocked", "error":
		s.State = st
	default:
		return ProgramStatus{}, false
	}
	if s.State == "blocked" {
		switch k := string(kind); k {
		case "permission", "question", "auth":
			s.Kind = k
		}
	}
	if s.State == "working" || s.State == "blocked" {
		if n, err := strconv.Atoi(string(progress)); err == nil && n >= 0 && n <= 100 {
			s.Progress = n
		}
	}
	return s, true
}

func isLower(b []byte) bool {
	for _, c := range b {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// validSegment: 1–32 of [A-Za-z0-9_.+-].
func validSegment(b []byte) bool {
	if len(b) == 0 || len(b) > psMaxSegment {
		return false
	}
	for _, c := range b {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '.', c == '+', c == '-':
		default:
			return false
		}
	}
	return true
}

// validID: up to 8 segments joined by '/', at most 128 bytes.
func validID(b []byte) bool {
	if len(b) > psMaxID {
		return false
	}
	depth := 0
	for seg := range bytes.SplitSeq(b, []byte{'/'}) {
		depth++
		if depth > psMaxIDDepth || !validSegment(seg) {
			return false
		}
	}
	return true
}

// decodeStatusText decodes a base64 text (padding optional); ok is false when it breaks a
// limit, is not base64 or UTF-8, or holds a control character. Formatting characters
// (bidirectional overrides, zero-width spaces) are removed, so a status cannot reorder or hide
// the text around it.
func decodeStatusText(v []byte, maxEncoded, maxDecoded int) (string, bool) {
	if len(v) > maxEncoded {
		return "", false
	}
	b, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(string(v), "="))
	if err != nil || len(b) > maxDecoded || !utf8.Valid(b) {
		return "", false
	}
	s := string(b)
	clean := true
	for _, r := range s {
		if unicode.IsControl(r) {
			return "", false
		}
		if unicode.Is(unicode.Cf, r) {
			clean = false
		}
	}
	if !clean {
		s = strings.Map(func(r rune) rune {
			if unicode.Is(unicode.Cf, r) {
				return -1
			}
			return r
		}, s)
	}
	return s, true
}
