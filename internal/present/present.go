// Package present words the supervisor's data for people: the text the TUI and the headless
// printer share, and the bytes that carry an alert to a terminal. The supervisor keeps data;
// its front ends say it.
//
// What its functions return is safe to print on a terminal: the text they take from outside
// hooksup (a check's name or output, an agent's ids, a hook's command, a path) is shown through
// termsafe, every control visible, never acted on.
package present

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/hooksup/hooksup/checks"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/keymap"
	"github.com/hooksup/hooksup/internal/notify"
	"github.com/hooksup/hooksup/internal/projectlock"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/verdictlog"
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
// …", "interrupted"; and, when it left processes running, "exit 1; left background processes
// running, killed after 1s".
func CheckFailure(r session.CheckResult) string {
	switch {
	case r.StartErr != nil:
		return "could not start: " + termsafe.String(r.StartErr.Error())
	case r.Canceled:
		return "interrupted"
	case r.TimedOut:
		return fmt.Sprintf("timed out after %s", r.Duration.Round(time.Second))
	}
	return fmt.Sprintf("exit %d", r.ExitCode) + CheckLeftRunning(r.LeftRunning)
}

// CheckLeftRunning is what a check's result adds when the check left processes running, to
// follow how it ended: "; left background processes running, killed after 1s", or "".
func CheckLeftRunning(left bool) string {
	if !left {
		return ""
	}
	return "; " + checks.LeftRunningNote()
}

// SessionLine is a session's summary in one line, e.g. "session 4312ba3d: 12.3k tokens (in
// 1.2k · out 3.4k · cache read 7.0k · cache write 700) · tools Bash×2 · 1 turns · 2 verdicts".
func SessionLine(s session.Summary) string {
	id := s.SessionID
	if i := strings.IndexByte(id, '-'); i > 0 {
		id = id[:i]
	}
	var tools []string
	for k, v := range s.ToolCalls {
		tools = append(tools, fmt.Sprintf("%s×%d", termsafe.String(k), v))
	}
	sort.Strings(tools)
	line := fmt.Sprintf("session %s: %s tokens (in %s · out %s · cache read %s · cache write %s)", termsafe.String(id),
		Count(s.Usage.Total()), Count(s.Usage.InputTokens), Count(s.Usage.OutputTokens),
		Count(s.Usage.CacheReadTokens), Count(s.Usage.CacheCreationTokens))
	if len(tools) > 0 {
		line += " · tools " + strings.Join(tools, " ")
	}
	return line + fmt.Sprintf(" · %d turns · %d verdicts", s.Turns, s.Verdicts)
}

// Age words how long something has lasted, in its largest whole unit: 42s, 5m, 3h (less than
// nothing is 0s).
func Age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(max(d, 0).Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	}
	return fmt.Sprintf("%dh", int(d.Hours()))
}

// Source words what decided a verdict, or proposed a question's answer: "check tests" for a
// check, "no checks" when none applied; the log's own word otherwise (checks, manual, manual
// (hooksup web), escape, limit, …), a check's name shown visibly. hooksup log, the headless
// printer, the TUI, hooksup watch and hooksup web's page all say it with these words.
func Source(s verdictlog.Source) string {
	if name, ok := s.Check(); ok {
		return "check " + termsafe.String(name)
	}
	if s == verdictlog.SourceNoChecks {
		return "no checks"
	}
	return termsafe.String(string(s))
}

// Decision words a verdict's decision: the log's own word (block, allow, halt), shown visibly.
func Decision(d hooks.Decision) string { return termsafe.String(string(d)) }

// Did words what a decision did to the agent, as the person acts on it: block "continued",
// allow "let stop", halt "turn ended" (the TUI's keys say "continue", "let it stop", "halt").
func Did(d hooks.Decision) string {
	switch d {
	case hooks.Block:
		return "continued"
	case hooks.Allow:
		return "let stop"
	case hooks.Halt:
		return "turn ended"
	}
	return Decision(d)
}

// Counts words a session's verdicts by decision, and its Escapes: "2 continued · 1 let stop ·
// 1 interrupted"; "no stop" when there are none.
func Counts(decisions map[hooks.Decision]int, interrupted int) string {
	var parts []string
	for _, d := range []hooks.Decision{hooks.Block, hooks.Allow, hooks.Halt} {
		if n := decisions[d]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, Did(d)))
		}
	}
	if interrupted > 0 {
		parts = append(parts, fmt.Sprintf("%d interrupted", interrupted))
	}
	if len(parts) == 0 {
		return "no stop"
	}
	return strings.Join(parts, " · ")
}

