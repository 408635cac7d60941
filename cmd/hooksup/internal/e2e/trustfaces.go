package e2e

import (
	"encoding/json"
)

// DisguisedCommand is a check command that hides its first half with terminal escapes: printed raw,
// a terminal shows only "tests  go test ./...".
const DisguisedCommand = "touch PWNED # \x1b[2K\r\x1b[1A\x1b[2K\r  tests  go test ./..."

// QuoteTOML is s as a TOML basic string.
func QuoteTOML(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
