package supervisor

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// Verdict sources.
const (
	SourceManual   = "manual"
	SourceEscape   = "escape"
	SourceLimit    = "limit"
	SourceTimeout  = "timeout"
	SourceObserve  = "observe"
	SourceFailOpen = "failopen"
	SourceNoChecks = "checks" // every check passed, or there were none
)

// CheckSource is the source of a verdict a check decided.
func CheckSource(name string) string { return "check:" + name }

// Verdict is one decided Stop or SubagentStop: a line of the verdict log.
type Verdict struct {
	Time      time.Time `json:"time"`
	SessionID string    `json:"session_id"`
	Event     string    `json:"event"`
	AgentID   string    `json:"agent_id,omitempty"`
	AgentType string    `json:"agent_type,omitempty"`
	Turn      int       `json:"turn"`
	Decision  string    `json:"decision"` // allow | block | halt
	Source    string    `json:"source"`
	Reason    string    `json:"reason,omitempty"`
	Warning   string    `json:"warning,omitempty"`

	StopHookActive       bool `json:"stop_hook_active"`
	Continuations        int  `json:"continuations"` // forced continuations in this turn, this one included
	MaxContinuations     int  `json:"max_continuations"`
	SessionContinuations int  `json:"session_continuations"`
	Steers               int  `json:"steers,omitempty"` // this subagent's steers, this one included
	MaxSteers            int  `json:"max_steers,omitempty"`

	Checks    []CheckRecord `json:"checks,omitempty"`
	LatencyMS float64       `json:"latency_ms"`

	Observation *Observation `json:"observation,omitempty"`
}

// CheckRecord is what the verdict log keeps of a check run.
type CheckRecord struct {
	Name       string  `json:"name"`
	ExitCode   int     `json:"exit_code"`
	DurationMS float64 `json:"duration_ms"`
	TimedOut   bool    `json:"timed_out,omitempty"`
	Error      string  `json:"error,omitempty"`
	// Output is the end of what a failed check printed (passing checks keep none).
	Output string `json:"output,omitempty"`
}

// Observation is what hooksup knew about the session when it decided.
type Observation struct {
	Model        string         `json:"model,omitempty"`
	InputTokens  int64          `json:"input_tokens,omitempty"`
	OutputTokens int64          `json:"output_tokens,omitempty"`
	CacheRead    int64          `json:"cache_read_input_tokens,omitempty"`
	CacheCreate  int64          `json:"cache_creation_input_tokens,omitempty"`
	ToolCalls    map[string]int `json:"tool_calls,omitempty"`
	Turns        int            `json:"turns,omitempty"`
	TurnMS       int64          `json:"turn_duration_ms,omitempty"`
	LastMessage  string         `json:"last_assistant_message,omitempty"`
}

// VerdictLog appends verdicts to $STATE/sessions/<session_id>/verdicts.jsonl, one write per
// line, so a crash never leaves half a verdict.
type VerdictLog struct {
	Dir string // $STATE/sessions

	mu    sync.Mutex
	files map[string]*os.File
}

// SessionsDir is where the verdict logs of all sessions live.
func SessionsDir(stateDir string) string { return filepath.Join(stateDir, "sessions") }

// Append writes v to its session's log.
func (l *VerdictLog) Append(v Verdict) error {
	line, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode verdict: %w", err)
	}
	line = append(line, '\n')
	sid := safeName(v.SessionID)
	l.mu.Lock()
	defer l.mu.Unlock()
	f := l.files[sid]
	if f == nil {
		dir := filepath.Join(l.Dir, sid)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("verdict log: %w", err)
		}
		f, err = os.OpenFile(filepath.Join(dir, "verdicts.jsonl"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
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
func (l *VerdictLog) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	var errs []error
	for k, f := range l.files {
		errs = append(errs, f.Close())
		delete(l.files, k)
	}
	return errors.Join(errs...)
}

// safeName keeps a session id usable as a directory name.
func safeName(id string) string {
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
		st, err := os.Stat(filepath.Join(sessionsDir, e.Name(), "verdicts.jsonl"))
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

// ReadVerdicts reads a session's verdict log. A line that does not parse is reported, with its
// number, and skipped.
func ReadVerdicts(r io.Reader) ([]Verdict, []error) {
	var out []Verdict
	var errs []error
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	n := 0
	for sc.Scan() {
		n++
		if len(strings.TrimSpace(sc.Text())) == 0 {
			continue
		}
		var v Verdict
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			errs = append(errs, fmt.Errorf("line %d: %w", n, err))
			continue
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		errs = append(errs, err)
	}
	return out, errs
}

// Summary is the one human line for a verdict, e.g. "Stop → block (check tests) 1/3".
func (v Verdict) Summary() string {
	var b strings.Builder
	b.WriteString(v.Event)
	if v.AgentID != "" {
		fmt.Fprintf(&b, " [%s", v.AgentID)
		if v.AgentType != "" {
			fmt.Fprintf(&b, " %s", v.AgentType)
		}
		b.WriteString("]")
	}
	fmt.Fprintf(&b, " → %s (%s)", v.Decision, strings.Replace(v.Source, ":", " ", 1))
	if v.Event == "SubagentStop" {
		fmt.Fprintf(&b, " %d/%d", v.Steers, v.MaxSteers)
	} else {
		fmt.Fprintf(&b, " %d/%d", v.Continuations, v.MaxContinuations)
	}
	if v.Warning != "" {
		fmt.Fprintf(&b, " — %s", firstLine(v.Warning))
	}
	return b.String()
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// writeSummary writes sessions/<id>/summary.json.
func writeSummary(sessionsDir string, sum Summary) error {
	dir := filepath.Join(sessionsDir, safeName(sum.SessionID))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	b, err := json.MarshalIndent(sum, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(dir, "summary.json"), append(b, '\n'), 0o600)
}
