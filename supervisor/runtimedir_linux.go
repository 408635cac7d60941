package supervisor

import "os"

// fallbackRuntimeBase is where hooksup-<uid> goes without a usable $XDG_RUNTIME_DIR: the
// temporary directory ($TMPDIR, else /tmp).
func fallbackRuntimeBase() string { return os.TempDir() }
