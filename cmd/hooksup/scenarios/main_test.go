// Package scenarios holds hooksup's end-to-end scenarios, each written once and run for every
// agent hooksup supervises: the real agent, offline against its mock API
// (cmd/hooksup/internal/mockapi), under the real hooksup and hook client. What differs between
// the agents is in their drivers (agents_test.go); a scenario says what the person and the
// agent see.
package scenarios

import (
	"os"
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
)

// hooksupBin is the real hooksup, built once for the package's tests, with the hook client
// hookClientBin beside it.
var hooksupBin, hookClientBin string

func TestMain(m *testing.M) {
	os.Exit(e2e.RunWithBinaries(m, "..", "../../hooksup-hook", e2e.Plain, &hooksupBin, &hookClientBin))
}
