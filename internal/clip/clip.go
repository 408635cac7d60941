// Package clip cuts text to a number of bytes without splitting a character: the head of a
// message for a log line or a banner, the tail of a check's output for a reason.
package clip

// Head is s cut to at most n bytes at a whole character, with "…" when it was cut.
func Head(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// Tail is the end of s in at most n bytes, starting at a whole character.
func Tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := len(s) - n
	for cut < len(s) && s[cut]&0xC0 == 0x80 {
		cut++
	}
	return s[cut:]
}
