package transcript

import (
	"hash/maphash"

	"github.com/hooksup/hooksup/session"
)

func (d *decoder) assistant(f *top, r *Record) bool {
	r.Kind = KindAssistant
	msg := &f.msg
	r.Model = d.name(msg.model)
	r.StopReason = d.name(msg.stopReason)
	r.AgentType = d.name(f.attributionAgent)
	text, ok := d.blocks(msg.content, r)
	if !ok {
		return false
	}
	if boolValue(f.isAPIError) {
		r.Kind = KindAPIError
		r.APIError = d.apiError(f, text)
		return true
	}
	r.Text = text
	if r.Usage, r.HasUsage, ok = parseUsage(msg.usage); !ok {
		return false
	}
	if id := msg.id; isString(id) && len(id) > 2 {
		var h maphash.Hash
		h.SetSeed(d.seed)
		h.Write(id)
		h.WriteByte(0)
		if isString(f.requestID) {
			h.Write(f.requestID)
		}
		r.key = h.Sum64() | 1 // never 0, which means "no key"
	}
	return true
}

// blocks reads assistant content blocks: tool_use blocks go to r.Tools, text blocks are
// returned joined by newlines.
func (d *decoder) blocks(content []byte, r *Record) (string, bool) {
	if isString(content) {
		return d.text(content, d.maxText), true
	}
	a, ok := array(content)
	if !ok {
		return "", true
	}
	var text string
	for {
		_, el, ok := a.next()
		if !ok {
			break
		}
		b, ok := object(el)
		if !ok {
			continue
		}
		var typ, txt, id, name []byte
		for {
			k, v, ok := b.next()
			if !ok {
				break
			}
			switch string(k) {
			case "type":
				typ = v
			case "text":
				txt = v
			case "id":
				id = v
			case "name":
				name = v
			}
		}
		if b.err {
			return "", false
		}
		switch {
		case rawEquals(typ, "text"):
			if t := d.text(txt, d.maxText); text == "" {
				text = t
			} else if t != "" {
				text += "\n" + t
			}
		case rawEquals(typ, "tool_use"):
			r.Tools = append(r.Tools, ToolUse{ID: d.name(id), Name: d.name(name)})
		}
	}
	return text, !a.err
}

// parseUsage decodes a usage object; has is false if raw is not an object, ok false if it is
// not well-formed.
func parseUsage(raw []byte) (u session.Usage, has, ok bool) {
	m, has := object(raw)
	if !has {
		return session.Usage{}, false, true
	}
	var breakdown int64
	hasBreakdown := false
	for {
		k, v, ok := m.next()
		if !ok {
			break
		}
		switch string(k) {
		case "input_tokens":
			u.InputTokens, _ = intValue(v)
		case "output_tokens":
			u.OutputTokens, _ = intValue(v)
		case "cache_creation_input_tokens":
			u.CacheCreationTokens, _ = intValue(v)
		case "cache_read_input_tokens":
			u.CacheReadTokens, _ = intValue(v)
		case "cache_creation":
			c, ok := object(v)
			if !ok {
				continue
			}
			for {
				k, v, ok := c.next()
				if !ok {
					break
				}
				if string(k) == "ephemeral_5m_input_tokens" || string(k) == "ephemeral_1h_input_tokens" {
					n, _ := intValue(v)
					breakdown += n
					hasBreakdown = true
				}
			}
			if c.err {
				return session.Usage{}, true, false
			}
		}
	}
	if u.CacheCreationTokens == 0 && hasBreakdown {
		u.CacheCreationTokens = breakdown
	}
	return u, true, !m.err
}

// apiError builds the APIError of a synthetic assistant error line.
func (d *decoder) apiError(f *top, text string) *session.APIError {
	e := &session.APIError{Message: text}
	if n, ok := intValue(f.apiErrorStatus); ok {
		e.Status = int(n)
	}
	if isString(f.errorField) {
		e.Code = d.name(f.errorField)
	} else {
		d.errorObject(f.errorField, e, 0)
	}
	return e
}

// errorObject fills e from an error object such as {"status":529,"error":{"type":
// "overloaded_error","message":"Overloaded"}}, looking a few levels deep.
func (d *decoder) errorObject(raw []byte, e *session.APIError, depth int) {
	m, ok := object(raw)
	if !ok || depth > 3 {
		return
	}
	for {
		k, v, ok := m.next()
		if !ok {
			return
		}
		switch string(k) {
		case "status":
			if n, ok := intValue(v); ok && e.Status == 0 {
				e.Status = int(n)
			}
		case "type":
			if t := d.name(v); t != "" && t != "error" && e.Code == "" {
				e.Code = t
			}
		case "message":
			if e.Message == "" {
				e.Message = d.text(v, d.maxText)
			}
		case "error", "cause":
			d.errorObject(v, e, depth+1)
		}
	}
}
