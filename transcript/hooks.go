package transcript

import (
	"slices"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/session"
)

// HookProgram returns an Options.OwnHook func that matches the commands that start one of
// programs (hooksup's binaries), read as sh reads them (hooks.SplitCommand), so however the
// path is quoted: `'/opt/a b/hooksup-hook' Stop` and `/opt/a\ b/hooksup-hook Stop` both start
// /opt/a b/hooksup-hook.
func HookProgram(programs ...string) func(command string) bool {
	ps := slices.DeleteFunc(slices.Clone(programs), func(p string) bool { return p == "" })
	return func(command string) bool { return hooks.RunsProgram(command, ps...) }
}

// hookLog keeps the most recent hook outcomes, merged per run, without the caller's own hooks.
type hookLog struct {
	own    func(string) bool
	max    int
	recent []session.HookOutcome // oldest first, at most max
	ownIDs []string              // recent invocations that ran one of the caller's own hooks
	counts [hooks.OutcomeStopped + 1]int64
}

// add records h and returns the record of its run as now known (h merged with what earlier
// lines said of the same run), or false if it was one of the caller's own hooks.
func (l *hookLog) add(h session.HookOutcome) (session.HookOutcome, bool) {
	if h.Command != "" && l.own != nil && l.own(h.Command) {
		l.rememberOwn(h.InvocationID)
		// A command-less record of the same run (hook_stopped_continuation) was ours too.
		if i := l.find(h.InvocationID, ""); i >= 0 {
			l.remove(i)
		}
		return session.HookOutcome{}, false
	}
	if h.Command == "" && h.InvocationID != "" {
		for _, id := range l.ownIDs {
			if id == h.InvocationID {
				return session.HookOutcome{}, false
			}
		}
	}
	i := l.find(h.InvocationID, h.Command)
	if i < 0 && h.Command != "" {
		i = l.find(h.InvocationID, "") // adopt a command-less record of the same run
	}
	if i < 0 && h.Command == "" && h.InvocationID != "" {
		i = l.findOnlyCommand(h.InvocationID)
	}
	if i >= 0 {
		cur := &l.recent[i]
		l.counts[cur.Outcome]--
		merge(cur, h)
		l.counts[cur.Outcome]++
		return *cur, true
	}
	if l.max <= 0 {
		l.counts[h.Outcome]++
		return h, true
	}
	if len(l.recent) >= l.max {
		l.recent = append(l.recent[:0], l.recent[1:]...)
	}
	l.recent = append(l.recent, h)
	l.counts[h.Outcome]++
	return h, true
}

// find returns the index of the recent record of run id with this command, or -1.
func (l *hookLog) find(id, command string) int {
	if id == "" {
		return -1
	}
	for i := len(l.recent) - 1; i >= 0; i-- {
		if l.recent[i].InvocationID == id && l.recent[i].Command == command {
			return i
		}
	}
	return -1
}

// findOnlyCommand returns the record of run id when exactly one command ran in it, or -1.
func (l *hookLog) findOnlyCommand(id string) int {
	found := -1
	for i := range l.recent {
		if l.recent[i].InvocationID == id && l.recent[i].Command != "" {
			if found >= 0 && l.recent[found].Command != l.recent[i].Command {
				return -1
			}
			found = i
		}
	}
	return found
}

func (l *hookLog) remove(i int) {
	l.counts[l.recent[i].Outcome]--
	l.recent = append(l.recent[:i], l.recent[i+1:]...)
}

func (l *hookLog) rememberOwn(id string) {
	if id == "" {
		return
	}
	for _, x := range l.ownIDs {
		if x == id {
			return
		}
	}
	if len(l.ownIDs) >= 16 {
		l.ownIDs = append(l.ownIDs[:0], l.ownIDs[1:]...)
	}
	l.ownIDs = append(l.ownIDs, id)
}

// merge folds h into cur: the more consequential outcome wins and missing details are filled.
func merge(cur *session.HookOutcome, h session.HookOutcome) {
	if h.Outcome > cur.Outcome {
		cur.Outcome = h.Outcome
		if h.Message != "" {
			cur.Message = h.Message
		}
	}
	if cur.Message == "" {
		cur.Message = h.Message
	}
	if cur.Command == "" {
		cur.Command = h.Command
	}
	if cur.Event == "" {
		cur.Event = h.Event
	}
	if cur.ExitCode < 0 {
		cur.ExitCode = h.ExitCode
	}
	if cur.Duration == 0 {
		cur.Duration = h.Duration
	}
	cur.TimedOut = cur.TimedOut || h.TimedOut
	if cur.Time.IsZero() || (!h.Time.IsZero() && h.Time.Before(cur.Time)) {
		cur.Time = h.Time
	}
}

func (l *hookLog) reset() {
	l.recent = l.recent[:0]
	l.ownIDs = l.ownIDs[:0]
	l.counts = [hooks.OutcomeStopped + 1]int64{}
}