// Proposal words what the checks propose for a question: "the checks say continue", "the
// checks say it may stop", "no checks: it may stop"; the TUI's banner and hooksup web's page
// say it alike.
func Proposal(d hooks.Decision, s verdictlog.Source) string {
	switch {
	case s == verdictlog.SourceNoChecks:
		return "no checks: it may stop"
	case d == hooks.Block:
		return "the checks say continue"
	}
	return "the checks say it may stop"
}

// Says is what the checks propose for a question, and which decided it: "the checks say
// continue (check tests)", "the checks say it may stop (checks)", "no checks: it may stop";
// hooksup watch and hooksup web's page say a pending question with it.
func Says(d hooks.Decision, s verdictlog.Source) string {
	p := Proposal(d, s)
	if s == verdictlog.SourceNoChecks {
		return p
	}
	return p + " (" + Source(s) + ")"
}

// Logged is the decision a verdict's Outcome is recorded as, for where both are said: "logged
// block" (hooksup log --json's "decision", and the verdict log's).
func Logged(d hooks.Decision) string { return "logged " + Decision(d) }

// WaitingFor says that a stop's checks wait for h's in the same project: "waiting for session
// 1a2b3c4d (claude, pid 4242) to finish its checks in this project"; safe to print.
func WaitingFor(h projectlock.Holder) string {
	return "waiting for " + h.Name() + " to finish its checks in this project"
}

// HomeTilde writes a path under the home directory as ~/…, as a person reads it: on one line,
// its controls shown visibly.
func HomeTilde(p string) string {
	if home, err := os.UserHomeDir(); err == nil && home != "/" {
		if rest, ok := strings.CutPrefix(p, home); ok && (rest == "" || rest[0] == '/') {
			p = "~" + rest
		}
	}
	return termsafe.String(p)
}

// FirstLine is the first line of s, trimmed, its controls shown visibly: a reason's or a
// warning's line for people. A sentence that only introduces the lines below it ("Its
// output:") is left out when they are: on its own line it would read as cut off.
func FirstLine(s string) string {
	s, rest, more := strings.Cut(strings.TrimSpace(s), "\n")
	s = strings.TrimSuffix(s, "\r")
	if more && strings.TrimSpace(rest) != "" && strings.HasSuffix(s, ":") {
		if i := strings.LastIndex(s, ". "); i >= 0 {
			s = s[:i+1]
		}
	}
	return termsafe.String(s)
}

// ReasonBy says whose reason a verdict sent the agent when it was not the checks': "edited by
// you in the TUI", "edited by you in hooksup web", "written by you with hooksup approve" — the
// person made the agent continue with a reason other than the one the checks proposed. ""
// otherwise: the checks' own reason, or a verdict that sent none.
func ReasonBy(v verdictlog.Verdict) string {
	src := string(v.Source)
	manual := string(verdictlog.SourceManual)
	if v.Decision != hooks.Block || v.Proposal == nil || v.Reason == v.Proposal.Reason ||
		src != manual && !strings.HasPrefix(src, manual+" (") {
		return ""
	}
	did := "edited by you"
	if v.Proposal.Reason == "" {
		did = "written by you"
	}
	where, ok := strings.CutPrefix(src, manual+" (")
	switch {
	case !ok:
		return did + " in the TUI"
	case strings.HasPrefix(where, "hooksup web"):
		return did + " in " + termsafe.String(strings.TrimSuffix(where, ")"))
	}
	return did + " with " + termsafe.String(strings.TrimSuffix(where, ")"))
}

// Lines is text of several lines for people, each line of it after indent but the first, its
// trailing line breaks and carriage returns left out, its other controls shown visibly (termsafe):
// a reason in full under the line that introduces it.
func Lines(s, indent string) string {
	s = strings.TrimRight(s, "\r\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = termsafe.Text(strings.TrimSuffix(l, "\r"))
	}
	return strings.Join(lines, "\n"+indent)
}

// OtherHookOutcome words what another hook did at a stop: "allowed", "blocked", "ended the
// turn", "failed (exit 1)", "timed out", "was cancelled".
func OtherHookOutcome(h verdictlog.OtherHook) string {
	switch h.Outcome {
	case hooks.OutcomeSuccess:
		return "allowed"
	case hooks.OutcomeBlocked:
		return "blocked"
	case hooks.OutcomeStopped:
		return "ended the turn"
	case hooks.OutcomeError:
		if h.ExitCode != nil {
			return fmt.Sprintf("failed (exit %d)", *h.ExitCode)
		}
		return "failed"
	case hooks.OutcomeCancelled:
		if h.TimedOut {
			return "timed out"
		}
		return "was cancelled"
	}
	return h.Outcome.String()
}

