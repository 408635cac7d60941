package codex

import (
	"strings"
	"testing"

	"github.com/hooksup/hooksup/hooks"
)

func TestCodexInstalledTrust(t *testing.T) {
	b, err := hooks.MergeInstall([]byte(`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"mine.sh"}]}]}}`), "/usr/bin/hooksup", "", 600)
	if err != nil {
		t.Fatal(err)
	}
	ts, err := InstalledTrust("/h/.codex/hooks.json", b)
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
	ts := []Trust{{Key: "/h/hooks.json:stop:0:0", Hash: "sha256:aa"}}
	out, n, err := AddTrust([]byte(`model = "m"`), ts)
	if err != nil || n != 1 {
		t.Fatalf("%d, %v", n, err)
	}
	want := "model = \"m\"\n\n# hooksup install --agent codex: trust hooksup's hooks in hooks.json (without them, these trust nothing)\n" +
		"[hooks.state.\"/h/hooks.json:stop:0:0\"]\ntrusted_hash = \"sha256:aa\"\n"
	if string(out) != want {
		t.Fatalf("got\n%s\nwant\n%s", out, want)
	}
	if again, n, err := AddTrust(out, ts); err != nil || n != 0 || string(again) != string(out) {
		t.Fatalf("again: %d %v\n%s", n, err, again)
	}
	if _, _, err := AddTrust(out, []Trust{{Key: ts[0].Key, Hash: "sha256:bb"}}); err == nil || !strings.Contains(err.Error(), `"sha256:bb"`) {
		t.Fatalf("another hash: %v", err)
	}
	if _, _, err := AddTrust([]byte("[hooks]\nstate = { }\n"), ts); err == nil || !strings.Contains(err.Error(), "inline table") {
		t.Fatalf("inline state: %v", err)
	}
}

// Uninstall removes exactly what install wrote into config.toml: the person's own entries,
// tables and comments around it stay, byte for byte.
func TestCodexRemoveTrust(t *testing.T) {
	const user = `# my codex config
model = "m"

[hooks.state."/h/.codex/hooks.json:stop:0:0"]
# my own hook, trusted by me
trusted_hash = "sha256:mine"
`
	const userAfter = `
[tui]
# keep this
screen_reader_detection_done = true
[hooks.state."/h/.codex/config.toml:stop:0:0"]
trusted_hash = "sha256:mine2"
`
	ts := []Trust{{Key: "/h/.codex/hooks.json:stop:1:0", Hash: "sha256:aa"}, {Key: "/h/.codex/hooks.json:subagent_stop:0:0", Hash: "sha256:bb"}}
	installed, n, err := AddTrust([]byte(user), ts)
	if err != nil || n != 2 {
		t.Fatalf("%d, %v", n, err)
	}
	config := string(installed) + userAfter
	out, n := RemoveTrust([]byte(config), ts)
	if n != 2 || string(out) != user+userAfter {
		t.Fatalf("removed %d:\n%s\nwant\n%s", n, out, user+userAfter)
	}
	// The person's hooks moved hooksup's to another group since: the entry install wrote goes
	// all the same (its key names the same file and event, its hash is hooksup's hook's).
	moved := []Trust{{Key: "/h/.codex/hooks.json:stop:0:0", Hash: "sha256:aa"}, ts[1]}
	if out, n := RemoveTrust([]byte(config), moved); n != 2 || string(out) != user+userAfter {
		t.Fatalf("moved: removed %d:\n%s", n, out)
	}
	// Nothing of hooksup's: nothing changes. Entries that are not exactly install's stay.
	for name, c := range map[string]string{
		"none":       user + userAfter,
		"other hash": strings.ReplaceAll(config, `"sha256:aa"`, `"sha256:cc"`),
		"more keys":  strings.Replace(config, "trusted_hash = \"sha256:aa\"\n", "trusted_hash = \"sha256:aa\"\nenabled = false\n", 1),
		"other file": strings.ReplaceAll(config, "/h/.codex/hooks.json:", "/x/hooks.json:"),
	} {
		out, n := RemoveTrust([]byte(c), ts)
		want := 0
		if name == "other hash" || name == "more keys" {
			want = 1 // the subagent_stop entry is install's
		}
		if n != want || (n == 0 && string(out) != c) {
			t.Errorf("%s: removed %d:\n%s", name, n, out)
		}
		if n == 1 && (strings.Contains(string(out), `"sha256:bb"`) || !strings.Contains(string(out), trustComment)) {
			t.Errorf("%s: \n%s", name, out)
		}
	}
}
