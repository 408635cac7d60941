package supervisor

import (
	"fmt"
	"os"
)

// sunPathMax is the size of sun_path in macOS's sockaddr_un, terminating NUL included.
const sunPathMax = 104

// fallbackRuntimeBase is where hooksup-<uid> goes without a usable $XDG_RUNTIME_DIR (macOS sets
// none): the per-user $TMPDIR (/var/folders/…/T), else /tmp when a socket path under $TMPDIR
// would not fit in sun_path.
func fallbackRuntimeBase() string {
	base := os.TempDir()
	// A session's socket is <base>/hooksup-<uid>/<16 hex>.sock.
	longest := len(base) + len(fmt.Sprintf("/hooksup-%d/", os.Getuid())) + len("0123456789abcdef.sock")
	if longest >= sunPathMax {
		return "/tmp"
	}
	return base
}
