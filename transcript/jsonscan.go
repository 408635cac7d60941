package transcript

import (
	"bytes"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// This file is a small JSON scanner: it walks objects and arrays and hands out the raw bytes of
// their members without decoding or copying them, so the parser decodes only the few values it
// needs. It checks structure (brackets, strings, separators) on the path it walks; it does not
// validate the inside of values it skips, beyond balanced brackets and terminated strings.

func skipWS(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the index just past the string that opens at b[i] == '"'.
func skipString(b []byte, i int) (int, bool) {
	i++
	for {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return len(b), false
		}
		i += j
		k := i - 1
		for b[k] == '\\' { // the opening quote stops this loop
			k--
		}
		if (i-1-k)%2 == 0 {
			return i + 1, true
		}
		i++
	}
}

// skipNested returns the index just past the object or array that opens at b[i].
func skipNested(b []byte, i int) (int, bool) {
	depth := 0
	for i < len(b) {
		switch b[i] {
		case '"':
			e, ok := skipString(b, i)
			if !ok {
				return len(b), false
			}
			i = e
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1, true
			}
		}
		i++
	}
	return len(b), false
}

// skipValue returns the index just past the value that starts at b[i].
func skipValue(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return i, false
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		return skipNested(b, i)
	case ',', '}', ']', ':':
		return i, false
	}
	j := i
	for j < len(b) {
		switch b[j] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return j, true
		}
		j++
	}
	return j, true
}

// members iterates over the members of a JSON object or the elements of a JSON array.
type members struct {
	b     []byte
	i     int
	close byte
	n     int
	err   bool
	done  bool
}

// object starts iterating over the object in raw; ok is false if raw is not an object (then
// the iterator has no members).
func object(raw []byte) (members, bool) {
	i := skipWS(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return members{done: true}, false
	}
	return members{b: raw, i: i + 1, close: '}'}, true
}

// array starts iterating over the array in raw; ok is false if raw is not an array.
func array(raw []byte) (members, bool) {
	i := skipWS(raw, 0)
	if i >= len(raw) || raw[i] != '[' {
		return members{done: true}, false
	}
	return members{b: raw, i: i + 1, close: ']'}, true
}

// next returns the next member: key is the raw key without quotes (nil in arrays), val the raw
// value. It returns false at the end or on a syntax error (then m.err is set).
func (m *members) next() (key, val []byte, ok bool) {
	key, ok = m.nextKey()
	if !ok {
		return nil, nil, false
	}
	val, ok = m.value()
	return key, val, ok
}

// nextKey reads up to the next member's value and returns its key (nil in arrays). The caller
// then calls value, or walks the value itself and calls skipTo with its end.
func (m *members) nextKey() (key []byte, ok bool) {
	if m.done || m.err {
		return nil, false
	}
	b := m.b
	i := skipWS(b, m.i)
	if i >= len(b) {
		m.err = true
		return nil, false
	}
	if b[i] == m.close {
		m.done = true
		m.i = i + 1
		return nil, false
	}
	if m.n > 0 {
		if b[i] != ',' {
			m.err = true
			return nil, false
		}
		i = skipWS(b, i+1)
	}
	m.n++
	if m.close == '}' {
		if i >= len(b) || b[i] != '"' {
			m.err = true
			return nil, false
		}
		e, ok := skipString(b, i)
		if !ok {
			m.err = true
			return nil, false
		}
		key = b[i+1 : e-1]
		if bytes.IndexByte(key, '\\') >= 0 { // an escaped key: compare its decoded form
			key, _, _ = appendString(nil, b[i:e], 0)
		}
		i = skipWS(b, e)
		if i >= len(b) || b[i] != ':' {
			m.err = true
			return nil, false
		}
		i = skipWS(b, i+1)
	}
	m.i = i
	return key, true
}

// value skips the value nextKey stopped at and returns it raw.
func (m *members) value() ([]byte, bool) {
	e, ok := skipValue(m.b, m.i)
	if !ok {
		m.err = true
		return nil, false
	}
	v := m.b[m.i:e]
	m.i = e
	return v, true
}

// rest returns the bytes from the value nextKey stopped at to the end of the input.
func (m *members) rest() []byte { return m.b[m.i:] }

// skipTo moves past a value the caller walked itself, which ended n bytes into rest().
func (m *members) skipTo(n int) { m.i += n }

