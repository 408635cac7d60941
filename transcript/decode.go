package transcript

import (
	"bytes"
	"hash/maphash"
	"time"
	"unicode/utf8"
)

// decoder turns one line into a Record. It decodes only the members it needs (see
// jsonscan.go) and interns the short strings that repeat (models, tool names, types), so a
// line costs one pass over its bytes and few allocations.
type decoder struct {
	maxText int
	seed    maphash.Seed
	names   map[string]string
	scratch []byte
}

// maxNames bounds the intern table; names past it are still returned, just not interned.
const maxNames = 4096

func newDecoder(maxText int) *decoder {
	return &decoder{maxText: maxText, seed: maphash.MakeSeed(), names: make(map[string]string)}
}

// name returns the JSON string raw as an interned string ("" if raw is not a string).
func (d *decoder) name(raw []byte) string {
	if !isString(raw) {
		return ""
	}
	s := raw[1 : len(raw)-1]
	if bytes.IndexByte(s, '\\') >= 0 || !utf8.Valid(s) {
		return d.text(raw, d.maxText)
	}
	if v, ok := d.names[string(s)]; ok {
		return v
	}
	v := string(s)
	if len(d.names) < maxNames && len(v) <= 256 {
		d.names[v] = v
	}
	return v
}

// text returns the JSON string raw decoded and cut to max bytes ("…" marks a cut).
func (d *decoder) text(raw []byte, max int) string {
	out, truncated, ok := appendString(d.scratch[:0], raw, max)
	if !ok {
		return ""
	}
	if truncated {
		out = append(out, "…"...)
	}
	d.scratch = out[:0]
	if cap(d.scratch) > 1<<16 {
		d.scratch = nil // do not keep a large buffer after a long text
	}
	return string(out)
}

// top holds the raw values of the top-level members the parser reads.
type top struct {
	msg message // the message object, walked in the same pass

	typ, subtype, timestamp, requestID, isAPIError, errorField, apiErrorStatus,
	attachment, isMeta, isCompactSummary, isVisibleOnly, content, level, durationMs,
	messageCount, hookInfos, hookErrors, failedIdx, prevented, stopReason, toolUseID, aiTitle,
	compactMeta, turnOrigin, attributionAgent, retryAttempt, agentID []byte
}

// message holds the raw members of a line's message object that the parser reads.
type message struct {
	id, model, content, usage, stopReason []byte
}

// walk reads the members of the message object at the start of b and returns the object's
// length, so the line's scan does not go over it twice.
func (msg *message) walk(b []byte) (int, bool) {
	*msg = message{}
	m, _ := object(b)
	for {
		k, v, ok := m.next()
		if !ok {
			break
		}
		switch string(k) {
		case "id":
			msg.id = v
		case "model":
			msg.model = v
		case "content":
			msg.content = v
		case "usage":
			msg.usage = v
		case "stop_reason":
			msg.stopReason = v
		}
	}
	return m.end(), !m.err
}

// typePrefix is how Claude Code starts the lines of its bookkeeping types (queue-operation,
// api-request, cost-state, …): with the type first, so most lines hooksup skips are told
// apart without scanning them.
const typePrefix = `{"type":"`