// OtherHook is another hook's outcome in a line: its command (short: without the program's
// directory), what it did, and the first line of its reason, e.g. "check.sh blocked: update
// the changelog"; the command and the reason shown visibly.
func OtherHook(h verdictlog.OtherHook, short bool) string {
	cmd := termsafe.String(h.Command)
	if short {
		cmd = ShortCommand(h.Command)
	}
	s := cmd + " " + OtherHookOutcome(h)
	if h.Command == "" {
		s = OtherHookOutcome(h) // the agent names no hook (one whose reasons it joins)
	}
	if r := FirstLine(h.Reason); r != "" && h.Outcome != hooks.OutcomeSuccess {
		s += ": " + r
	}
	return s
}

// Effect is what the other hooks at a stop made the agent do, when it was not what hooksup's
// verdict says.
type Effect int

// The effects of other hooks.
const (
	EffectNone      Effect = iota
	EffectContinued        // one blocked: the agent continued
	EffectEnded            // one ended the turn
)

// OtherHooksEffect is what the other hooks at a stop made the agent do.
func OtherHooksEffect(hs []verdictlog.OtherHook) Effect {
	effect := EffectNone
	for _, h := range hs {
		switch {
		case h.Outcome == hooks.OutcomeStopped:
			return EffectEnded
		case h.Blocked:
			effect = EffectContinued
		}
	}
	return effect
}

// Words says e of the agent named agent ("" is "the agent"): "codex continued", "the turn
// ended"; "" for EffectNone.
func (e Effect) Words(agent string) string {
	switch e {
	case EffectContinued:
		return AgentName(agent) + " continued"
	case EffectEnded:
		return "the turn ended"
	}
	return ""
}

// AgentName is an agent's name (as read from a log or a hook: shown visibly), or "the agent"
// for one not named.
func AgentName(name string) string {
	if name == "" {
		return "the agent"
	}
	return termsafe.String(name)
}

// ShortCommand is a hook's command without its program's directory: "/home/u/.claude/check.sh
// --fast" reads "check.sh --fast"; shown visibly.
func ShortCommand(c string) string {
	return termsafe.String(shortCommand(c))
}

func shortCommand(c string) string {
	c = strings.TrimSpace(c)
	prog, rest, _ := strings.Cut(c, " ")
	if q := c[:min(len(c), 1)]; q == `"` || q == "'" {
		if end := strings.Index(c[1:], q); end >= 0 {
			prog, rest = c[1:1+end], strings.TrimSpace(c[2+end:])
		}
	}
	if i := strings.LastIndexByte(prog, '/'); i >= 0 && i < len(prog)-1 {
		prog = prog[i+1:]
	}
	if rest == "" {
		return prog
	}
	return prog + " " + rest
}

// NotificationTitle is the title of a session's desktop notifications: hooksup and the
// project's directory name, so that one of several sessions is known at a glance.
func NotificationTitle(projectDir string) string {
	name := filepath.Base(projectDir)
	if projectDir == "" || name == "/" || name == "." {
		return "hooksup"
	}
	// OSC 777 separates its title from its body with ';'.
	return "hooksup · " + strings.ReplaceAll(name, ";", ",")
}

// AlertBody words an alert for a desktop notification.
func AlertBody(a session.Alert) string {
	name := AgentName(a.Agent)
	switch a.Cause {
	case session.CausePermission:
		return name + " needs your permission (" + a.Detail + ")"
	case session.CauseIdle:
		return name + " is waiting for your input"
	}
	return name + " needs you"
}

// Alert is how a front end carries out a bell or a notify alert: the bytes to write to the
// terminal (the bell, or the notification's sequence where the terminal shows it), or a function
// that runs the system's notifier, to call off the UI's thread; never both (see notify.Choose).
// Write the bytes only to a terminal. Both are empty for the other actions (a nudge is typed
// into claude).
func Alert(a session.Alert, n notify.Notifier) (sequence string, send func() error) {
	switch a.Action {
	case session.ActionBell:
		return "\a", nil
	case session.ActionNotify:
		title := n.Title
		if title == "" {
			title = "hooksup"
		}
		return n.Prepare(title, AlertBody(a))
	}
	return "", nil
}

