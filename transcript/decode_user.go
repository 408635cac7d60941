package transcript

import (
	"strings"
)

const interruptPrefix = "[Request interrupted by user"

func (d *decoder) user(f *top, r *Record) bool {
	content := f.msg.content
	if boolValue(f.isMeta) || boolValue(f.isCompactSummary) || boolValue(f.isVisibleOnly) {
		r.Kind = KindMeta
		return true
	}
	r.Origin = d.name(f.turnOrigin)
	if isString(content) {
		// Typed commands are not prompts; their output is claude's own bookkeeping.
		for _, p := range [...]string{"<command-name>", "<command-message>", "<bash-input>"} {
			if rawHasPrefix(content, p) {
				r.Kind = KindCommand
				r.Text = commandName(d.text(content, d.maxText))
				return true
			}
		}
		for _, p := range [...]string{"<local-command-", "<bash-stdout>", "<bash-stderr>"} {
			if rawHasPrefix(content, p) {
				r.Kind = KindMeta
				return true
			}
		}
		if rawHasPrefix(content, interruptPrefix) {
			r.Kind = KindInterrupt
			return true
		}
		r.Kind = KindPrompt
		r.Text = d.text(content, d.maxText)
		d.promptOrigin(r)
		return true
	}
	a, ok := array(content)
	if !ok {
		r.Kind = KindOther
		return true
	}
	results := 0
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
		var typ, txt, isErr []byte
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
			case "is_error":
				isErr = v
			}
		}
		if b.err {
			return false
		}
		switch {
		case rawEquals(typ, "tool_result"):
			results++
			if boolValue(isErr) {
				r.ToolErrors++
			}
		case rawEquals(typ, "text") && results == 0:
			if text == "" && rawHasPrefix(txt, interruptPrefix) {
				r.Kind = KindInterrupt
			}
			if t := d.text(txt, d.maxText); text == "" {
				text = t
			} else if t != "" {
				text += "\n" + t
			}
		}
	}
	if a.err {
		return false
	}
	switch {
	case results > 0:
		r.Kind = KindToolResult
	case r.Kind == KindInterrupt:
	default:
		r.Kind = KindPrompt
		r.Text = text
		d.promptOrigin(r)
	}
	return true
}

// promptOrigin marks a <task-notification> prompt when the line has no turnOrigin.
func (d *decoder) promptOrigin(r *Record) {
	if r.Origin == "" && strings.HasPrefix(r.Text, "<task-notification>") {
		r.Origin = "task_notification"
	}
}

// commandName returns "/exit" from "<command-name>/exit</command-name>…", or s's first line.
func commandName(s string) string {
	if i := strings.Index(s, "<command-name>"); i >= 0 {
		rest := s[i+len("<command-name>"):]
		if j := strings.Index(rest, "</command-name>"); j >= 0 {
			return strings.TrimSpace(rest[:j])
		}
	}
	if i := strings.Index(s, "<bash-input>"); i >= 0 {
		rest := s[i+len("<bash-input>"):]
		if j := strings.Index(rest, "</bash-input>"); j >= 0 {
			return "!" + strings.TrimSpace(rest[:j])
		}
	}
	first, _, _ := strings.Cut(s, "\n")
	return first
}
