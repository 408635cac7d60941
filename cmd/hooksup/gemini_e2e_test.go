package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// End-to-end tests with the real Gemini CLI (HOOKSUP_TEST_GEMINI) offline, against the mock
// Gemini API in a throwaway HOME.

// realGemini is one test's gemini: the mock it talks to, its environment, and hooksup's state
// and runtime directories.
type realGemini struct {
	hooksupEnv
	srv *mockapi.GeminiServer
	env *mockapi.GeminiEnv
}

func newRealGemini(t *testing.T, replies ...mockapi.GeminiReply) *realGemini {
	t.Helper()
	srv := mockapi.NewGeminiServer(t, &mockapi.GeminiScript{Replies: replies}, mockapi.WithNetNS(), mockapi.WithQuiet())
	env := mockapi.NewGeminiEnv(t, srv.URL, "")
	return &realGemini{hooksupEnv: newHooksupEnv(t, "hg", env.Home, env.Setenv, srv.Run, env.Command), srv: srv, env: env}
}

// gemini runs plain gemini with args and waits for it.
func (rg *realGemini) gemini(args ...string) mockapi.Result {
	rg.t.Helper()
	return rg.runBounded("gemini", rg.env.Gemini, args...)
}

// (a) No checks: a model request that fails ends gemini -p with the same stdout and exit status
// under hooksup as plain.
func TestGeminiNoChecksModelError(t *testing.T) {
	plain := newRealGemini(t, mockapi.GeminiReply{Status: 400})
	pres := plain.gemini("-p", "what is the answer?")
	rg := newRealGemini(t, mockapi.GeminiReply{Status: 400})
	res := rg.hooksup("--config", rg.config(`mode = "auto"`), "gemini", "-p", "what is the answer?")
	t.Logf("plain gemini: exit %d stdout %q; hooksup gemini: exit %d stdout %q\nstderr: %s", pres.ExitCode, pres.Stdout, res.ExitCode, res.Stdout, res.Stderr)
	if res.ExitCode != pres.ExitCode || res.Stdout != pres.Stdout || res.ExitCode == 0 {
		t.Fatalf("hooksup gemini -p: exit %d stdout %q; plain gemini -p: exit %d stdout %q",
			res.ExitCode, res.Stdout, pres.ExitCode, pres.Stdout)
	}
}

// treeSums maps every file under dir (relative path, links by their target) to a digest of its
// content, leaving out the directories skip names (relative).
func treeSums(t *testing.T, dir string, skip ...string) map[string]string {
	t.Helper()
	sums := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		for _, s := range skip {
			if rel == s {
				return filepath.SkipDir
			}
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			l, _ := os.Readlink(p)
			sums[rel] = "link:" + l
		case d.Type().IsRegular():
			b, _ := os.ReadFile(p)
			sums[rel] = fmt.Sprintf("%x", sha256.Sum256(b))
		case d.IsDir():
			sums[rel+"/"] = "dir"
		}
		return nil
	})
	return sums
}

// geminiUser is the user other than root to run hooksup gemini as: nil for the test's own user
// when it is not root, else a throwaway one (useradd, removed at the end).
func geminiUser(t *testing.T) (cred *syscall.Credential) {
	t.Helper()
	if os.Getuid() != 0 {
		return nil
	}
	if _, err := exec.LookPath("useradd"); err != nil {
		t.Skip("running as root without useradd: no ordinary user to run gemini as")
	}
	name := fmt.Sprintf("hxg%d", os.Getpid()%100000)
	if out, err := exec.Command("useradd", "-M", "-N", "-s", "/bin/sh", name).CombinedOutput(); err != nil {
		t.Fatalf("useradd %s: %v: %s", name, err, out)
	}
	t.Cleanup(func() { exec.Command("userdel", name).Run() })
	id := func(flag string) uint32 {
		out, err := exec.Command("id", flag, name).Output()
		if err != nil {
			t.Fatalf("id %s %s: %v", flag, name, err)
		}
		n, _ := strconv.Atoi(strings.TrimSpace(string(out)))
		return uint32(n)
	}
	return &syscall.Credential{Uid: id("-u"), Gid: id("-g")}
}