// end is the index just past the closing bracket, valid once next has returned false cleanly.
func (m *members) end() int { return m.i }

// isString reports whether raw is a JSON string.
func isString(raw []byte) bool { return len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' }

// rawEquals reports whether raw is the JSON string s.
func rawEquals(raw []byte, s string) bool {
	if len(raw) == len(s)+2 && raw[0] == '"' && string(raw[1:len(raw)-1]) == s {
		return true
	}
	if !isString(raw) || bytes.IndexByte(raw, '\\') < 0 {
		return false
	}
	dec, _, ok := appendString(nil, raw, 0)
	return ok && string(dec) == s
}

// rawHasPrefix reports whether the JSON string raw starts with s.
func rawHasPrefix(raw []byte, s string) bool {
	if !isString(raw) {
		return false
	}
	if n := len(s) + 1; len(raw) > n && bytes.IndexByte(raw[1:n], '\\') < 0 {
		return string(raw[1:n]) == s
	}
	dec, _, ok := appendString(nil, raw, len(s)+8)
	return ok && bytes.HasPrefix(dec, []byte(s))
}

// boolValue decodes a JSON true; anything else is false.
func boolValue(raw []byte) bool { return string(raw) == "true" }

// intValue decodes a JSON number as an integer (fractions are dropped); ok is false otherwise.
func intValue(raw []byte) (int64, bool) {
	if len(raw) == 0 {
		return 0, false
	}
	if len(raw) > 18 {
		return slowInt(raw)
	}
	var n int64
	neg := false
	i := 0
	if raw[0] == '-' {
		neg = true
		i = 1
	}
	if i == len(raw) {
		return 0, false
	}
	for ; i < len(raw); i++ {
		c := raw[i]
		if c < '0' || c > '9' {
			return slowInt(raw)
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// slowInt decodes a number that is long or not an integer (fractions are dropped).
func slowInt(raw []byte) (int64, bool) {
	if n, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
		return n, true
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return 0, false
	}
	return int64(f), true
}

// appendString appends the decoded JSON string raw to dst, stopping once max bytes of it are
// written (max <= 0: no limit). truncated reports whether it stopped early; ok is false if raw
// is not a well-formed JSON string. Invalid UTF-8 and lone surrogates become U+FFFD, as
// encoding/json does.
func appendString(dst, raw []byte, max int) (out []byte, truncated, ok bool) {
	if !isString(raw) {
		return dst, false, false
	}
	s := raw[1 : len(raw)-1]
	start := len(dst)
	limit := func() bool { return max > 0 && len(dst)-start >= max }
	if bytes.IndexByte(s, '\\') < 0 && utf8.Valid(s) {
		if max > 0 && len(s) > max {
			cut := max
			for cut > 0 && !utf8.RuneStart(s[cut]) {
				cut--
			}
			return append(dst, s[:cut]...), true, true
		}
		return append(dst, s...), false, true
	}
	for i := 0; i < len(s); {
		if limit() {
			return dst, true, true
		}
		c := s[i]
		if c != '\\' {
			if c < utf8.RuneSelf {
				dst = append(dst, c)
				i++
				continue
			}
			r, size := utf8.DecodeRune(s[i:])
			dst = utf8.AppendRune(dst, r) // RuneError for invalid bytes, one per byte
			i += size
			continue
		}
		if i+1 >= len(s) {
			return dst, false, false
		}
		switch s[i+1] {
		case '"', '\\', '/':
			dst = append(dst, s[i+1])
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, ok := hex4(s, i+2)
			if !ok {
				return dst, false, false
			}
			i += 6
			if utf16.IsSurrogate(r) {
				r2, ok2 := rune(-1), false
				if i+1 < len(s) && s[i] == '\\' && s[i+1] == 'u' {
					r2, ok2 = hex4(s, i+2)
				}
				if dec := utf16.DecodeRune(r, r2); ok2 && dec != utf8.RuneError {
					r = dec
					i += 6
				} else {
					r = utf8.RuneError
				}
			}
			dst = utf8.AppendRune(dst, r)
			continue
		default:
			return dst, false, false
		}
		i += 2
	}
	return dst, false, true
}

func hex4(s []byte, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	var r rune
	for _, c := range s[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
