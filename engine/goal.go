package engine

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/hooksup/hooksup/checks"
	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/clip"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/verdictlog"
)

// Goal is what goal mode pursues: the person's objective, in their words, and how it is judged
// and bounded ([goal] and its flags: the done command, the budgets, no progress).
//
// In goal mode the main agent's stops are decided for the goal until it ends: the checks run
// as at any stop (a failing one makes the agent continue, a goal turn); once they pass, the
// done command runs (goalRun.judge); exit 0, or no done command, and the goal is reached. Else
// the agent continues with the goal restated, while the budgets last (turns, time, tokens) and
// the failure changes (no progress). The per-turn max_continuations does not apply to its
// stops: the goal's budget does. Subagents' stops are decided as ever.
type Goal struct {
	Text string
	config.GoalConfig
	// Files are the project's configuration files: a change to one pauses the goal, as a change
	// to a file the goal protects does (GoalConfig.Protect).
	Files []string
}

// goalRun is a goal as it goes on: its turns, what failed last and how often in a row, its end.
// The engine's mu guards it.
type goalRun struct {
	Goal
	started time.Time
	turns   int              // forced continuations so far
	last    *verdictlog.Goal // the latest stop's record
	// failure is the last stop's failure, times and counts aside; repeats how many stops in a
	// row had it, and repeated what it was, in words.
	failure  string
	repeats  int
	repeated string
	undone   string // what the latest goal turn was about, in words
	end      verdictlog.GoalEnd
	// What the goal is held to from its start (StartGoal, goalguard.go): the protected files'
	// content, and the tests each test check ran, by check (testNames in the checks' order).
	guard     *guard
	tests     map[string]testsRun
	testNames []string
}

// active reports whether the goal decides a stop: the main agent's, before the goal's end.
func (g *goalRun) active(sub bool) bool { return g != nil && !sub && g.end == "" }

// goalVerdict is a goal's say on a stop, made once the checks (and the done command) ran: what
// the proposal becomes, and the record for the verdict log.
type goalVerdict struct {
	record *verdictlog.Goal
	// end is how the goal ends should the agent stop at this verdict: reached, or a budget, or
	// no progress; "" when the goal would have it continue (a stop there is a halt).
	end verdictlog.GoalEnd
}

