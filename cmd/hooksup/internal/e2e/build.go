package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Build is how Main builds the binaries a package's tests drive.
type Build int

const (
	// Plain binaries are built as a user's are. The packages whose tests are about what the
	// agents and the person see build them so: a race-built hooksup costs some five times the
	// CPU of a plain one (a hook call 66 ms against 8), and the agents' own tests need the CPU.
	Plain Build = iota
	// Race binaries carry the race detector when the tests run under it, so that a race in the
	// binaries the tests drive fails those tests too: the packages whose tests are about
	// hooksup's own concurrency (many clients of one hub and web server; the pty, the screen
	// and the supervisor at once in the TUI) build them so.
	Race
)

// Binaries builds hooksup and the hook client beside it (as go install ./cmd/... puts them),
// from the packages at hooksupPkg and hookPkg (paths as go build takes them), the simulated
// claude (SimAgentBin) and the test MCP server (MCPProbeBin), into a fresh temporary directory, as b says. A race-built program
// sleeps a second before it exits (for late reports): Binaries sets GORACE so that every hook
// call does not take a second longer than it does for a user. remove deletes the directory.
func Binaries(hooksupPkg, hookPkg string, b Build) (hooksup, hook string, remove func(), err error) {
	dir, err := os.MkdirTemp("", "hooksup-bin")
	if err != nil {
		return "", "", nil, err
	}
	remove = func() { os.RemoveAll(dir) }
	hooksup, hook = filepath.Join(dir, "hooksup"), filepath.Join(dir, "hooksup-hook")
	sim, probe := filepath.Join(dir, "simagent"), filepath.Join(dir, "mcpprobe")
	race := b == Race && RaceEnabled
	for _, bb := range []struct {
		out, pkg string
		race     bool
	}{{hooksup, hooksupPkg, race}, {hook, hookPkg, race}, {sim, simAgentPkg, false}, {probe, mcpProbePkg, false}} {
		build := goBuild(bb.out, bb.pkg, bb.race)
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			remove()
			return "", "", nil, fmt.Errorf("building %s: %w", bb.pkg, err)
		}
	}
	SimAgentBin, MCPProbeBin, BuiltWithRace = sim, probe, race
	if race {
		os.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	}
	return hooksup, hook, remove, nil
}

// simAgentPkg is the simulated claude's program.
const simAgentPkg = "github.com/hooksup/hooksup/internal/agentsim/simagent"

// SimAgentBin is the simulated claude (internal/agentsim) that Binaries built: hooksup runs it
// as the agent (--claude-bin) where a test needs no real one.
var SimAgentBin string

// mcpProbePkg is the test MCP server's program.
const mcpProbePkg = "github.com/hooksup/hooksup/internal/agentsim/mcpprobe"

// MCPProbeBin is the test MCP server (internal/agentsim/mcpprobe) that Binaries built: an
// agent configured to start it over stdio has one tool, probe, whose calls append their note
// to the file named by $MCPPROBE_LOG.
var MCPProbeBin string

// BuiltWithRace says whether Binaries built hooksup and the hook client with the race detector.
var BuiltWithRace bool

// RunWithBinaries is a TestMain's body: it builds the binaries (Binaries, as b says) into
// *hooksup and *hook, runs the tests and removes the binaries; its result is the exit code.
func RunWithBinaries(m *testing.M, hooksupPkg, hookPkg string, b Build, hooksup, hook *string) int {
	var remove func()
	var err error
	*hooksup, *hook, remove, err = Binaries(hooksupPkg, hookPkg, b)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer remove()
	return m.Run()
}

// GoBuild is the go build of a tool a test needs (a client, a flood), plain.
func GoBuild(out, pkg string) *exec.Cmd { return goBuild(out, pkg, false) }

func goBuild(out, pkg string, race bool) *exec.Cmd {
	args := []string{"build", "-o", out}
	if race {
		args = append(args, "-race")
	}
	return exec.Command("go", append(args, pkg)...)
}
