// Package claude holds hooksup's end-to-end tests of the real Claude Code, offline against the mock Messages API, run headless under hooksup: the real hooksup and hook
// client, built once for the package (e2e.Main).
package claude

import (
	"os"
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
)

func TestMain(m *testing.M) {
	os.Exit(e2e.Main(m, "../..", "../../../hooksup-hook", e2e.Plain))
}
