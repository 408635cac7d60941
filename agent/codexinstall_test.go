package agent

import (
	"strings"
	"testing"

	"github.com/hooksup/hooksup/hooks"
)

func TestCodexInstalledTrust(t *testing.T) {
	b, err := hooks.MergeInstall([]byte(`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"mine.sh"}]}]}}`), "/usr/bin/hooksup", 600)
	if err != nil {
		t.Fatal(err)
	}
	ts, err := CodexInstalledTrust("/h/.codex/hooks.json", b)
	if err != nil {
		t.Fatal(err)
	}
	// The user's own Stop hook is group 0 and stays untrusted; hooksup's is group 1.
	if len(ts) != 2 || ts[0].Key != "/h/.codex/hooks.json:stop:1:0" || ts[1].Key != "/h/.codex/hooks.json:subagent_stop:0:0" ||
		!strings.HasPrefix(ts[0].Hash, "sha256:") || ts[0].Hash == ts[1].Hash {
		t.Fatalf("trust %+v", ts)
	}
}

func TestCodexAddTrust(t *testing.T) {
	ts := []CodexTrust{{Key: "/h/hooks.json:stop:0:0", Hash: "sha256:aa"}}
	out, n, err := CodexAddTrust([]byte(`model = "m"`), ts)
	if err != nil || n != 1 {
		t.Fatalf("%d, %v", n, err)
	}
	want := "model = \"m\"\n\n# hooksup install --agent codex: trust hooksup's hooks in hooks.json (without them, these trust nothing)\n" +
		"[hooks.state.\"/h/hooks.json:stop:0:0\"]\ntrusted_hash = \"sha256:aa\"\n"
	if string(out) != want {
		t.Fatalf("got\n%s\nwant\n%s", out, want)
	}
	if again, n, err := CodexAddTrust(out, ts); err != nil || n != 0 || string(again) != string(out) {
		t.Fatalf("again: %d %v\n%s", n, err, again)
	}
	if _, _, err := CodexAddTrust(out, []CodexTrust{{Key: ts[0].Key, Hash: "sha256:bb"}}); err == nil || !strings.Contains(err.Error(), `"sha256:bb"`) {
		t.Fatalf("another hash: %v", err)
	}
	if _, _, err := CodexAddTrust([]byte("[hooks]\nstate = { }\n"), ts); err == nil || !strings.Contains(err.Error(), "inline table") {
		t.Fatalf("inline state: %v", err)
	}
}
