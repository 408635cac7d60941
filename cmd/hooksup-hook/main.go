// Command hooksup-hook is the hook client that `hooksup claude` injects: it relays one hook
// call to the supervisor over its socket and prints the answer. It is also the hook `hooksup
// install` registers (EVENT --installed): with no supervisor running, it decides a stop itself,
// running the project's checks (standalone mode). It is `hooksup hook EVENT [--installed]`
// without the TUI linked in, because it runs on every stop of every session and hooksup's
// start-up costs a few times its own. Like `hooksup hook`, it fails open: whatever goes wrong,
// claude gets exit 0.
package main

import (
	"io"
	"os"
	"strings"

	"github.com/hooksup/hooksup/engine"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/buildinfo"
)

// Set by the linker, as for hooksup: -ldflags "-X main.version=v1.2.3 -X main.commit=… -X main.date=…".
var (
	version = ""
	commit  = ""
	date    = ""
)

const usage = "usage: hooksup-hook EVENT [--installed] (reads the hook JSON on stdin; run by claude) | hooksup-hook --version\n"

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
	c := hooks.Client{Installed: len(os.Args) > 2 && os.Args[2] == hooks.InstalledFlag}
	if c.Installed {
		// No supervisor in the environment: decide the stop here. (Injected, it has one.)
		c.Standalone = func(event string, payload []byte, stdout, _ io.Writer) int {
			return engine.StandaloneHook(event, payload, stdout)
		}
	}
	os.Exit(c.Run(os.Args[1], os.Stdin, os.Stdout, os.Stderr))
}
