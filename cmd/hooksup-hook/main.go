// Command hooksup-hook is the hook client that `hooksup claude` injects: it relays one hook
// call to the supervisor over its socket and prints the answer. It is `hooksup hook EVENT`
// without the rest of hooksup linked in, because it runs on every stop of every session and
// the TUI's libraries cost tens of milliseconds to initialise. Like `hooksup hook`, it fails
// open: whatever goes wrong, claude gets exit 0.
package main

import (
	"os"
	"strings"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/buildinfo"
)

// Set by the linker, as for hooksup: -ldflags "-X main.version=v1.2.3 -X main.commit=… -X main.date=…".
var (
	version = ""
	commit  = ""
	date    = ""
)

const usage = "usage: hooksup-hook EVENT (reads the hook JSON on stdin; run by claude) | hooksup-hook --version\n"

func main() {
	if len(os.Args) < 2 {
		os.Stderr.WriteString(usage)
		os.Exit(0)
	}
	// An event name never starts with "-": a flag is for a person, not a hook call.
	if arg := os.Args[1]; strings.HasPrefix(arg, "-") {
		switch strings.TrimLeft(arg, "-") {
		case "version":
			os.Stdout.WriteString(buildinfo.String("hooksup-hook", version, commit, date) + "\n")
		default:
			os.Stderr.WriteString(usage)
		}
		os.Exit(0)
	}
	os.Exit(hooks.Client{}.Run(os.Args[1], os.Stdin, os.Stdout, os.Stderr))
}
