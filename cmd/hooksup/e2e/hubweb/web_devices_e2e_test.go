package hubweb

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"

	"github.com/hooksup/hooksup/web"
)

// A device paired before device keys (a token's hash, no key) logs in no more: hooksup web
// devices lists it and says to pair it again or revoke it; a device with a key gets no such word.
func TestWebDevicesSaysWhichDevicesMustPairAgain(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	if err := os.MkdirAll(s.StateDir(), 0o700); err != nil {
		t.Fatal(err)
	}
	devices := `[
 {"id": "old1", "name": "Safari on iPhone", "sha256": "` + strings.Repeat("ab", 32) + `", "created": "2026-01-02T03:04:05Z", "last_seen": "2026-01-02T03:04:05Z"},
 {"id": "new2", "name": "Chrome on Linux", "key": "BPk", "origin": "http://127.0.0.1:7862", "created": "2026-11-02T03:04:05Z", "last_seen": "2026-11-02T03:04:05Z"}
]
`
	if err := os.WriteFile(filepath.Join(s.StateDir(), web.DevicesFile), []byte(devices), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out := s.Hooksup(t, "web", "devices")
	if code != 0 {
		t.Fatalf("web devices: exit %d\n%s", code, out)
	}
	want := "old1 (Safari on iPhone) was paired before device keys and logs in no more: pair it again (open the page there and run hooksup web pair), or hooksup web revoke old1"
	if !strings.Contains(out, want) {
		t.Errorf("web devices does not say the old device must pair again:\n%s", out)
	}
	if strings.Contains(out, "new2 (Chrome on Linux) was paired before") {
		t.Errorf("web devices says a device with a key must pair again:\n%s", out)
	}
	if !strings.Contains(out, "Chrome on Linux") {
		t.Errorf("web devices leaves out the paired device:\n%s", out)
	}
}
