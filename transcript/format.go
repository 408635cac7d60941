package transcript

// Format is a transcript's format: which agent wrote it.
type Format uint8

const (
	// FormatClaude is Claude Code's session JSONL (the zero value).
	FormatClaude Format = iota
	// FormatCodex is Codex's rollout JSONL (see decodeCodex).
	FormatCodex
	// FormatGemini is Gemini CLI's chat JSONL (see decodeGemini).
	FormatGemini
)
