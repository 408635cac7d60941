// Package agents holds hooksup's end-to-end tests of the agents other than Claude Code (Codex, Gemini CLI, Copilot CLI, Qwen Code), each the real agent offline against its mock API, and where hooksup finds its hook client: the real hooksup and hook
// client, built once for the package (e2e.Main).
package agents

import (
	"os"
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
)

func TestMain(m *testing.M) {
	os.Exit(e2e.Main(m, "../..", "../../../hooksup-hook", e2e.Plain))
}
