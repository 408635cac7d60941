package agents

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// End-to-end tests with the real Gemini CLI (HOOKSUP_TEST_GEMINI) offline, against the mock
// Gemini API in a throwaway HOME.

// (a) No checks: a model request that fails ends gemini -p with the same stdout and exit status
// under hooksup as plain.
func TestGeminiNoChecksModelError(t *testing.T) {
	t.Parallel()
	plain := e2e.NewRealGemini(t, mockapi.GeminiReply{Status: 400})
	pres := plain.Gemini("-p", "what is the answer?")
	rg := e2e.NewRealGemini(t, mockapi.GeminiReply{Status: 400})
	res := rg.Hooksup("--config", rg.Config(`mode = "auto"`), "gemini", "-p", "what is the answer?")
	t.Logf("plain gemini: exit %d stdout %q; hooksup gemini: exit %d stdout %q\nstderr: %s", pres.ExitCode, pres.Stdout, res.ExitCode, res.Stdout, res.Stderr)
	if res.ExitCode != pres.ExitCode || res.Stdout != pres.Stdout || res.ExitCode == 0 {
		t.Fatalf("hooksup gemini -p: exit %d stdout %q; plain gemini -p: exit %d stdout %q",
			res.ExitCode, res.Stdout, pres.ExitCode, pres.Stdout)
	}
}

// hooksup doctor names the gemini it would run and its version, how hooksup gemini gives it its
// hooks, and where gemini reads hooks of the person's own.
func TestGeminiDoctor(t *testing.T) {
	t.Parallel()
	rg := e2e.NewRealGemini(t)
	s := mockapi.OfflineGeminiSettings()
	s["hooks"] = map[string]any{"AfterAgent": []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": "mine.sh"}}}}}
	b, _ := json.Marshal(s)
	if err := os.WriteFile(rg.Env.SettingsPath(), b, 0o644); err != nil {
		t.Fatal(err)
	}
	res := rg.Hooksup("doctor")
	for _, want := range []string{
		"gemini\n  ✓ " + rg.Env.BinDir + "/gemini: Gemini CLI 0.61.0 (hooksup supports 0.61.0 and newer)",
		"hooksup gemini runs gemini with a home of its own for the session, mirroring yours, whose settings add its hooks (nothing of yours is written): SessionStart, BeforeAgent, Notification, AfterAgent, SessionEnd",
		"gemini reads hooks of its own from " + rg.Env.SettingsPath(),
	} {
		if !strings.Contains(res.Stdout, want) {
			t.Errorf("doctor does not say %q:\n%s", want, res.Stdout)
		}
	}
	rg.Env.Setenv("HOOKSUP_GEMINI_BIN", filepath.Join(rg.Env.Home, "no-gemini"))
	res = rg.Hooksup("doctor")
	if !strings.Contains(res.Stdout, "no-gemini not found (only hooksup gemini needs it") {
		t.Errorf("doctor without gemini:\n%s", res.Stdout)
	}
}

// hooksup install --agent gemini leaves a settings file with comments alone, and says why:
// hooksup would not keep them.
func TestGeminiInstallLeavesCommentedSettings(t *testing.T) {
	t.Parallel()
	rg := e2e.NewRealGemini(t)
	before, err := os.ReadFile(rg.Env.SettingsPath())
	if err != nil {
		t.Fatal(err)
	}
	commented := append([]byte("// mine\n"), before...)
	os.WriteFile(rg.Env.SettingsPath(), commented, 0o644)
	if res := rg.Hooksup("install", "--agent", "gemini"); res.ExitCode == 0 || !strings.Contains(res.Stderr, "comments") {
		t.Fatalf("install over comments: exit %d %s %s", res.ExitCode, res.Stdout, res.Stderr)
	}
	if now, _ := os.ReadFile(rg.Env.SettingsPath()); string(now) != string(commented) {
		t.Fatalf("settings.json with comments changed:\n%s", now)
	}
}
