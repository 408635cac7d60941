package tomltext

import (
	"testing"

	"github.com/BurntSushi/toml"
)

// Whatever the string, TOML reads back exactly what was quoted.
func TestQuoteRoundTrips(t *testing.T) {
	for _, s := range []string{"", "plain", `a "quoted" word`, `C:\path\to`, "tab\there", "line\nbreak\r\n", "bell\a del\x7f nul\x00", "ünïcödé ✓", `'single'`} {
		var got struct{ V string }
		if _, err := toml.Decode("V = "+Quote(s), &got); err != nil || got.V != s {
			t.Errorf("Quote(%q) = %s reads back as %q, %v", s, Quote(s), got.V, err)
		}
		var m map[string]int
		if s == "" {
			continue
		}
		if _, err := toml.Decode(QuoteKey(s)+" = 1", &m); err != nil || m[s] != 1 {
			t.Errorf("QuoteKey(%q) = %s reads back as %v, %v", s, QuoteKey(s), m, err)
		}
	}
	if QuoteKey("bare_key-1") != "bare_key-1" {
		t.Errorf("a bare key was quoted: %s", QuoteKey("bare_key-1"))
	}
}
