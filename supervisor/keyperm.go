package supervisor

import (
	"cmp"
	"strings"
	"time"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/clip"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/verdictlog"
)

// A permission dialog that no hook can answer (agent.KeyPermissions: Gemini CLI's, Copilot
// CLI's, Claude Code's on its auto mode) is a question of the session all the same, while the
// session owns the agent's terminal and a front end emulates it (session.Screen): read on the
// screen as it is drawn, asked like a PermissionRequest's, and answered with keys, which are
// pressed
//
//   - only while the screen shows the very dialog the question names (its tool and command),
//     read again just before each key: never into the agent's prompt box, never into another
//     dialog;
//   - keySettle after the dialog was first seen (claude drops the keys of its first ~130 ms);
//   - a key at a time, the screen read again in between (the selection moved, then Enter); a
//     key that moves the selection is not pressed again until the screen shows it moved, or
//     keyMoveWait passed with nothing drawn (claude dropped it): its options wrap, so a second
//     Down pressed while the first is still to be drawn would select No again; the dialog
//     missing from the screen within keyMoveWait of such a key is being drawn again, not gone
//     (gemini clears it for a frame);
//   - then confirmed: the dialog leaves the screen within keyConfirm (or the dialog's own
//     Confirm, for an agent slow to draw), else the answer's key is pressed
//     once more, and past that the person is told to answer at the terminal.
//
// Deny is the dialog's Escape, whatever else its keys mean; a deny with a reason, where the
// dialog has a field for the model's feedback (agent.KeyDialog.DenyWith: copilot's), that field
// selected, the reason typed (once) and Enter; always, where the dialog has an
// option of its own for it (agent.KeyDialog.Always: codex's, copilot's, gemini's, qwen's), that
// option, and the question says what it allows. The dialog leaving the screen with no answer
// given through hooksup (the person answered at the terminal) withdraws the question.

const (
	keySettle   = 250 * time.Millisecond
	keyStep     = 120 * time.Millisecond
	keyConfirm  = 1500 * time.Millisecond
	keyMoveWait = time.Second
	keyTries    = 2  // the answer's last key, pressed at most this often
	keySteps    = 12 // keys that move the selection, at most, for one answer
)

// keyDialog is the dialog on screen and its question.
type keyDialog struct {
	d       agent.KeyDialog
	seen    time.Time     // first read on screen
	p       *permQuestion // nil once hooksup gave up answering it
	ans     *permAnswer   // the answer being pressed
	tries   int           // the answer's last key pressed so often
	steps   int
	moved   string    // the keys the dialog asked for when the last selection key was pressed
	movedAt time.Time // when
	typed   bool      // the deny's reason was typed into the dialog
}

// AttachScreen has the session read sc, the agent's screen, for the permission dialogs that
// only keys answer, and answer them there; the function returned stops it (before sc goes). A
// session whose agent has none, or that nobody answers, does nothing with it.
func (s *Supervisor) AttachScreen(sc session.Screen) (detach func()) {
	kp, ok := s.agent.(agent.KeyPermissions)
	if !ok || !s.o.Interactive || sc == nil {
		return func() {}
	}
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		s.watchScreen(sc, kp, stop)
	}()
	return func() {
		close(stop)
		<-done
	}
}

func (s *Supervisor) watchScreen(sc session.Screen, kp agent.KeyPermissions, stop <-chan struct{}) {
	var cur *keyDialog
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	var due <-chan time.Time
	after := func(d time.Duration) {
		timer.Reset(max(d, 0))
		due = timer.C
	}
	defer func() {
		timer.Stop()
		if cur != nil {
			s.keyDialogLeft(cur, "the session's screen went away")
		}
	}()
	for {
		var answers chan permAnswer
		if cur != nil && cur.p != nil && cur.ans == nil {
			answers = cur.p.ch
		}
		fired := false
		select {
		case <-stop:
			return
		case <-sc.Changed():
		case a := <-answers:
			if a.decision == "" { // not withdrawn but by the screen: keep waiting
				continue
			}
			cur.ans = &a
			after(time.Until(cur.seen.Add(keySettle)))
			continue
		case <-due:
			due, fired = nil, true
		}
		d, ok := kp.KeyDialog(strings.Split(sc.Text(), "\n"))
		if ok && d.Typing && (cur == nil || cur.ans == nil || cur.ans.reason == "") {
			// Its field open, and not by hooksup: the person is answering at the terminal.
			ok = false
		}
		same := ok && cur != nil && d.Tool == cur.d.Tool && d.Command == cur.d.Command
		if cur != nil && !ok && cur.tries == 0 && cur.movedAt.After(time.Now().Add(-keyMoveWait)) {
			// Just after a key that moved the selection (the answer's last key not pressed
			// yet), the agent may be redrawing the dialog: gemini's screen shows no dialog for a
			// frame then. Read again shortly; a dialog still gone keyMoveWait after the key has
			// left.
			after(keyStep)
			continue
		}
		if cur != nil && !same {
			s.keyDialogLeft(cur, "it left the screen")
			cur, due = nil, nil
		}
		if cur == nil && ok {
			cur = s.askKeyDialog(d)
			continue
		}
		if !fired || cur == nil || cur.ans == nil {
			continue
		}
		if wait := time.Until(cur.seen.Add(keySettle)); wait > 0 {
			after(wait)
			continue
		}
		keys := d.Allow
		switch cur.ans.decision {
		case session.PermissionDeny:
			keys = d.Deny
			if cur.ans.reason != "" {
				keys = nil // given up below if the dialog, drawn again, no longer takes it
				if d.DenyWith != nil {
					keys = d.DenyWith(cur.ans.reason)
				}
			}
		case session.PermissionAlways:
			keys = d.Always // none if the dialog, drawn again, no longer offers it: given up below
		}
		if k := strings.Join(keys, " "); k == cur.moved && time.Since(cur.movedAt) < keyMoveWait {
			// The last selection key is not on screen yet: wait for it to be drawn.
			after(keyStep)
			continue
		}
		switch {
		case len(keys) == 0:
			s.keyGaveUp(cur)
		case len(keys) > 1 && cur.steps < keySteps:
			// The selection moves first; the screen is read again before the next key. A
			// reason is typed once: still not shown keyMoveWait later, it is not typed again.
			if _, typing := session.TypedText(keys[0]); typing {
				if cur.typed {
					s.keyGaveUp(cur)
					continue
				}
				cur.typed = true
			}
			cur.steps++
			cur.moved, cur.movedAt = strings.Join(keys, " "), time.Now()
			sc.Press(keys[0])
			after(keyStep)
		case len(keys) == 1 && cur.tries < keyTries:
			cur.tries++
			if cur.tries > 1 {
				s.logger.Info("permission dialog still on screen after its answer: the key again", "id", cur.p.q.ID, "key", keys[0])
			} else if keys[0] == "Escape" {
				// Escape at the dialog ends the agent's turn, as the person's own does.
				s.Interrupt()
			}
			sc.Press(keys[0])
			after(cmp.Or(d.Confirm, keyConfirm))
		default:
			s.keyGaveUp(cur)
		}
	}
}