// (f) As an ordinary user (not root) whose ~/.gemini/settings.json has settings of their own (a
// comment, a theme, a hook): the stop is gated, their hook still runs, the chat lands in their
// ~/.gemini, and their settings.json and the project are unchanged byte for byte.
func TestGeminiOrdinaryUserKeepsTheirFiles(t *testing.T) {
	cred := geminiUser(t)
	srv := mockapi.NewGeminiServer(t, &mockapi.GeminiScript{Replies: []mockapi.GeminiReply{
		mockapi.GeminiText("Done, I think."), mockapi.GeminiText("Fixed it."),
	}}, mockapi.WithNetNS(), mockapi.WithQuiet())
	// Everything the user runs or writes lives under one directory they can reach.
	root, err := os.MkdirTemp("", "hgu")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	env := mockapi.NewGeminiEnv(t, srv.URL, filepath.Join(root, "g"))
	if cred != nil {
		// gemini and hooksup as installed where the user can run them.
		install := resolvedDir(t, env.Gemini)
		for filepath.Base(install) != "node_modules" && install != "/" {
			install = filepath.Dir(install)
		}
		copied := filepath.Join(root, "gemini", "node_modules")
		os.MkdirAll(filepath.Dir(copied), 0o755)
		// Hard links where they can be made: the package is some 100 MB.
		if exec.Command("cp", "-al", install, copied).Run() != nil {
			os.RemoveAll(copied)
			if out, err := exec.Command("cp", "-a", install, copied).CombinedOutput(); err != nil {
				t.Fatalf("copy gemini: %v: %s", err, out)
			}
		}
		env.Gemini = filepath.Join(copied, ".bin", "gemini")
		os.Remove(filepath.Join(env.BinDir, "gemini"))
		if err := os.Symlink(env.Gemini, filepath.Join(env.BinDir, "gemini")); err != nil {
			t.Fatal(err)
		}
		env.Credential = cred
	}
	hbin := filepath.Join(root, "hbin")
	os.MkdirAll(hbin, 0o755)
	for _, b := range []string{hooksupBin, hookClientBin} {
		data, err := os.ReadFile(b)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(hbin, filepath.Base(b)), data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, k := range []string{"state", "run", "config"} {
		os.MkdirAll(filepath.Join(root, k), 0o700)
	}
	env.Setenv("XDG_STATE_HOME", filepath.Join(root, "state"))
	env.Setenv("XDG_RUNTIME_DIR", filepath.Join(root, "run"))
	env.Setenv("XDG_CONFIG_HOME", filepath.Join(root, "config"))

	// Their own settings: a comment, a theme and an AfterAgent hook of theirs.
	theirHook := filepath.Join(env.Home, "their-hook-ran")
	settings := []byte(`// my gemini settings
{
  "security": {"auth": {"selectedType": "gemini-api-key"}},
  "privacy": {"usageStatisticsEnabled": false},
  "telemetry": {"enabled": false},
  "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
  "ide": {"enabled": false},
  "model": {"name": "` + mockapi.GeminiModel + `"},
  "ui": {"theme": "GitHub"}, /* mine */
  "hooks": {"AfterAgent": [{"hooks": [{"name": "mine", "type": "command", "command": "echo ran >> ` + theirHook + `", "timeout": 5000}]}]}
}
`)
	if err := os.WriteFile(env.SettingsPath(), settings, 0o644); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(env.Home, "failed-once")
	cfgPath := filepath.Join(env.Home, "hooksup-test.toml")
	os.WriteFile(cfgPath, []byte(`mode = "auto"
[[stop.checks]]
name = "once"
command = "test -f `+marker+` || { touch `+marker+`; echo CHECK-REASON-7Q; exit 1; }"
retry_on_failure = true
`), 0o644)
	os.WriteFile(filepath.Join(env.WorkDir, "main.go"), []byte("package main\n"), 0o644)
	if cred != nil {
		for _, d := range []string{root, env.Home, env.WorkDir, env.TmpDir} {
			if out, err := exec.Command("chown", "-R", fmt.Sprintf("%d:%d", cred.Uid, cred.Gid), d).CombinedOutput(); err != nil {
				t.Fatalf("chown: %v: %s", err, out)
			}
		}
		os.Chmod(filepath.Dir(filepath.Join(root, "g")), 0o755)
		os.Chmod(root, 0o755)
	}
	project := treeSums(t, env.WorkDir)
	gemDir := treeSums(t, env.GeminiDir, "tmp", "history")

	h := hooksupEnv{t: t, run: filepath.Join(root, "run"), state: filepath.Join(root, "state"), home: env.Home, runCmd: srv.Run, command: env.Command}
	res := h.runBounded("hooksup", filepath.Join(hbin, "hooksup"), "--config", cfgPath, "gemini", "-p", "fix the tests")
	if res.ExitCode != 0 || res.Stdout != "Done, I think.Fixed it.\n" {
		t.Fatalf("exit %d stdout %q\nstderr: %s\nlog: %s", res.ExitCode, res.Stdout, res.Stderr, h.log())
	}
	if got := decisions(h.verdicts()); got != "Stop:block/check:once Stop:allow/checks" {
		t.Fatalf("verdicts: %s\nstderr: %s\nlog: %s", got, res.Stderr, h.log())
	}
	if turns := srv.Turns(); len(turns) != 2 || !strings.Contains(turns[1].LastUserText(), "CHECK-REASON-7Q") {
		t.Fatalf("%d turns; the second does not carry the check's reason", len(turns))
	}
	if b, _ := os.ReadFile(theirHook); strings.Count(string(b), "ran") != 2 {
		t.Fatalf("their own AfterAgent hook ran %d times, want 2 (once a stop)", strings.Count(string(b), "ran"))
	}
	if b, err := os.ReadFile(env.SettingsPath()); err != nil || !bytes.Equal(b, settings) {
		t.Fatalf("their settings.json changed (%v):\n%s", err, b)
	}
	after := treeSums(t, env.GeminiDir, "tmp", "history")
	for k, v := range gemDir {
		if after[k] != v {
			t.Errorf("~/.gemini/%s changed", k)
		}
	}
	for k := range after {
		if _, ok := gemDir[k]; !ok && k != "projects.json" {
			t.Errorf("~/.gemini/%s is new (only gemini's projects.json may be)", k)
		}
	}
	if got := treeSums(t, env.WorkDir); fmt.Sprint(got) != fmt.Sprint(project) {
		t.Errorf("the project changed: %v, was %v", got, project)
	}
	if chats, _ := filepath.Glob(env.ChatsGlob()); len(chats) != 1 {
		t.Errorf("chats in their ~/.gemini: %v, want the session's", chats)
	}
	if left, _ := filepath.Glob(filepath.Join(root, "run", "hooksup", "*")); len(left) > 0 {
		t.Errorf("the session left %v in the runtime directory", left)
	}
	if cred != nil {
		var st syscall.Stat_t
		chats, _ := filepath.Glob(env.ChatsGlob())
		if len(chats) == 1 && syscall.Stat(chats[0], &st) == nil && st.Uid != cred.Uid {
			t.Errorf("the chat is owned by uid %d, not the user's %d", st.Uid, cred.Uid)
		}
	}
}

// resolvedDir is the directory of the file path resolves to.
func resolvedDir(t *testing.T, path string) string {
	t.Helper()
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Dir(real)
}

// hooksup doctor names the gemini it would run and its version, how hooksup gemini gives it its
// hooks, and where gemini reads hooks of the person's own.
func TestGeminiDoctor(t *testing.T) {
	rg := newRealGemini(t)
	s := mockapi.OfflineGeminiSettings()
	s["hooks"] = map[string]any{"AfterAgent": []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": "mine.sh"}}}}}
	b, _ := json.Marshal(s)
	if err := os.WriteFile(rg.env.SettingsPath(), b, 0o644); err != nil {
		t.Fatal(err)
	}
	res := rg.hooksup("doctor")
	for _, want := range []string{
		"gemini\n  ✓ " + rg.env.BinDir + "/gemini: Gemini CLI 0.61.0 (hooksup supports 0.61.0 and newer)",
		"hooksup gemini runs gemini with a home of its own for the session, mirroring yours, whose settings add its hooks (nothing of yours is written): SessionStart, BeforeAgent, Notification, AfterAgent, SessionEnd",
		"gemini reads hooks of its own from " + rg.env.SettingsPath(),
	} {
		if !strings.Contains(res.Stdout, want) {
			t.Errorf("doctor does not say %q:\n%s", want, res.Stdout)
		}
	}
	rg.env.Setenv("HOOKSUP_GEMINI_BIN", filepath.Join(rg.env.Home, "no-gemini"))
	res = rg.hooksup("doctor")
	if !strings.Contains(res.Stdout, "no-gemini not found (only hooksup gemini needs it") {
		t.Errorf("doctor without gemini:\n%s", res.Stdout)
	}
}

// hooksup install --agent gemini leaves a settings file with comments alone, and says why:
// hooksup would not keep them.
func TestGeminiInstallLeavesCommentedSettings(t *testing.T) {
	rg := newRealGemini(t)
	before, err := os.ReadFile(rg.env.SettingsPath())
	if err != nil {
		t.Fatal(err)
	}
	commented := append([]byte("// mine\n"), before...)
	os.WriteFile(rg.env.SettingsPath(), commented, 0o644)
	if res := rg.hooksup("install", "--agent", "gemini"); res.ExitCode == 0 || !strings.Contains(res.Stderr, "comments") {
		t.Fatalf("install over comments: exit %d %s %s", res.ExitCode, res.Stdout, res.Stderr)
	}
	if now, _ := os.ReadFile(rg.env.SettingsPath()); string(now) != string(commented) {
		t.Fatalf("settings.json with comments changed:\n%s", now)
	}
}
