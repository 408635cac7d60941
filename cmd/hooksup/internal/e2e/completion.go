package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/hooksup/hooksup/internal/webtest"
	"github.com/hooksup/hooksup/web"
)

// RequireShell returns the path of a shell the completion tests run; CI installs them all.
func RequireShell(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not installed (CI must install it)", name)
		}
		t.Skipf("%s is not installed", name)
	}
	return p
}

const CompletionSession = "5f0c2a1e-7b7d-4c1e-9f55-0123456789ab"

// CompletionSandbox is a sandbox with hooksup first on PATH, one session with a verdict log and
// a custom theme "my-ocean".
func CompletionSandbox(t *testing.T) (*Sandbox, []string, string) {
	t.Helper()
	s := NewSandbox(t)
	dir := filepath.Join(s.StateDir(), "sessions", CompletionSession)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "verdicts.jsonl"), []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	themeDir := filepath.Join(filepath.Dir(s.Home), "cfg", "hooksup", "themes")
	if err := os.MkdirAll(themeDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(themeDir, "my-ocean.toml"), []byte("base = \"dark\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A browser paired with hooksup web.
	store := web.NewStore(s.StateDir())
	code, _, err := store.NewPairingCode(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	key, err := webtest.NewDevice("http://127.0.0.1:7862/")
	if err != nil {
		t.Fatal(err)
	}
	d, ok, err := store.Pair(code, "Firefox on Linux", key.PublicKey(), key.Origin, "127.0.0.1:7862", "", time.Now())
	if err != nil || !ok {
		t.Fatalf("pairing a browser: %v, %v", err, ok)
	}
	env := append(append([]string{}, s.Env...), "PATH="+filepath.Dir(HooksupBin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	return s, env, d.ID
}

func RunShell(t *testing.T, env []string, dir, shell string, args ...string) string {
	t.Helper()
	cmd := exec.Command(shell, args...)
	cmd.Env, cmd.Dir = env, dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %q: %v\nstdout:\n%s\nstderr:\n%s", shell, args, err, out.String(), errb.String())
	}
	if errb.Len() > 0 {
		t.Fatalf("%s %q wrote to stderr:\n%s", shell, args, errb.String())
	}
	return out.String()
}

func HooksupHelp(t *testing.T, s *Sandbox) string {
	t.Helper()
	out, err := ExecHooksup(s, "--help").Output()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}
