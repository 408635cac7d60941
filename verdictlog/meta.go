package verdictlog

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hooksup/hooksup/internal/atomicfile"
)

// metaFile is a session's description, beside its verdict log.
const metaFile = "session.json"

// Meta describes a session, in session.json beside its verdict log: which project it ran in,
// so that hooksup log finds a project's sessions, and when it started.
type Meta struct {
	// Project is the project's directory: its .hooksup.toml's, else where the session ran.
	Project string    `json:"project"`
	Cwd     string    `json:"cwd,omitempty"`    // where the session ran
	Agent   string    `json:"agent,omitempty"`  // claude, codex, …
	Started time.Time `json:"started,omitzero"` // when the agent started; its first verdict's question when not known
}

// ReadMeta reads the description of session id; a session an older hooksup logged has none
// (an error wrapping os.ErrNotExist).
func ReadMeta(sessionsDir, id string) (Meta, error) {
	var m Meta
	b, err := os.ReadFile(filepath.Join(sessionsDir, SafeName(id), metaFile))
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("session %s: %w", metaFile, err)
	}
	return m, nil
}

// writeMeta writes m as dir's session.json unless there is one: a resumed session keeps the
// project and start it was first logged with.
func writeMeta(dir string, m Meta) error {
	p := filepath.Join(dir, metaFile)
	if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
		return err
	}
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return atomicfile.Write(p, append(b, '\n'), 0o600)
}

// Within reports whether dir is project or a directory under it.
func Within(dir, project string) bool {
	if project == "" {
		return false
	}
	rel, err := filepath.Rel(project, dir)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../") && !filepath.IsAbs(rel)
}
