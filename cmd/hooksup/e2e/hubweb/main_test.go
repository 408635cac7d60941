// Package hubweb holds hooksup's end-to-end tests of the hub, hooksup watch, hooksup web and its page (in a headless Chromium), Web Push and the permission page: the real hooksup and hook
// client, built once for the package (e2e.Main).
package hubweb

import (
	"os"
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
)

func TestMain(m *testing.M) {
	os.Exit(e2e.Main(m, "../..", "../../../hooksup-hook", e2e.Race))
}
