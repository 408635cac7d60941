// Package headless holds hooksup's end-to-end tests of hooksup over the simulated agent without a terminal: checks, their faults and limits, the verdict log, security: the real hooksup and hook
// client, built once for the package (e2e.Main).
package headless

import (
	"os"
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
)

func TestMain(m *testing.M) {
	os.Exit(e2e.Main(m, "../..", "../../../hooksup-hook", e2e.Plain))
}
