package hooks

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// hostileDirs are directory names a person's hooksup may sit under: each holds what one shell
// or one agent reads specially.
var hostileDirs = []string{
	"it's",
	`say "hi"`,
	"$HOME",
	"a b",
	"ü/日本",
	`back\slash`,
	"new\nline",
	"tab\there",
	"${CLAUDE_PLUGIN_ROOT}", // claude refuses to run a command naming it outside a plugin
	"$GEMINI_PROJECT_DIR $CLAUDE_PROJECT_DIR", // gemini replaces these in the command's text, quotes or not
	"`tick` $(sub) *?[x] ~ !bang #hash {a,b} =eq;|&<>",
	`all 'of "it" $HOME` + "\\ \n ü",
}

// agentShells are the shells the agents run a hook's command with (`SHELL -c COMMAND`): claude
// 2.1.330 runs /bin/sh whatever $SHELL says; codex 0.169.0, gemini 0.61.0, copilot 1.0.102 and
// qwen 0.24.4 run bash. zsh is there for a person's own sh being zsh.
func agentShells(t *testing.T) []string {
	var out []string
	for _, sh := range []string{"sh", "bash", "zsh"} {
		if p, err := exec.LookPath(sh); err == nil {
			out = append(out, p)
		} else if sh != "zsh" {
			t.Fatalf("%s is not installed: every agent runs its hooks with sh or bash", sh)
		}
	}
	return out
}

// geminiExpand is what Gemini CLI 0.61.0 does to a hook's command before bash reads it
// (HookRunner.expandCommand): its placeholders are replaced in the text, inside quotes too.
func geminiExpand(cmd string) string {
	return regexp.MustCompile(`\$(GEMINI_PROJECT_DIR|GEMINI_CWD|GEMINI_PLANS_DIR|GEMINI_SESSION_ID|CLAUDE_PROJECT_DIR)`).
		ReplaceAllLiteralString(cmd, "/elsewhere")
}

// argvProgram writes, at dir/name, a program that prints the path it was started by and its
// arguments, each ended by a NUL.
func argvProgram(t *testing.T, dir, name string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\nprintf '%s\\0' \"$0\" \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// Each hook command hooksup writes, run by each shell an agent runs hooks with, starts hooksup's
// binary at its path with exactly the arguments hooksup meant, whatever the path holds; gemini's
// replacement of its placeholders does not reach into it.
func TestHookCommandsRunTheBinaryWhateverItsPath(t *testing.T) {
	shells := agentShells(t)
	root := t.TempDir()
	for i, d := range hostileDirs {
		dir := filepath.Join(root, string(rune('a'+i)), d)
		client := argvProgram(t, dir, ClientName)
		self := argvProgram(t, dir, "hooksup")
		for _, c := range []struct {
			cmd  string
			argv []string
		}{
			{Command(self, Stop), []string{self, "hook", Stop}},
			{ClientCommand(client, SubagentStop), []string{client, SubagentStop}},
			{InstalledCommand(client, "", Stop), []string{client, Stop, InstalledFlag}},
			{InstalledCommand(self, "", SubagentStop), []string{self, "hook", SubagentStop, InstalledFlag}},
		} {
			for _, sh := range shells {
				for _, cmd := range []string{c.cmd, geminiExpand(c.cmd)} {
					out, err := exec.Command(sh, "-c", cmd).Output()
					got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
					if err != nil || !slices.Equal(got, c.argv) {
						t.Errorf("%s -c %q: %v\nran %q\nwant %q", sh, cmd, err, got, c.argv)
					}
				}
			}
			if strings.Contains(c.cmd, "${CLAUDE_") {
				t.Errorf("%q names claude's ${CLAUDE_…} placeholder, which claude expands or refuses", c.cmd)
			}
		}
	}
}

// hooksup knows the hook `install` wrote whatever the binary's path, through the hook client or
// through hooksup, however the path is quoted; and nothing else is taken for it.
func TestInstalledCommandIsKnownWhateverThePath(t *testing.T) {
	for _, d := range hostileDirs {
		for _, bin := range []string{"/opt/" + d + "/" + ClientName, "/opt/" + d + "/hooksup"} {
			for _, ev := range InstalledEvents {
				if cmd := InstalledCommand(bin, "", ev); !IsInstalledCommand(cmd) {
					t.Errorf("%q, installed for %s, is not recognised as hooksup's", cmd, bin)
				}
			}
		}
	}
	for _, cmd := range []string{
		`"/opt/it's/hooksup-hook" Stop --installed`,       // quoted by hand, another way
		`/opt/a\ b/hooksup hook SubagentStop --installed`, // escaped
		`'/usr/bin/'hooksup-hook Stop --installed`,
	} {
		if !IsInstalledCommand(cmd) {
			t.Errorf("%q is not recognised as hooksup's", cmd)
		}
	}
	for _, cmd := range []string{
		"/usr/bin/hooksup-hook Stop --installed; rm -rf ~",
		"/usr/bin/hooksup-hook Stop --installed && evil",
		"$(evil)/hooksup-hook Stop --installed",
		"`evil`/hooksup-hook Stop --installed",
		"'/usr/bin/hooksup-hook Stop --installed",
		"/usr/bin/not-hooksup-hook Stop --installed",
		"/usr/bin/hooksup-hook PreToolUse --installed",
		"/usr/bin/hooksup-hook Stop --installed extra",
		"echo /usr/bin/hooksup-hook Stop --installed",
	} {
		if IsInstalledCommand(cmd) {
			t.Errorf("%q is taken for hooksup's installed hook", cmd)
		}
	}
}

// A path no agent's settings can carry is refused, naming the path (visibly) and the fix.
func TestProgramPathRefusedWhenNoAgentCanRunIt(t *testing.T) {
	for _, d := range hostileDirs {
		if err := CheckProgramPath("/opt/" + d + "/hooksup"); err != nil {
			t.Errorf("%q refused: %v", d, err)
		}
	}
	err := CheckProgramPath("/opt/bad\xff\x1b[2J/hooksup")
	if err == nil {
		t.Fatal("a path that is not UTF-8 was accepted: JSON and TOML settings would hold another path")
	}
	msg := err.Error()
	if !strings.Contains(msg, `/opt/bad\xff\e[2J/hooksup`) || !strings.Contains(msg, "move") || bytes.ContainsAny([]byte(msg), "\x1b\xff") {
		t.Fatalf("error %q: want the path shown visibly and the fix", msg)
	}
}

// SplitCommand reads back each word ShellQuote writes, whatever it holds.
func FuzzShellQuoteSplitsBack(f *testing.F) {
	for _, d := range hostileDirs {
		f.Add(d)
	}
	f.Add("")
	f.Add("=x")
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsRune(s, 0) {
			return
		}
		q := ShellQuote(s)
		args, ok := SplitCommand(q + " hook Stop")
		if !ok || !slices.Equal(args, []string{s, "hook", "Stop"}) {
			t.Fatalf("%q quoted %q reads back as %q (ok %v)", s, q, args, ok)
		}
		if strings.Contains(strings.ReplaceAll(q, `\$`, ""), "$") {
			t.Fatalf("%q quoted %q leaves a $ an agent may read", s, q)
		}
	})
}
