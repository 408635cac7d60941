package hooks

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const userSettings = `{
  "model": "opus",
  "permissions": {"allow": ["Bash(go test:*)"]},
  "hooks": {
    "Stop": [
      {"hooks": [{"type": "command", "command": "~/bin/notify-done.sh", "timeout": 5}]}
    ],
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "guard.sh"}]}
    ]
  },
  "env": {"FOO": "1"}
}
`

func countInstalled(t *testing.T, doc []byte) map[string]int {
	t.Helper()
	var s struct {
		Hooks map[string][]MatcherGroup `json:"hooks"`
	}
	if err := json.Unmarshal(doc, &s); err != nil {
		t.Fatalf("result is not JSON: %v\n%s", err, doc)
	}
	n := map[string]int{}
	for ev, gs := range s.Hooks {
		for _, g := range gs {
			for _, h := range g.Hooks {
				if IsInstalledCommand(h.Command) {
					n[ev]++
				}
			}
		}
	}
	return n
}

func TestInstallTwiceIsIdenticalAndKeepsEverythingElse(t *testing.T) {
	once, err := MergeInstall([]byte(userSettings), "/usr/local/bin/hooksup", "", 600)
	if err != nil {
		t.Fatal(err)
	}
	twice, err := MergeInstall(once, "/usr/local/bin/hooksup", "", 600)
	if err != nil {
		t.Fatal(err)
	}
	if string(once) != string(twice) {
		t.Fatalf("second install changed the file:\n%s\n---\n%s", once, twice)
	}
	if n := countInstalled(t, once); n["Stop"] != 1 || n["SubagentStop"] != 1 {
		t.Fatalf("installed entries: %v\n%s", n, once)
	}
	for _, keep := range []string{`"model": "opus"`, `"Bash(go test:*)"`, `~/bin/notify-done.sh`, `"matcher": "Bash"`, `guard.sh`, `"FOO": "1"`} {
		if !strings.Contains(string(once), keep) {
			t.Errorf("lost %s:\n%s", keep, once)
		}
	}
	// Keys stay in the user's order, and the user's Stop hook stays before ours.
	s := string(once)
	if !(strings.Index(s, `"model"`) < strings.Index(s, `"permissions"`) && strings.Index(s, `"hooks"`) < strings.Index(s, `"env"`)) {
		t.Errorf("key order changed:\n%s", s)
	}
	if strings.Index(s, "notify-done.sh") > strings.Index(s, "hook Stop --installed") {
		t.Errorf("hooksup's Stop hook went before the user's:\n%s", s)
	}
	// A new binary path replaces the old entry instead of adding one.
	moved, _ := MergeInstall(once, "/opt/hooksup/bin/hooksup", "", 600)
	if n := countInstalled(t, moved); n["Stop"] != 1 || !strings.Contains(string(moved), "/opt/hooksup/bin/hooksup hook Stop --installed") {
		t.Fatalf("reinstall from another path: %v\n%s", n, moved)
	}
}

func TestUninstallRestoresTheUsersHooks(t *testing.T) {
	installed, _ := MergeInstall([]byte(userSettings), "/usr/local/bin/hooksup", "", 600)
	removed, err := MergeUninstall(installed)
	if err != nil {
		t.Fatal(err)
	}
	if n := countInstalled(t, removed); len(n) != 0 {
		t.Fatalf("left %v", n)
	}
	if strings.Contains(string(removed), "SubagentStop") {
		t.Fatalf("an emptied event list stayed:\n%s", removed)
	}
	var want, got any
	json.Unmarshal([]byte(userSettings), &want)
	json.Unmarshal(removed, &got)
	if b1, b2 := mustJSON(want), mustJSON(got); b1 != b2 {
		t.Fatalf("uninstall did not restore the settings:\n%s\n%s", b1, b2)
	}
	// On a file without hooks, install then uninstall leaves no "hooks" key.
	bare, _ := MergeInstall([]byte(`{"model":"opus"}`), "hooksup", "", 600)
	back, _ := MergeUninstall(bare)
	if strings.Contains(string(back), "hooks") {
		t.Fatalf("got %s", back)
	}
}

func mustJSON(v any) string { b, _ := json.Marshal(v); return string(b) }

func TestInstallOnInvalidJSONLeavesTheFileAlone(t *testing.T) {
	for _, bad := range []string{`{"model": "opus",}`, `[1,2]`, `{"hooks": []}`, `{"hooks": {"Stop": {}}}`, "not json"} {
		path := filepath.Join(t.TempDir(), "settings.json")
		os.WriteFile(path, []byte(bad), 0o640)
		changed, err := EditSettingsFile(path, func(b []byte) ([]byte, error) { return MergeInstall(b, "hooksup", "", 600) })
		if err == nil || changed {
			t.Errorf("%q: accepted (changed=%v)", bad, changed)
			continue
		}
		if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "not changed") {
			t.Errorf("error does not name the file or say it is unchanged: %v", err)
		}
		if got, _ := os.ReadFile(path); string(got) != bad {
			t.Errorf("file changed: %q", got)
		}
	}
}