// judge weighs the stop's proposal (the checks' and the done command's) for the goal and
// rewrites it: a goal turn (block) with the goal restated, or the goal's end (allow). elapsed
// and tokens are the session's so far. The caller holds the engine's lock.
func (g *goalRun) judge(p *proposal, done *session.CheckResult, elapsed time.Duration, tokens int64, reasonLines int) goalVerdict {
	rec := &verdictlog.Goal{Text: clip.Head(g.Text, 500), Turn: g.turns, MaxTurns: g.MaxTurns, ElapsedMS: elapsed.Milliseconds(),
		MaxTimeMS: g.MaxTime.D.Milliseconds(), Tokens: tokens, MaxTokens: int64(g.MaxTokens)}
	if done != nil {
		r := checks.Record(*done)
		rec.Done = &r
	}
	var failure, what, undone string
	fewer := g.fewerTests(p.tests)
	switch {
	case p.decision == hooks.Block: // a check failed
		name := p.blocking
		out := ""
		if n := len(p.records); n > 0 {
			out = fmt.Sprintf("exit %d\n%s", p.records[n-1].ExitCode, p.records[n-1].Output)
		}
		failure = "check " + name + "\n" + normalizeOutput(out)
		what = fmt.Sprintf("the check %s failing with the same output", termsafe.String(name))
		undone = fmt.Sprintf("the check %s still fails", termsafe.String(name))
	case fewer != "" && (done == nil || !done.Canceled):
		// The checks pass, with fewer tests than at the goal's start: not done, whatever the
		// done command says.
		failure = "fewer tests\n" + fewer
		what = "the same fall in the tests run"
		undone = fewer
		p.decision, p.source, p.blocking = hooks.Block, verdictlog.SourceGoal, ""
		p.reason = "The project's checks pass, but they ran fewer tests than at the start of the goal: " + fewer +
			". A test removed, skipped or narrowed does not reach the goal: bring the tests back and make them pass."
	case done != nil && !done.Passed() && !done.Canceled:
		failure = "done\n" + normalizeOutput(fmt.Sprintf("exit %d\n%s", done.ExitCode, checks.Text(*done)))
		what = "the done command's same output"
		undone = "the done command still fails (" + howFailed(*done) + ")"
	case done != nil && done.Canceled:
		return goalVerdict{record: rec} // Escape or the hook gone: conclude says which
	default: // the checks pass, and the done command (if any)
		if done != nil {
			p.source = verdictlog.SourceGoal
		}
		return goalVerdict{record: rec, end: verdictlog.GoalReached}
	}
	if failure == g.failure {
		g.repeats++
	} else {
		g.failure, g.repeats = failure, 1
	}
	g.repeated = fmt.Sprintf("%s, %d stops in a row", what, g.repeats)

	end := func(e verdictlog.GoalEnd) goalVerdict {
		rec.Undone = undone
		p.decision, p.source, p.reason, p.final = hooks.Allow, verdictlog.SourceGoal, "", true
		if e == verdictlog.GoalNoProgress {
			rec.Repeated = g.repeated
		}
		p.warnings = append(p.warnings, "hooksup: the goal ended: "+GoalWhy(rec, e))
		return goalVerdict{record: rec, end: e}
	}
	switch {
	case g.turns >= g.MaxTurns:
		rec.Budget = verdictlog.BudgetTurns
		return end(verdictlog.GoalBudget)
	case g.MaxTime.D > 0 && elapsed >= g.MaxTime.D:
		rec.Budget = verdictlog.BudgetTime
		return end(verdictlog.GoalBudget)
	case g.MaxTokens > 0 && tokens >= int64(g.MaxTokens):
		rec.Budget = verdictlog.BudgetTokens
		return end(verdictlog.GoalBudget)
	case g.NoProgress > 0 && g.repeats >= g.NoProgress:
		return end(verdictlog.GoalNoProgress)
	}
	turn := g.turns + 1
	g.undone = undone
	if p.decision == hooks.Block {
		footer := g.restated(turn, "Then keep working toward the objective the person set")
		p.reason = hooks.Truncate(p.reason, hooks.MaxOutputChars-len(footer)-2) + "\n\n" + footer
	} else {
		p.decision, p.source, p.blocking = hooks.Block, verdictlog.SourceGoal, ""
		p.reason = g.donePrompt(turn, *done, reasonLines)
	}
	rec.Turn = turn
	return goalVerdict{record: rec}
}

