// Package present words the supervisor's data for people: the text the TUI and the headless
// printer share. The supervisor keeps data; its front ends say it.
package present

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/hooksup/hooksup/supervisor"
)

// Count prints a count for people: 950, 12.3k, 4.5M.
func Count(n int64) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 1_000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}

// CheckFailure says how a check failed: "exit 1", "timed out after 2m0s", "could not start:
// …", "interrupted".
func CheckFailure(r supervisor.CheckResult) string {
	switch {
	case r.StartErr != nil:
		return "could not start: " + r.StartErr.Error()
	case r.Canceled:
		return "interrupted"
	case r.TimedOut:
		return fmt.Sprintf("timed out after %s", r.Duration.Round(time.Second))
	}
	return fmt.Sprintf("exit %d", r.ExitCode)
}

// SessionLine is a session's summary in one line, e.g. "session 4312ba3d: 12.3k tokens (in
// 1.2k · out 3.4k · cache read 7.0k · cache write 700) · tools Bash×2 · 1 turns · 2 verdicts".
func SessionLine(s supervisor.Summary) string {
	id := s.SessionID
	if i := strings.IndexByte(id, '-'); i > 0 {
		id = id[:i]
	}
	var tools []string
	for k, v := range s.ToolCalls {
		tools = append(tools, fmt.Sprintf("%s×%d", k, v))
	}
	sort.Strings(tools)
	line := fmt.Sprintf("session %s: %s tokens (in %s · out %s · cache read %s · cache write %s)", id,
		Count(s.Usage.Total()), Count(s.Usage.InputTokens), Count(s.Usage.OutputTokens),
		Count(s.Usage.CacheReadTokens), Count(s.Usage.CacheCreationTokens))
	if len(tools) > 0 {
		line += " · tools " + strings.Join(tools, " ")
	}
	return line + fmt.Sprintf(" · %d turns · %d verdicts", s.Turns, s.Verdicts)
}

// FirstLine is the first line of s, trimmed.
func FirstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
