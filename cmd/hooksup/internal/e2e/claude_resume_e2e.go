package e2e

import (
	"encoding/json"
	"strings"

	"github.com/hooksup/hooksup/verdictlog"
)

// LogVerdicts is `hooksup log --session ID --json`: the session's verdicts as hooksup log
// reads them.
func (rc *RealClaude) LogVerdicts(id string) []verdictlog.Verdict {
	rc.T.Helper()
	res := rc.Hooksup("log", "--session", id, "--json")
	if res.ExitCode != 0 {
		rc.T.Fatalf("hooksup log --session %s: exit %d %s", id, res.ExitCode, res.Stderr)
	}
	var vs []verdictlog.Verdict
	for _, line := range strings.Split(strings.TrimSpace(res.Stdout), "\n") {
		var v verdictlog.Verdict
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			rc.T.Fatalf("hooksup log line %q: %v", line, err)
		}
		vs = append(vs, v)
	}
	return vs
}
