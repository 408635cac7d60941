// Command hooksup-hook is the hook client that `hooksup claude` injects: it relays one hook
// call to the supervisor over its socket and prints the answer. It is also the hook `hooksup
// install` registers (EVENT --installed): with no supervisor running, it decides a stop itself,
// running the project's checks (standalone mode). It is `hooksup hook EVENT [--installed]`
// without the TUI linked in, because it runs on every stop of every session and hooksup's
// start-up costs a few times its own: of the agents it links only their dialects
// (agent/agents/dialects). Like `hooksup hook`, it fails open: whatever goes wrong, the agent
// gets exit 0.
package main

import (
	"io"
	"os"
	"strings"

	"github.com/hooksup/hooksup/agent/agents/dialects"
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

const usage = "usage: hooksup-hook [--agent NAME] EVENT [--installed] (reads the hook JSON on stdin; run by the agent) | hooksup-hook --version\n"

func main() {
	if len(os.Args) < 2 {
		os.Stderr.WriteString(usage)
		os.Exit(0)
	}
	// An event name never starts with "-": a flag other than --agent is for a person, not a
	// hook call.
	name, event, installed, ok := hooks.HookArgs(os.Args[1:])
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
	if c.Installed {
		// No supervisor in the environment: decide the stop here, as the agent the command
		// names speaks, else the one its environment says. (Injected, it has one.)
		c.Standalone = func(event string, payload []byte, stdout, _ io.Writer) int {
			return engine.StandaloneHook(dialect(name), event, payload, stdout)
		}
	}
	os.Exit(c.Run(event, os.Stdin, os.Stdout, os.Stderr))
}

// dialect is the agent named name's, else the one the environment says ran the hook, else nil.
func dialect(name string) hooks.Dialect {
	if d, ok := dialects.ByName(name); ok {
		return d
	}
	if d, ok := dialects.FromEnv(os.Getenv); ok {
		return d
	}
	return nil
}
