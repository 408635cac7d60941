package e2e

import (
	"time"

	"github.com/hooksup/hooksup/agent/claude"
	"github.com/hooksup/hooksup/hooks"
)

// ClaudeVersion is the version of the claude under test.
func (rc *RealClaude) ClaudeVersion() hooks.Version {
	rc.T.Helper()
	v, err := claude.Version(rc.T.Context(), rc.Env.Claude, rc.Env.Environ(), 30*time.Second)
	if err != nil {
		rc.T.Fatal(err)
	}
	return v
}

// Events is what hooksup claude injects into the claude under test (for tests that build a
// supervisor themselves).
func (rc *RealClaude) Events(args ...string) []string {
	return claude.EventsFor(rc.ClaudeVersion(), claude.Agent{}.Headless(args))
}
