package verdictlog

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/hooksup/hooksup/internal/atomicfile"
)

// Writer appends verdicts to $STATE/sessions/<session_id>/verdicts.jsonl, one write per
// line, so a crash never leaves half a verdict.
type Writer struct {
	Dir string // $STATE/sessions
	// Meta, when its Project is set, describes the sessions it logs: it is written as a new
	// session's session.json before its first verdict. Its Started is the first session's; a
	// later one (a new session of the same agent) starts at its first verdict's question.
	Meta Meta

	mu      sync.Mutex
	files   map[string]*os.File
	started bool // a session of Meta.Started was written
}

// Append writes v to its session's log.
func (l *Writer) Append(v Verdict) error {
	line, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode verdict: %w", err)
	}
	line = append(line, '\n')
	sid := SafeName(v.SessionID)
	l.mu.Lock()
	defer l.mu.Unlock()
	f := l.files[sid]
	if f == nil {
		dir := filepath.Join(l.Dir, sid)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("verdict log: %w", err)
		}
		if l.Meta.Project != "" {
			m := l.Meta
			if l.started || m.Started.IsZero() {
				m.Started = v.Asked
				if m.Started.IsZero() {
					m.Started = v.Time
				}
			}
			l.started = true
			if err := writeMeta(dir, m); err != nil {
				return fmt.Errorf("verdict log: %w", err)
			}
		}
		f, err = os.OpenFile(filepath.Join(dir, verdictsFile), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return fmt.Errorf("verdict log: %w", err)
		}
		if l.files == nil {
			l.files = map[string]*os.File{}
		}
		l.files[sid] = f
	}
	if _, err := f.Write(line); err != nil {
		return fmt.Errorf("verdict log: %w", err)
	}
	return nil
}

// Close closes the open log files.
func (l *Writer) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	var errs []error
	for k, f := range l.files {
		errs = append(errs, f.Close())
		delete(l.files, k)
	}
	return errors.Join(errs...)
}

// SafeName keeps a session id usable as a file or directory name.
func SafeName(id string) string {
	if id == "" || id == "." || id == ".." {
		return "unknown"
	}
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == 0 {
			return '_'
		}
		return r
	}, id)
}

// WriteSummary writes sum, what the session used, as sessions/<id>/summary.json.
func WriteSummary(sessionsDir, sessionID string, sum any) error {
	dir := filepath.Join(sessionsDir, SafeName(sessionID))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	b, err := json.MarshalIndent(sum, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, "summary.json"), append(b, '\n'), 0o600)
}