func TestEditSettingsFileCreatesAndKeepsMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".claude", "settings.local.json")
	changed, err := EditSettingsFile(path, func(b []byte) ([]byte, error) { return MergeInstall(b, "hooksup", "", 600) })
	if err != nil || !changed {
		t.Fatalf("%v %v", changed, err)
	}
	os.Chmod(path, 0o600)
	changed, err = EditSettingsFile(path, func(b []byte) ([]byte, error) { return MergeInstall(b, "hooksup", "", 600) })
	if err != nil || changed {
		t.Fatalf("second install: changed=%v err=%v", changed, err)
	}
	EditSettingsFile(path, MergeUninstall)
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %o", fi.Mode().Perm())
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{"/usr/bin/hooksup": "/usr/bin/hooksup", "/my dir/hooksup": "'/my dir/hooksup'", "it's": `'it'\''s'`} {
		if got := ShellQuote(in); got != want {
			t.Errorf("%q → %q, want %q", in, got, want)
		}
	}
	if !IsInstalledCommand(InstalledCommand("/my dir/hooksup", "", "Stop")) {
		t.Error("a quoted path is not recognised as hooksup's")
	}
}

// Installed through the hook client, the command is the client's own EVENT --installed; an
// install through hooksup before it is replaced, not doubled, and uninstall removes either.
func TestInstallThroughTheHookClient(t *testing.T) {
	if got := InstalledCommand("/opt/my bin/hooksup-hook", "", "SubagentStop"); got != "'/opt/my bin/hooksup-hook' SubagentStop --installed" {
		t.Errorf("command %q", got)
	}
	for _, cmd := range []string{"/usr/bin/hooksup-hook Stop --installed", "'/a b/hooksup-hook' SubagentStop --installed", "/usr/bin/hooksup hook Stop --installed"} {
		if !IsInstalledCommand(cmd) {
			t.Errorf("%q is not recognised as hooksup's", cmd)
		}
	}
	for _, cmd := range []string{"/usr/bin/hooksup-hook Stop", "/usr/bin/hooksup Stop --installed", "/usr/bin/hooksup-hook Stop --installed; rm -rf ~"} {
		if IsInstalledCommand(cmd) {
			t.Errorf("%q is taken for hooksup's installed hook", cmd)
		}
	}
	old, err := MergeInstall([]byte(userSettings), "/usr/local/bin/hooksup", "", 600)
	if err != nil {
		t.Fatal(err)
	}
	now, err := MergeInstall(old, "/usr/local/bin/hooksup-hook", "", 600)
	if err != nil {
		t.Fatal(err)
	}
	if n := countInstalled(t, now); n["Stop"] != 1 || n["SubagentStop"] != 1 {
		t.Fatalf("installed entries: %v\n%s", n, now)
	}
	if !strings.Contains(string(now), `"/usr/local/bin/hooksup-hook Stop --installed"`) || strings.Contains(string(now), " hook Stop") {
		t.Fatalf("the install through hooksup was not replaced by the client's:\n%s", now)
	}
	gone, err := MergeUninstall(now)
	if err != nil {
		t.Fatal(err)
	}
	if n := countInstalled(t, gone); len(n) != 0 || strings.Contains(string(gone), "hooksup") {
		t.Fatalf("uninstall left %v:\n%s", n, gone)
	}
}

// A settings file that is a symlink stays one: the file it points to is edited.
func TestInstallThroughASymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles-settings.json")
	os.WriteFile(real, []byte(`{"model":"opus"}`), 0o644)
	link := filepath.Join(dir, "settings.json")
	os.Symlink(real, link)
	if _, err := EditSettingsFile(link, func(b []byte) ([]byte, error) { return MergeInstall(b, "hooksup", "", 600) }); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link was replaced by a file")
	}
	if b, _ := os.ReadFile(real); !strings.Contains(string(b), "--installed") {
		t.Fatalf("the target was not edited: %s", b)
	}
}

// The comments gemini and qwen allow in their settings are blanked outside strings, and only
// there: a URL's // and a /* */ inside a string, after an escaped quote too, stay as written.
// A trailing comma stays: the agents' readers refuse it, and so does hooksup's.
func TestStripJSONComments(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"a": 1}`, `{"a": 1}`},
		{"{\"a\": 1} // the end", "{\"a\": 1} "},
		{"{\"a\": 1, // one\n\"b\": 2}", "{\"a\": 1, \n\"b\": 2}"},
		{`{"a": /* one */ 1}`, `{"a":   1}`},
		{"{/* two\nlines */\"a\": 1}", `{ "a": 1}`},
		{`{"url": "https://example.com/x"}`, `{"url": "https://example.com/x"}`},
		{`{"c": "/* not a comment */"}`, `{"c": "/* not a comment */"}`},
		{`{"q": "say \"//hi\" // still the string"} // gone`, `{"q": "say \"//hi\" // still the string"} `},
		{`{"b": "ends in a backslash \\"} // gone`, `{"b": "ends in a backslash \\"} `},
		{`{"a": 1,}`, `{"a": 1,}`},
		{`{"a": 1} /* never closed`, `{"a": 1} `},
		{`{"a": "never closed // kept`, `{"a": "never closed // kept`},
		{"//only\n", "\n"},
		{"", ""},
	} {
		if got := string(StripJSONComments([]byte(tc.in))); got != tc.want {
			t.Errorf("StripJSONComments(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	var v struct{ URL, Path string }
	in := "{\n  // where\n  \"url\": \"https://example.com\", /* and */ \"path\": \"/a//b\"\n}\n"
	if err := json.Unmarshal(StripJSONComments([]byte(in)), &v); err != nil || v.URL != "https://example.com" || v.Path != "/a//b" {
		t.Fatalf("%+v %v", v, err)
	}
}