// Answer is what `hooksup approve`, `deny` and `halt`, and hooksup web's actions of those names,
// decide, and the words for what each did, to go before the stop they answered (as the TUI's
// keys say it: continue, let it stop, halt); ok is false for any other action.
func Answer(action string) (d hooks.Decision, did string, ok bool) {
	switch action {
	case "approve":
		return hooks.Block, "the agent continues after", true
	case "deny":
		return hooks.Allow, "the agent may stop at", true
	case "halt":
		return hooks.Halt, "the turn ends at", true
	}
	return "", "", false
}

// Outcome says what a verdict did to the agent, and who or what decided it, in the words the
// person acts in (the TUI's keys: continue, let it stop, halt): "continued (check tests
// failed)", "let stop (checks passed)", "continued by you (hooksup approve)", "let stop by
// you", "turn ended by you (hooksup halt)", "let stop (Escape)". hooksup log and the headless
// printer put it after the decision the log records ("Stop → block: continued by you …"); the
// TUI's verdicts, hooksup watch and hooksup web's page show it as each verdict's row.
func Outcome(v verdictlog.Verdict) string {
	did, why := OutcomeParts(v)
	return did + why
}

// OutcomeParts are Outcome's two parts, for a front end that draws them apart: what the
// verdict did ("continued") and, after it, who or what decided it (" (check tests failed)",
// " by you (hooksup approve)").
func OutcomeParts(v verdictlog.Verdict) (did, why string) {
	did = Did(v.Decision)
	if name, ok := v.Source.Check(); ok {
		if v.Decision == hooks.Block {
			return did, " (check " + termsafe.String(name) + " failed)"
		}
		return did, " (check " + termsafe.String(name) + ")"
	}
	manual := string(verdictlog.SourceManual)
	if src := string(v.Source); src == manual {
		return did, " by you"
	} else if where, ok := strings.CutPrefix(src, manual+" "); ok {
		return did, " by you " + termsafe.String(where)
	}
	why = map[verdictlog.Source]string{
		verdictlog.SourceChecks:     "checks passed",
		verdictlog.SourceNoChecks:   "no checks",
		verdictlog.SourceEscape:     "Escape",
		verdictlog.SourceLimit:      "limit reached",
		verdictlog.SourceTimeout:    "no answer in time",
		verdictlog.SourceObserve:    "observe mode",
		verdictlog.SourceFailOpen:   "the hook failed open",
		verdictlog.SourceOtherHooks: "other hooks",
	}[v.Source]
	if why == "" {
		why = termsafe.String(string(v.Source))
	}
	return did, " (" + why + ")"
}

// AnswerWords are one way to answer a question as the TUI words it: its key hint (Label) and
// its help naming the agent (Help), from the key map, and the decision it records, as hooksup
// log words it ("" for the actions that record none: edit, cancel).
type AnswerWords struct {
	Action   string `json:"action"`
	Label    string `json:"label"`
	Help     string `json:"help"`
	Decision string `json:"decision"`
}

// answerActions are the key map's actions that answer a question, then the reason editor's.
var answerActions = []struct {
	action string
	d      hooks.Decision
}{{keymap.Approve, hooks.Block}, {keymap.Deny, hooks.Allow}, {keymap.Edit, ""}, {keymap.Halt, hooks.Halt},
	{keymap.Send, hooks.Block}, {keymap.Cancel, ""}}

// Answers are the ways to answer a question of agent ("" is "the agent") in the TUI's words:
// continue, let it stop, edit reason, halt, and the reason editor's send and cancel edit.
// hooksup web's page says them with these words.
func Answers(agent string) []AnswerWords {
	out := make([]AnswerWords, 0, len(answerActions))
	for _, a := range answerActions {
		k, _ := keymap.Lookup(a.action)
		w := AnswerWords{Action: a.action, Label: k.Hint, Help: k.HelpFor(AgentName(agent))}
		if a.d != "" {
			w.Decision = Decision(a.d)
		}
		out = append(out, w)
	}
	return out
}

// Answered is the line that says what action did to a question (a Stop or SubagentStop, of
// subagent agentID when there is one) in session, e.g. "session 1a2b3c4d (~/src/a)": reason is
// the person's, proposed the checks'. All but session are shown visibly here; the caller makes
// session so (HomeTilde).
func Answered(action, event, agentID, session, reason, proposed string) string {
	_, did, _ := Answer(action)
	what := termsafe.String(event)
	if agentID != "" {
		what += " of subagent " + termsafe.String(agentID)
	}
	line := fmt.Sprintf("%s: %s %s in %s", action, did, what, session)
	switch {
	case action != "deny" && reason != "":
		line += ": " + FirstLine(reason)
	case action == "approve" && proposed != "":
		line += ": " + FirstLine(proposed)
	}
	return line
}