// decode parses one line (without its newline).
func (d *decoder) decode(line []byte) Record {
	if bytes.HasPrefix(line, []byte(typePrefix)) {
		rest := line[len(typePrefix):]
		if q := bytes.IndexByte(rest, '"'); q >= 0 && bytes.IndexByte(rest[:q], '\\') < 0 {
			switch string(rest[:q]) {
			case "user", "assistant", "system", "attachment", "ai-title":
			default:
				// A type hooksup skips: check only that the line looks whole.
				end := len(line) - 1
				for end > 0 && (line[end] == ' ' || line[end] == '\t' || line[end] == '\r') {
					end--
				}
				if line[end] != '}' {
					return Record{Kind: KindMalformed}
				}
				return Record{Kind: KindOther, Type: d.name(line[len(typePrefix)-1 : len(typePrefix)+q+1])}
			}
		}
	}
	var f top
	m, ok := object(line)
	if !ok {
		return Record{Kind: KindMalformed}
	}
	for {
		k, ok := m.nextKey()
		if !ok {
			break
		}
		if rest := m.rest(); string(k) == "message" && len(rest) > 0 && rest[0] == '{' {
			n, ok := f.msg.walk(rest)
			if !ok {
				return Record{Kind: KindMalformed}
			}
			m.skipTo(n)
			continue
		}
		v, ok := m.value()
		if !ok {
			break
		}
		switch string(k) {
		case "type":
			f.typ = v
		case "subtype":
			f.subtype = v
		case "timestamp":
			f.timestamp = v
		case "message":
			f.msg = message{} // not an object: no members
		case "requestId":
			f.requestID = v
		case "isApiErrorMessage":
			f.isAPIError = v
		case "error":
			f.errorField = v
		case "apiErrorStatus":
			f.apiErrorStatus = v
		case "attachment":
			f.attachment = v
		case "isMeta":
			f.isMeta = v
		case "isCompactSummary":
			f.isCompactSummary = v
		case "isVisibleInTranscriptOnly":
			f.isVisibleOnly = v
		case "content":
			f.content = v
		case "level":
			f.level = v
		case "durationMs":
			f.durationMs = v
		case "messageCount":
			f.messageCount = v
		case "hookInfos":
			f.hookInfos = v
		case "hookErrors":
			f.hookErrors = v
		case "failedHookErrorIndexes":
			f.failedIdx = v
		case "preventedContinuation":
			f.prevented = v
		case "stopReason":
			f.stopReason = v
		case "toolUseID":
			f.toolUseID = v
		case "aiTitle":
			f.aiTitle = v
		case "compactMetadata":
			f.compactMeta = v
		case "turnOrigin":
			f.turnOrigin = v
		case "attributionAgent":
			f.attributionAgent = v
		case "retryAttempt":
			f.retryAttempt = v
		case "agentId":
			f.agentID = v
		}
	}
	if m.err || skipWS(line, m.end()) != len(line) {
		return Record{Kind: KindMalformed}
	}
	r := Record{Type: d.name(f.typ), Time: parseTime(f.timestamp)}
	ok = true
	switch r.Type {
	case "assistant":
		ok = d.assistant(&f, &r)
	case "user":
		ok = d.user(&f, &r)
	case "system":
		ok = d.system(&f, &r)
	case "attachment":
		ok = d.attachment(&f, &r)
	case "ai-title":
		r.Kind = KindTitle
		r.Text = d.text(f.aiTitle, d.maxText)
	default:
		r.Kind = KindOther
	}
	if !ok {
		return Record{Kind: KindMalformed, Type: r.Type}
	}
	return r
}

// parseTime reads Claude Code's timestamps ("2026-11-22T09:25:40.572Z") without allocating;
// other RFC 3339 forms go through time.Parse. A missing or bad timestamp is the zero time.
func parseTime(raw []byte) time.Time {
	if !isString(raw) {
		return time.Time{}
	}
	s := raw[1 : len(raw)-1]
	if len(s) == 24 && s[4] == '-' && s[7] == '-' && s[10] == 'T' && s[13] == ':' && s[16] == ':' && s[19] == '.' && s[23] == 'Z' {
		num := func(b []byte) int {
			n := 0
			for _, c := range b {
				if c < '0' || c > '9' {
					return -1
				}
				n = n*10 + int(c-'0')
			}
			return n
		}
		y, mo, dd, h, mi, sec, ms := num(s[0:4]), num(s[5:7]), num(s[8:10]), num(s[11:13]), num(s[14:16]), num(s[17:19]), num(s[20:23])
		if y >= 0 && mo >= 1 && mo <= 12 && dd >= 1 && dd <= 31 && h >= 0 && h < 24 && mi >= 0 && mi < 60 && sec >= 0 && sec < 61 && ms >= 0 {
			return time.Date(y, time.Month(mo), dd, h, mi, sec, ms*int(time.Millisecond), time.UTC)
		}
	}
	t, err := time.Parse(time.RFC3339Nano, string(s))
	if err != nil {
		return time.Time{}
	}
	return t
}
