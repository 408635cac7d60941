// Command hooksup-hook is the hook client that `hooksup claude` injects: it relays one hook
// call to the supervisor over its socket and prints the answer. It is `hooksup hook EVENT`
// without the rest of hooksup linked in, because it runs on every stop of every session and
// the TUI's libraries cost tens of milliseconds to initialise. Like `hooksup hook`, it fails
// open: whatever goes wrong, claude gets exit 0.
package main

import (
	"os"

	"github.com/hooksup/hooksup/hooks"
)

func main() {
	if len(os.Args) < 2 {
		os.Stderr.WriteString("usage: hooksup-hook EVENT (reads the hook JSON on stdin; run by claude)\n")
		os.Exit(0)
	}
	os.Exit(hooks.Client{}.Run(os.Args[1], os.Stdin, os.Stdout, os.Stderr))
}
