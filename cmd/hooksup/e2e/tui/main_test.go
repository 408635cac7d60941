// Package tui holds hooksup's end-to-end tests of hooksup's terminal interface over the real Claude Code or the simulated agent, driven through tmux: the real hooksup and hook
// client, built once for the package (e2e.Main).
package tui

import (
	"os"
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
)

func TestMain(m *testing.M) {
	os.Exit(e2e.Main(m, "../..", "../../../hooksup-hook", e2e.Race))
}
