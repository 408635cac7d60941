package transcript

import (
	"path/filepath"
	"testing"
)

func TestProjectDir(t *testing.T) {
	if got := ProjectDirName("/home/me/src/hooks_up.v2"); got != "-home-me-src-hooks-up-v2" {
		t.Fatal(got)
	}
	env := map[string]string{"HOME": "/h"}
	if got := ConfigDir(func(k string) string { return env[k] }); got != "/h/.claude" {
		t.Fatal(got)
	}
	env["CLAUDE_CONFIG_DIR"] = "/cfg"
	if got := ProjectDir(ConfigDir(func(k string) string { return env[k] }), "/nonexistent/p"); got != filepath.Join("/cfg", "projects", "-nonexistent-p") {
		t.Fatal(got)
	}
}
