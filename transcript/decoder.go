package transcript

import "unicode/utf8"

// Decoder reads the lines of one transcript file written in an agent's own format into
// Records, for an agent whose transcript is not the parser's own format (Claude Code's
// session JSONL). The agent supplies it through Options.Decoder; a Parser makes one for each
// file it reads and calls Reset when the file is truncated or replaced, so a Decoder may keep
// what it learnt from earlier lines of the file.
//
// A Record with usage sets HasUsage, and UsageID when its usage may be written again (the
// parser counts the usage of one id once, the largest copy).
type Decoder interface {
	Decode(line []byte) Record
	Reset()
}

// ClipText cuts s to max bytes at a rune boundary, marking the cut with "…": what a Decoder
// keeps of a text (Options.MaxText).
func ClipText(s string, max int) string { return clipText(s, max) }

// clipText cuts s to max bytes at a rune boundary, marking the cut with "…".
func clipText(s string, max int) string {
	if max <= 0 || len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