// restated is the goal as the agent reads it at a goal turn: the turn against its budget, then
// the person's objective quoted, so that it reads as theirs and not as hooksup's instructions.
func (g *goalRun) restated(turn int, lead string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Goal turn %d of %d. %s (their words, quoted; an objective, not instructions from hooksup):\n", turn, g.MaxTurns, lead)
	for _, l := range strings.Split(clip.Head(strings.TrimSpace(termsafe.Text(g.Text)), maxGoalText), "\n") {
		b.WriteString("> ")
		b.WriteString(l)
		b.WriteString("\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// decideGoal is the goal's say on a stop whose checks (and done command) ran (judge), then the
// files the goal protects: when the agent changed one, the goal pauses. A person is asked
// whether it goes on (the changes then taken as its new start); without one, or when they let
// the agent stop, the goal ends paused.
func (e *Engine) decideGoal(s *stop, p proposal, tokens int64) proposal {
	e.mu.Lock()
	g := e.goal.judge(&p, p.done, e.now().Sub(e.goal.started), tokens, e.cfg.ReasonLines)
	gd := e.goal.guard
	e.mu.Unlock()
	p.goal = &g
	if g.end == verdictlog.GoalNoProgress && e.interactive && s.ctx.Err() == nil {
		return e.askNoProgress(s, p)
	}
	if g.end != "" && g.end != verdictlog.GoalReached || s.ctx.Err() != nil {
		return p
	}
	what, next := gd.changed(s.ctx)
	if what == "" {
		return p
	}
	if e.interactive {
		q := session.Question{Event: s.in.HookEventName, Proposal: hooks.Allow, Source: verdictlog.SourceGoal, Reason: p.reason,
			Warning: "hooksup: the goal is paused: the agent changed what the goal protects: " + what +
				". Continue: the goal goes on, from the files as they are now; let it stop: the goal ends.",
			LastMessage: clip.Head(s.in.LastAssistantMessage, 2000)}
		if p.decision != hooks.Block {
			q.Reason = "The person supervising you asks you to continue."
		}
		r := e.askPerson(s.ctx, q)
		if r.decision == hooks.Block && r.by != verdictlog.SourceTimeout {
			e.mu.Lock()
			e.goal.guard = next
			e.mu.Unlock()
			if r.reason != "" && p.decision == hooks.Block {
				p.reason = r.reason
			}
			p.final = true
			return p
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	g.record.Paused, g.record.Undone, g.end = what, "", verdictlog.GoalPaused
	if p.decision == hooks.Block {
		g.record.Undone = e.goal.undone
	}
	g.record.Turn = e.goal.turns
	p.decision, p.source, p.reason, p.blocking, p.final = hooks.Allow, verdictlog.SourceGoal, "", "", true
	p.warnings = append(p.warnings, "hooksup: the goal ended: "+GoalWhy(g.record, g.end))
	p.goal = &g
	return p
}

// askNoProgress asks the person, when the goal would end for no progress, whether it goes on:
// continuing (with their hint as the agent's reason, or a plain request) is a goal turn, the
// count of repeats started again; letting the agent stop (or no answer in time) ends the goal
// for no progress.
func (e *Engine) askNoProgress(s *stop, p proposal) proposal {
	g := p.goal
	q := session.Question{Event: s.in.HookEventName, Proposal: hooks.Allow, Source: verdictlog.SourceGoal,
		Reason:      "The person supervising you asks you to continue, another way: the same failure came again and again.",
		Warning:     "hooksup: no progress: " + termsafe.String(g.record.Repeated) + ". Continue, with a hint for the agent: the goal goes on; let it stop: the goal ends.",
		LastMessage: clip.Head(s.in.LastAssistantMessage, 2000)}
	r := e.askPerson(s.ctx, q)
	if r.decision != hooks.Block || r.by == verdictlog.SourceTimeout {
		return p
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	run := e.goal
	run.repeats, run.failure = 0, ""
	turn := run.turns + 1
	hint := r.reason
	if hint == "" {
		hint = q.Reason
	}
	p.decision, p.source, p.final = hooks.Block, verdictlog.SourceGoal, true
	p.reason = hooks.Truncate(hint, hooks.MaxOutputChars/2) + "\n\n" + run.restated(turn, "Then keep working toward the objective the person set")
	p.warnings = p.warnings[:len(p.warnings)-1] // the goal goes on: no "the goal ended"
	g.record.Turn, g.record.Repeated, g.record.Undone = turn, "", ""
	g.end = ""
	return p
}

// maxGoalText bounds the goal's text as the agent reads it at each turn.
const maxGoalText = 2000

// donePrompt is what the agent reads when the checks pass but the done command says the goal is
// not reached: the goal restated, and what the done command said (its last lines, plain text).
func (g *goalRun) donePrompt(turn int, done session.CheckResult, maxLines int) string {
	var b strings.Builder
	b.WriteString(g.restated(turn, "The project's checks pass, but the goal is not reached yet. The objective the person set"))
	// The command as hooksup trust shows it (and a check's in BlockReason): its line breaks as \n.
	fmt.Fprintf(&b, "\n\nIts done command (`%s`) failed (%s)", termsafe.String(clip.Head(done.Command, 300)), howFailed(done))
	text := checks.Text(done)
	if text == "" {
		b.WriteString(" and printed nothing.")
	} else {
		lines := strings.Split(text, "\n")
		shown := lastLines(lines, maxLines)
		if len(shown) < len(lines) {
			fmt.Fprintf(&b, "; the last %d of its %d lines of output:", len(shown), len(lines))
		} else {
			b.WriteString("; its output:")
		}
		for _, l := range shown {
			b.WriteString("\n")
			b.WriteString(termsafe.Text(l))
		}
	}
	b.WriteString("\n\nKeep working toward the objective, then finish: at your next stop the checks and the done command run again.")
	return hooks.Truncate(b.String(), hooks.MaxOutputChars)
}

// GoalWhy says how a goal ended (e: rec.End, or the end about to be recorded) as the verdict's
// warning, the headless printer and hooksup log say it: "its budget of turns (20) ran out; left
// undone: the check tests still fails"; "reached after 2 turns".
func GoalWhy(rec *verdictlog.Goal, e verdictlog.GoalEnd) string {
	why := ""
	switch {
	case e == verdictlog.GoalReached:
		if rec.Turn == 1 {
			return "reached after 1 turn"
		}
		return fmt.Sprintf("reached after %d turns", rec.Turn)
	case e == verdictlog.GoalHalted:
		why = "halted: Escape, a halt, or a person let the agent stop"
	case e == verdictlog.GoalNoProgress:
		why = "no progress: " + termsafe.String(rec.Repeated)
	case e == verdictlog.GoalPaused:
		why = "paused: the agent changed what the goal protects: " + termsafe.String(rec.Paused)
	case e == verdictlog.GoalCapped:
		by := "the agent"
		if rec.CappedBy != "" {
			by = termsafe.String(rec.CappedBy)
		}
		why = by + "'s own cap on blocked stops ended its turn"
	case rec.Budget == verdictlog.BudgetTurns:
		why = fmt.Sprintf("its budget of turns (%d) ran out", rec.MaxTurns)
	case rec.Budget == verdictlog.BudgetTime:
		why = fmt.Sprintf("its budget of time (%s) ran out", time.Duration(rec.MaxTimeMS)*time.Millisecond)
	case rec.Budget == verdictlog.BudgetTokens:
		why = fmt.Sprintf("its budget of tokens (%d) ran out, at %d", rec.MaxTokens, rec.Tokens)
	}
	if rec.Undone != "" {
		why += "; left undone: " + termsafe.String(rec.Undone)
	}
	return why
}

// Normalising a failure's output before comparing it: durations, hexadecimal numbers and every
// other run of digits become one mark each, trailing blanks go. Compiled on first use: the hook
// client links the engine, and most of its runs never compare a failure.
var normalizers = sync.OnceValue(func() [4]*regexp.Regexp {
	return [4]*regexp.Regexp{
		regexp.MustCompile(`\d+(?:\.\d+)?(?:ns|µs|us|ms|s|m|h)(?:\d+(?:\.\d+)?(?:ns|µs|us|ms|s|m))*\b`),
		regexp.MustCompile(`\b0x[0-9a-fA-F]+\b`),
		regexp.MustCompile(`\d+`),
		regexp.MustCompile(`[ \t]+\n`),
	}
})

// normalizeOutput is a failure's output with its times and counts taken out, so that two runs
// of the same failure compare equal: "FAIL pkg 0.12s" and "FAIL pkg 3ms" alike.
func normalizeOutput(s string) string {
	re := normalizers()
	s = re[0].ReplaceAllString(s, "<t>")
	s = re[1].ReplaceAllString(s, "0x#")
	s = re[2].ReplaceAllString(s, "#")
	s = re[3].ReplaceAllString(s, "\n")
	return strings.TrimRight(s, " \t\n")
}

// goalTokens is the session's tokens so far, as the agent's transcript counts them (all four
// counts, as Codex's total): 0 when nothing is known.
func goalTokens(o *verdictlog.Observation) int64 {
	if o == nil {
		return 0
	}
	return o.InputTokens + o.OutputTokens + o.CacheRead + o.CacheCreate
}

// concludeGoal keeps the goal's count in step with a stop's outcome and returns the verdict's
// goal record (nil outside a goal): a forced continuation is a goal turn; a stop ends the goal,
// as the goal's say had it (reached, a budget, no progress) or else halted (Escape, a halt, a
// person or a vanished hook let it stop). The caller holds the engine's lock.
func (e *Engine) concludeGoal(s *stop, p proposal, o outcome) *verdictlog.Goal {
	if !s.goal || !e.goal.active(false) {
		return nil
	}
	g := e.goal
	rec := &verdictlog.Goal{Text: clip.Head(g.Text, 500), Turn: g.turns, MaxTurns: g.MaxTurns, ElapsedMS: e.now().Sub(g.started).Milliseconds(),
		MaxTimeMS: g.MaxTime.D.Milliseconds(), MaxTokens: int64(g.MaxTokens)}
	end := verdictlog.GoalEnd("")
	if p.goal != nil {
		rec, end = p.goal.record, p.goal.end
	}
	switch {
	case o.decision == hooks.Block:
		g.turns++
		rec.Turn, rec.End = g.turns, ""
	case o.decision == hooks.Allow && end != "": // whoever let it stop, the goal's say stands
		g.end, rec.End = end, end
	default:
		g.end, rec.End = verdictlog.GoalHalted, verdictlog.GoalHalted
		if rec.Undone == "" && p.decision == hooks.Block {
			rec.Undone = stillFailing(p)
		}
	}
	last := *rec
	g.last = &last
	return rec
}

// Capped is the agent's own cap on blocked stops ending the turn that the goal's latest stop
// had it continue (agent: its name, for the record): that turn never ran. The goal ends capped,
// never reached, and an entry of its own in the verdict log says so. Outside a goal, or once it
// ended, it does nothing.
func (e *Engine) Capped(agent string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	g := e.goal
	if !g.active(false) || g.last == nil || g.last.End != "" || g.turns == 0 {
		return
	}
	if e.interactive {
		e.typeNextTurn(agent)
		return
	}
	g.turns--
	rec := *g.last
	rec.Turn, rec.End, rec.CappedBy, rec.Done, rec.Undone = g.turns, verdictlog.GoalCapped, agent, nil, g.undone
	rec.ElapsedMS = e.now().Sub(g.started).Milliseconds()
	g.end = verdictlog.GoalCapped
	last := rec
	g.last = &last
	v := verdictlog.Verdict{Time: e.now(), SessionID: e.sessionID, Event: verdictlog.EventCapped, Turn: e.turn, Decision: hooks.Allow,
		Source: verdictlog.SourceAgentCap, Warning: "hooksup: the goal ended: " + GoalWhy(&rec, rec.End), Continuations: e.turnConts,
		MaxContinuations: e.cfg.Stop.MaxContinuations, SessionContinuations: e.sessionConts, Goal: &rec}
	e.out.Do(func() { e.publish(v) })
}

// CappedAtExit is the agent's exit (headless) seen as the end of its own cap on blocked stops,
// for an agent that writes that end nowhere hooksup reads (Copilot CLI, Qwen Code): the goal
// still under way, the main agent's stops blocked more times in a row this turn than the cap
// lets through (conts, the continuations it honours; 0: no cap), the last block never ran.
// It is Capped then; otherwise, and in a session a front end owns, it does nothing.
func (e *Engine) CappedAtExit(agent string, conts int) {
	e.mu.Lock()
	capped := conts > 0 && !e.interactive && e.turnConts > conts && e.goal.active(false) && e.goal.last != nil && e.goal.last.End == ""
	e.mu.Unlock()
	if capped {
		e.Capped(agent)
	}
}

// CappedByCount is the main agent's stop just blocked, in a session whose terminal a front end
// owns, seen as the end of its own cap on blocked stops, for an agent that writes that end
// nowhere hooksup reads (Copilot CLI, Qwen Code): the goal under way, its stops blocked more
// times in a row this turn than the cap lets through (conts, the continuations it honours; 0:
// no cap). The agent ends that turn instead of continuing, and waits at its prompt without a
// hook to say so: it is Capped, and the front end types the goal's next turn. It reports
// whether it was; headless it does nothing (CappedAtExit tells it there).
func (e *Engine) CappedByCount(agent string, conts int) bool {
	e.mu.Lock()
	capped := conts > 0 && e.interactive && e.turnConts > conts && e.goal.active(false) && e.goal.last != nil && e.goal.last.End == "" && e.goal.turns > 0
	e.mu.Unlock()
	if capped {
		e.Capped(agent)
	}
	return capped
}

// typeNextTurn is Capped in a session whose terminal a front end owns: the goal goes on, its
// turn that the cap cut short started again by the front end, which types the goal's prompt
// into the agent's (GoalTurnTyped). An entry in the verdict log says so. The caller holds the
// engine's lock.
func (e *Engine) typeNextTurn(agent string) {
	g := e.goal
	rec := *g.last
	rec.CappedBy, rec.Done, rec.Undone = agent, nil, g.undone
	rec.ElapsedMS = e.now().Sub(g.started).Milliseconds()
	by := "the agent"
	if agent != "" {
		by = termsafe.String(agent)
	}
	v := verdictlog.Verdict{Time: e.now(), SessionID: e.sessionID, Event: verdictlog.EventCapped, Turn: e.turn, Decision: hooks.Allow,
		Source: verdictlog.SourceAgentCap, Warning: "hooksup: " + by + "'s own cap on blocked stops ended its turn: hooksup types the goal's next turn into its prompt",
		Continuations: e.turnConts, MaxContinuations: e.cfg.Stop.MaxContinuations, SessionContinuations: e.sessionConts, Goal: &rec}
	text := g.typed(rec.Turn, "your own limit on stop hooks ended the last turn")
	e.out.Do(func() {
		e.publish(v)
		e.emitNow(session.GoalTurnTyped{At: session.At{Time: e.now()}, Text: text})
	})
}

// typed is the goal's turn as hooksup types it into the agent's prompt: one line, why hooksup
// types it, the person's objective quoted and what is left undone.
func (g *goalRun) typed(turn int, why string) string {
	text := strings.Join(strings.Fields(termsafe.Text(clip.Head(g.Text, 500))), " ")
	s := fmt.Sprintf("Goal turn %d of %d (typed by hooksup: %s). Keep working toward the objective the person set, their words quoted: \"%s\"", turn, g.MaxTurns, why, text)
	if g.undone != "" {
		s += "; still undone: " + strings.Join(strings.Fields(g.undone), " ")
	}
	return s + "."
}

// ResumeGoal continues a goal that ended out of budget, for no progress or paused, in a session
// whose terminal a front end owns: its budgets become b's (each 0 keeps the goal's own, and the
// one that ended it must grow), a paused goal takes the files as they are now as its start, and
// the goal's next turn is typed into the agent's prompt (GoalTurnTyped). It says why not
// otherwise.
func (e *Engine) ResumeGoal(b session.GoalBudget) error {
	e.mu.Lock()
	g := e.goal
	switch {
	case g == nil:
		e.mu.Unlock()
		return fmt.Errorf("this session has no goal")
	case !e.interactive:
		e.mu.Unlock()
		return fmt.Errorf("this session has no terminal to type the goal's next turn into: only a session in hooksup's TUI resumes its goal")
	case g.end == "":
		e.mu.Unlock()
		return fmt.Errorf("the goal is under way: give it a larger budget once it has run out")
	case g.end != verdictlog.GoalBudget && g.end != verdictlog.GoalPaused && g.end != verdictlog.GoalNoProgress:
		e.mu.Unlock()
		return fmt.Errorf("the goal ended %s: only a goal out of budget, paused or without progress resumes", g.end)
	}
	turns, maxTime, tokens := g.MaxTurns, g.MaxTime.D, g.MaxTokens
	if b.MaxTurns > 0 {
		turns = b.MaxTurns
	}
	if b.MaxTime > 0 {
		maxTime = b.MaxTime
	}
	if b.MaxTokens > 0 {
		tokens = b.MaxTokens
	}
	last := g.last
	e.mu.Unlock()
	switch {
	case turns <= g.turns:
		return fmt.Errorf("--max-turns %d: the goal has had %d turns: give more", turns, g.turns)
	case maxTime > 0 && last != nil && maxTime.Milliseconds() <= e.now().Sub(g.started).Milliseconds():
		return fmt.Errorf("--max-time %s: the goal has run %s: give more", maxTime, e.now().Sub(g.started).Round(time.Second))
	case tokens > 0 && last != nil && int64(tokens) <= last.Tokens:
		return fmt.Errorf("--max-tokens %d: the session has used %d tokens: give more", tokens, last.Tokens)
	}
	var gd *guard
	if g.end == verdictlog.GoalPaused {
		gd = takeGuard(context.Background(), e.projectDir, g.Protect, g.Files, nil)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if gd != nil {
		g.guard = gd
	}
	g.MaxTurns, g.MaxTime.D, g.MaxTokens = turns, maxTime, tokens
	g.end, g.failure, g.repeats, g.repeated = "", "", 0, ""
	g.turns++
	rec := verdictlog.Goal{Text: clip.Head(g.Text, 500), Turn: g.turns, MaxTurns: g.MaxTurns, ElapsedMS: e.now().Sub(g.started).Milliseconds(),
		MaxTimeMS: g.MaxTime.D.Milliseconds(), MaxTokens: int64(g.MaxTokens)}
	if last != nil {
		rec.Tokens = last.Tokens
	}
	g.last = &rec
	text := g.typed(g.turns, "the person resumed the goal with a larger budget")
	e.out.Do(func() { e.emitNow(session.GoalTurnTyped{At: session.At{Time: e.now()}, Text: text}) })
	return nil
}

// GoalState is the goal's latest record (its end once it ended), and whether the session is in
// goal mode; before its first stop the record has the goal's text and budgets alone.
func (e *Engine) GoalState() (verdictlog.Goal, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if r := e.goalRecord(); r != nil {
		return *r, true
	}
	return verdictlog.Goal{}, false
}

// goalRecord is GoalState's record, a copy (nil outside goal mode). The caller holds the
// engine's lock.
func (e *Engine) goalRecord() *verdictlog.Goal {
	g := e.goal
	switch {
	case g == nil:
		return nil
	case g.last != nil:
		r := *g.last
		return &r
	}
	return &verdictlog.Goal{Text: clip.Head(g.Text, 500), MaxTurns: g.MaxTurns, MaxTimeMS: g.MaxTime.D.Milliseconds(), MaxTokens: int64(g.MaxTokens)}
}

// stillFailing words what a proposal that would have the agent continue was about, for a halted
// goal's record.
func stillFailing(p proposal) string {
	if p.blocking != "" {
		return "the check " + termsafe.String(p.blocking) + " still fails"
	}
	return "the done command still fails"
}
