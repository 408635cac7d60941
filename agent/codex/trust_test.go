package codex

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/internal/tomltext"
)

// listed is one hook as `codex app-server` (0.169.0) reported it in hooks/list.
type listed struct {
	Event       string `json:"event"`
	Matcher     string `json:"matcher"`
	Command     string `json:"command"`
	Timeout     int    `json:"timeout"`
	Key         string `json:"key"`
	CurrentHash string `json:"current_hash"`
	TimeoutSec  int    `json:"timeout_sec"`
	Group       int    `json:"group"`
}

func loadListed(t *testing.T) []listed {
	t.Helper()
	b, err := os.ReadFile("testdata/hooks_list.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct{ Hooks []listed }
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Hooks) == 0 {
		t.Fatal("testdata/hooks_list.json lists no hooks")
	}
	return f.Hooks
}

// The hashes, keys and timeouts Codex itself computed for definitions with quotes,
// backslashes, non-ASCII, U+2028, tabs, newlines, matchers Codex keeps or drops, and
// timeouts it defaults or clamps.
func TestTrustedHashMatchesCodex(t *testing.T) {
	for _, l := range loadListed(t) {
		h := Hook{Event: l.Event, Matcher: l.Matcher, Command: l.Command, Timeout: l.Timeout}
		got, err := TrustedHash(h)
		if err != nil {
			t.Errorf("%+v: %v", h, err)
			continue
		}
		if got != l.CurrentHash {
			t.Errorf("TrustedHash(%+v) = %s, Codex: %s", h, got, l.CurrentHash)
		}
		key, err := TrustKey(l.Event, l.Group)
		if err != nil || key != l.Key {
			t.Errorf("TrustKey(%s, %d) = %q, %v; Codex: %q", l.Event, l.Group, key, err, l.Key)
		}
		if got := h.EffectiveTimeout(); got != l.TimeoutSec {
			t.Errorf("%+v: EffectiveTimeout() = %d, Codex: %d", h, got, l.TimeoutSec)
		}
	}
}

func TestOverridesShape(t *testing.T) {
	args, err := Overrides([]Hook{
		{Event: "Stop", Command: `/bin/hook "stop"`},
		{Event: "SubagentStop", Matcher: "*", Command: "/bin/hook subagent-stop", Timeout: 30},
		{Event: "Stop", Command: `C:\hook`},
	})
	if err != nil {
		t.Fatal(err)
	}
	h1, _ := TrustedHash(Hook{Event: "Stop", Command: `/bin/hook "stop"`})
	h2, _ := TrustedHash(Hook{Event: "SubagentStop", Matcher: "*", Command: "/bin/hook subagent-stop", Timeout: 30})
	h3, _ := TrustedHash(Hook{Event: "Stop", Command: `C:\hook`})
	want := []string{
		"-c", `hooks.Stop=[{hooks=[{type="command",command="/bin/hook \"stop\""}]},{hooks=[{type="command",command="C:\\hook"}]}]`,
		"-c", `hooks.SubagentStop=[{matcher="*",hooks=[{type="command",command="/bin/hook subagent-stop",timeout=30}]}]`,
		"-c", `hooks.state={"/<session-flags>/config.toml:stop:0:0"={trusted_hash="` + h1 + `"},` +
			`"/<session-flags>/config.toml:subagent_stop:0:0"={trusted_hash="` + h2 + `"},` +
			`"/<session-flags>/config.toml:stop:1:0"={trusted_hash="` + h3 + `"}}`,
	}
	if !slices.Equal(args, want) {
		t.Errorf("Overrides:\n got %q\nwant %q", args, want)
	}
}

func TestOverridesRefusesBadHooks(t *testing.T) {
	for _, h := range []Hook{
		{Event: "Notification", Command: "x"},
		{Event: "stop", Command: "x"},
		{Event: "Stop", Command: "  "},
		{Event: "Stop", Command: "x", Timeout: -1},
		{Event: "Stop", Command: "\xff"},
	} {
		if _, err := Overrides([]Hook{h}); err == nil {
			t.Errorf("Overrides(%+v): no error", h)
		} else if !strings.Contains(err.Error(), "codex:") {
			t.Errorf("Overrides(%+v): %v does not say where it comes from", h, err)
		}
	}
	if args, err := Overrides(nil); err != nil || len(args) != 0 {
		t.Errorf("Overrides(nil) = %q, %v", args, err)
	}
}

func TestTOMLAndJSONEscapes(t *testing.T) {
	var j, m strings.Builder
	in := "a\"b\\c\td\x01e\x7f\u2028<&>é"
	writeJSONString(&j, in)
	m.WriteString(tomltext.Quote(in))
	if got, want := j.String(), `"a\"b\\c\td\u0001e`+"\x7f\u2028<&>é"+`"`; got != want {
		t.Errorf("JSON %q, want %q", got, want)
	}
	if got, want := m.String(), `"a\"b\\c\td\u0001e\u007F`+"\u2028<&>é"+`"`; got != want {
		t.Errorf("TOML %q, want %q", got, want)
	}
}
