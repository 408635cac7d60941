// Package ssh holds hooksup's end-to-end tests of the hub over SSH, against an sshd of their own on loopback: the real hooksup and hook
// client, built once for the package (e2e.Main).
package ssh

import (
	"os"
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
)

func TestMain(m *testing.M) {
	os.Exit(e2e.Main(m, "../..", "../../../hooksup-hook", e2e.Plain))
}
