//go:build !linux && !darwin

package supervisor

import "os"

// fallbackRuntimeBase is where hooksup-<uid> goes without a usable $XDG_RUNTIME_DIR: the
// temporary directory.
func fallbackRuntimeBase() string { return os.TempDir() }
