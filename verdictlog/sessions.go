package verdictlog

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/hooksup/hooksup/internal/termsafe"
)

// verdictsFile is a session's verdict log, in its directory under SessionsDir.
const verdictsFile = "verdicts.jsonl"

// SessionsDir is where the verdict logs of all sessions live.
func SessionsDir(stateDir string) string { return filepath.Join(stateDir, "sessions") }

// Path is the verdict log of a session.
func Path(sessionsDir, sessionID string) string {
	return filepath.Join(sessionsDir, SafeName(sessionID), verdictsFile)
}

// LatestSession returns the id of the session whose verdict log changed last.
func LatestSession(sessionsDir string) (string, error) {
	ss, err := Sessions(sessionsDir)
	if errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("no verdicts yet: %s does not exist", sessionsDir)
	}
	if err != nil {
		return "", err
	}
	if len(ss) == 0 {
		return "", fmt.Errorf("no verdicts yet in %s", sessionsDir)
	}
	return ss[0].ID, nil
}

// FindSession is the session that id names: its whole id, or the start of one (the 8
// characters hooksup shows everywhere) that names a single session with a verdict log.
func FindSession(sessionsDir, id string) (string, error) {
	if _, err := os.Stat(Path(sessionsDir, id)); err == nil {
		return id, nil
	}
	ss, err := Sessions(sessionsDir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	var match []string
	for _, s := range ss {
		if strings.HasPrefix(s.ID, SafeName(id)) {
			match = append(match, s.ID)
		}
	}
	switch len(match) {
	case 0:
		return "", fmt.Errorf("no session \"%s\" has verdicts (looked in %s): hooksup log without --session shows the latest", termsafe.String(id), termsafe.String(sessionsDir))
	case 1:
		return match[0], nil
	}
	if len(match) > 5 {
		match = append(match[:5], "…")
	}
	return "", fmt.Errorf("\"%s\" names %d sessions (%s): give more of the id", termsafe.String(id), len(match), strings.Join(match, ", "))
}

// SessionInfo is a session with a verdict log.
type SessionInfo struct {
	ID          string
	LastVerdict time.Time // when its verdict log last changed
}

// Sessions are the sessions with a verdict log, the latest first.
func Sessions(sessionsDir string) ([]SessionInfo, error) {
	ents, err := os.ReadDir(sessionsDir)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	var ss []SessionInfo
	for _, e := range ents {
		st, err := os.Stat(filepath.Join(sessionsDir, e.Name(), verdictsFile))
		if err == nil {
			ss = append(ss, SessionInfo{e.Name(), st.ModTime()})
		}
	}
	sort.Slice(ss, func(i, j int) bool { return ss[i].LastVerdict.After(ss[j].LastVerdict) })
	return ss, nil
}
