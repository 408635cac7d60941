// Package initcmd holds hooksup's end-to-end tests of hooksup init, the proof of the checks it proposes, hooksup demo and trusting a project: the real hooksup and hook
// client, built once for the package (e2e.Main).
package initcmd

import (
	"os"
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
)

func TestMain(m *testing.M) {
	os.Exit(e2e.Main(m, "../..", "../../../hooksup-hook", e2e.Plain))
}
