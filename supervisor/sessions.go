package supervisor

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// verdictsFile is a session's verdict log, in its directory under SessionsDir.
const verdictsFile = "verdicts.jsonl"

// SessionsDir is where the verdict logs of all sessions live.
func SessionsDir(stateDir string) string { return filepath.Join(stateDir, "sessions") }

// VerdictLogPath is the verdict log of a session.
func VerdictLogPath(sessionsDir, sessionID string) string {
	return filepath.Join(sessionsDir, safeName(sessionID), verdictsFile)
}

// LatestSession returns the id of the session whose verdict log changed last.
func LatestSession(sessionsDir string) (string, error) {
	ents, err := os.ReadDir(sessionsDir)
	if errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("no verdicts yet: %s does not exist", sessionsDir)
	}
	if err != nil {
		return "", fmt.Errorf("list sessions: %w", err)
	}
	type cand struct {
		id string
		t  time.Time
	}
	var cs []cand
	for _, e := range ents {
		st, err := os.Stat(filepath.Join(sessionsDir, e.Name(), verdictsFile))
		if err == nil {
			cs = append(cs, cand{e.Name(), st.ModTime()})
		}
	}
	if len(cs) == 0 {
		return "", fmt.Errorf("no verdicts yet in %s", sessionsDir)
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].t.After(cs[j].t) })
	return cs[0].id, nil
}