// askKeyDialog makes the dialog d, just read on screen, a question.
func (s *Supervisor) askKeyDialog(d agent.KeyDialog) *keyDialog {
	now := time.Now()
	perm := &session.Permission{Tool: termsafe.String(d.Tool), Command: termsafe.String(clip.Head(d.Command, activityCommandMax)),
		DenyReason: d.DenyWith != nil}
	if len(d.Always) > 0 {
		perm.Always = termsafe.String(d.AlwaysSays)
	}
	p := &permQuestion{q: session.Question{ID: s.engine.NextQuestionID(), Event: hooks.PermissionRequest, Asked: now, Permission: perm},
		ch: make(chan permAnswer, 1), keys: true}
	s.perms.mu.Lock()
	if s.perms.pending == nil {
		s.perms.pending = map[int]*permQuestion{}
	}
	s.perms.pending[p.q.ID] = p
	s.perms.mu.Unlock()
	s.logger.Debug("permission dialog on screen", "id", p.q.ID, "tool", d.Tool, "command", d.Command)
	s.publish(session.QuestionAsked{At: session.At{Time: now}, Question: p.q})
	return &keyDialog{d: d, seen: now, p: p}
}

// keyDialogLeft ends the question of a dialog that left the screen: answered by the keys
// pressed for it, else by the person at the terminal (withdrawn).
func (s *Supervisor) keyDialogLeft(k *keyDialog, why string) {
	if k.p == nil {
		return
	}
	a := k.ans
	if a == nil && s.perms.take(k.p.q.ID) == nil {
		// Answered from elsewhere as it left: the answer is in the channel.
		select {
		case got := <-k.p.ch:
			a = &got
		default:
		}
	}
	now := time.Now()
	if a == nil || a.decision == "" || k.tries == 0 {
		if a != nil && a.decision != "" {
			s.logger.Info("permission answered as its dialog left the screen: no key pressed", "id", k.p.q.ID, "decision", a.decision, "by", a.by)
		}
		s.logger.Debug("permission question withdrawn", "id", k.p.q.ID, "why", why)
		s.publish(session.QuestionResolved{At: session.At{Time: now}, ID: k.p.q.ID, By: verdictlog.SourceTerminal})
		return
	}
	s.logger.Info("permission answered with keys", "id", k.p.q.ID, "decision", a.decision, "by", a.by,
		"after", now.Sub(k.seen).Round(time.Millisecond), "tries", k.tries)
	s.publish(session.QuestionResolved{At: session.At{Time: now}, ID: k.p.q.ID, Decision: a.decision, By: a.by})
	v := verdictlog.Verdict{Time: now, Asked: k.p.q.Asked, SessionID: s.engine.Counts().SessionID, Event: verdictlog.EventPermission,
		Decision: a.decision, Reason: a.reason, Source: a.by, Permission: &verdictlog.Permission{Tool: k.p.q.Permission.Tool, Command: k.p.q.Permission.Command}}
	if a.decision == session.PermissionAlways {
		v.Permission.Rule = k.p.q.Permission.Always
	}
	s.out.Do(func() {
		if err := s.record(v); err != nil {
			s.logger.Error("verdict log", "err", err)
		}
	})
}

// keyGaveUp: the dialog stayed on screen through the answer's keys. The question ends and the
// person is told to answer at the terminal; the dialog is not asked about again while it stays.
func (s *Supervisor) keyGaveUp(k *keyDialog) {
	s.logger.Error("permission dialog did not take its answer's keys", "id", k.p.q.ID, "tool", k.d.Tool, "tries", k.tries)
	now := time.Now()
	s.publish(session.QuestionResolved{At: session.At{Time: now}, ID: k.p.q.ID, By: verdictlog.SourceFailOpen})
	s.publish(session.Notice{At: session.At{Time: now}, Level: session.NoticeError,
		Text: s.agent.Product() + "'s permission dialog did not take the answer: answer it at its terminal"})
	k.p, k.ans = nil, nil
}
