// Command hooksup-hook is the hook client that `hooksup claude` injects: it relays one hook
// call to the supervisor over its socket and prints the answer. It is also the hook `hooksup
// install` registers (EVENT --installed): under a supervisor it steps aside; with none running,
// the stop is decided here by running the project's checks, which is `hooksup hook`'s work, so
// this process becomes the hooksup installed beside it (exec, its input unread). It links the
// hook protocol alone: it runs on every hook call of every session, and the engine, the
// configuration and the checks, linked in, made each call's start-up some 15 % slower than a bare
// Go client's. Like `hooksup hook`, it fails open: whatever goes wrong, the agent gets exit 0.
package main

import (
	"io"
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

const usage = "usage: hooksup-hook [--agent NAME] EVENT [--installed] (reads the hook JSON on stdin; run by the agent) | hooksup-hook --version\n"

func main() {
	if len(os.Args) < 2 {
		os.Stderr.WriteString(usage)
		os.Exit(0)
	}
	// An event name never starts with "-": a flag other than --agent is for a person, not a
	// hook call.
	_, event, installed, ok := hooks.HookArgs(os.Args[1:])
	if arg := os.Args[1]; !ok || strings.HasPrefix(event, "-") || (strings.HasPrefix(arg, "-") && arg != hooks.AgentFlag) {
		switch strings.TrimLeft(arg, "-") {
		case "version":
			os.Stdout.WriteString(buildinfo.String("hooksup-hook", version, commit, date) + "\n")
		default:
			os.Stderr.WriteString(usage)
		}
		os.Exit(0)
	}
	c := hooks.Client{Installed: installed}
	if installed && os.Getenv(hooks.EnvSocket) == "" {
		// No supervisor: hooksup decides the stop, as `hooksup hook` with the same arguments.
		err := execHooksup(os.Args[1:])
		// Still here: hooksup could not be started. The stop is allowed, and the log says why.
		io.Copy(io.Discard, os.Stdin)
		c.Logf("hook %s: the installed hook decides a stop through hooksup, which did not start: %v; install hooksup and hooksup-hook side by side (allowed)", event, err)
		os.Exit(0)
	}
	os.Exit(c.Run(event, os.Stdin, os.Stdout, os.Stderr))
}
