package engine

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/verdictlog"
)

// askEngine is an engine with a person present; questions arrive on the returned channel.
func askEngine(t *testing.T, mode config.Mode, timeout time.Duration, checks ...config.Check) (*Engine, *recorder, chan session.Question) {
	t.Helper()
	cfg := cfgWith(mode, checks...)
	cfg.DecisionTimeout = config.Duration{D: timeout}
	r := &recorder{}
	asked := make(chan session.Question, 4)
	e := New(Options{Config: cfg, ProjectDir: t.TempDir(), Record: r.record, Interactive: true,
		Emit: func(ev session.Event) {
			r.emit(ev)
			if q, ok := ev.(session.QuestionAsked); ok {
				asked <- q.Question
			}
		}})
	return e, r, asked
}

func decideAsync(e *Engine, in *hooks.Input) chan hooks.Answer {
	ch := make(chan hooks.Answer, 1)
	go func() { ch <- e.Decide(context.Background(), in) }()
	return ch
}

func TestAskApproveContinuation(t *testing.T) {
	e, r, asked := askEngine(t, config.ModeAsk, time.Minute, check("tests", "echo 'FAIL x'; exit 1"))
	ans := decideAsync(e, stopIn(false))
	q := <-asked
	if q.Proposal != hooks.Block || q.Source != "check:tests" || q.Reason == "" {
		t.Fatalf("question %+v", q)
	}
	if len(e.Pending()) != 1 {
		t.Fatal("not pending")
	}
	if err := e.Resolve(q.ID, hooks.Block, ""); err != nil {
		t.Fatal(err)
	}
	a := <-ans
	if a.Decision != hooks.Block || a.Reason != q.Reason {
		t.Fatalf("%+v", a)
	}
	if v := r.verdicts[0]; v.Source != verdictlog.SourceManual || v.Continuations != 1 {
		t.Fatalf("verdict %+v", v)
	}
	if err := e.Resolve(q.ID, hooks.Allow, ""); !errors.Is(err, session.ErrNoSuchQuestion) {
		t.Fatalf("second answer: %v", err)
	}
}

func TestAskDenyLetsItStop(t *testing.T) {
	e, r, asked := askEngine(t, config.ModeAsk, time.Minute, check("tests", "exit 1"))
	ans := decideAsync(e, stopIn(false))
	e.Resolve((<-asked).ID, hooks.Allow, "")
	if a := <-ans; a.Decision != hooks.Allow || r.verdicts[0].Source != verdictlog.SourceManual || r.verdicts[0].Continuations != 0 {
		t.Fatalf("%+v %+v", a, r.verdicts[0])
	}
}

func TestAskEditedReason(t *testing.T) {
	e, _, asked := askEngine(t, config.ModeAsk, time.Minute, check("tests", "exit 1"))
	ans := decideAsync(e, stopIn(false))
	e.Resolve((<-asked).ID, hooks.Block, "Also update the changelog.")
	if a := <-ans; a.Reason != "Also update the changelog." {
		t.Fatalf("%+v", a)
	}
}

func TestAskDoesNotAskWhenChecksPass(t *testing.T) {
	e, r, asked := askEngine(t, config.ModeAsk, time.Minute, check("ok", "true"))
	if a := e.Decide(context.Background(), stopIn(false)); a.Decision != hooks.Allow || len(asked) != 0 || r.verdicts[0].Source != verdictlog.SourceChecks {
		t.Fatalf("%+v", a)
	}
}

func TestManualAsksEveryStopAndCanForceAContinuation(t *testing.T) {
	e, r, asked := askEngine(t, config.ModeManual, time.Minute)
	ans := decideAsync(e, stopIn(false))
	q := <-asked
	if q.Proposal != hooks.Allow {
		t.Fatalf("%+v", q)
	}
	e.Resolve(q.ID, hooks.Block, "Write the docs too.")
	if a := <-ans; a.Decision != hooks.Block || a.Reason != "Write the docs too." || r.verdicts[0].Source != verdictlog.SourceManual {
		t.Fatalf("%+v", a)
	}
	ans = decideAsync(e, stopIn(true))
	e.Resolve((<-asked).ID, hooks.Halt, "enough")
	if a := <-ans; a.Decision != hooks.Halt || a.StopReason != "enough" {
		t.Fatalf("%+v", a)
	}
}

// Letting it stop against the checks' block keeps what was proposed and denied.
func TestDenyKeepsTheProposal(t *testing.T) {
	e, r, asked := askEngine(t, config.ModeAsk, time.Minute, check("tests", "echo 'FAIL x'; exit 1"))
	ans := make(chan hooks.Answer)
	go func() { ans <- e.Decide(context.Background(), stopIn(false)) }()
	q := <-asked
	e.Resolve(q.ID, hooks.Allow, "")
	if a := <-ans; a.Decision != hooks.Allow {
		t.Fatalf("%+v", a)
	}
	v := r.verdicts[0]
	if v.Source != verdictlog.SourceManual || v.Proposal == nil || v.Proposal.Decision != hooks.Block || v.Proposal.Source != verdictlog.CheckSource("tests") ||
		!strings.Contains(v.Proposal.Reason, "FAIL x") {
		t.Fatalf("verdict %+v proposal %+v", v, v.Proposal)
	}
	// The checks deciding alone need no proposal beside the verdict.
	e2, r2 := newTestEngine(t, cfgWith(config.ModeAuto, check("tests", "exit 1")))
	e2.Decide(context.Background(), stopIn(false))
	if r2.verdicts[0].Proposal != nil {
		t.Fatalf("proposal %+v", r2.verdicts[0].Proposal)
	}
}

func TestUnansweredQuestionTimesOut(t *testing.T) {
	for _, tc := range []struct {
		onTimeout config.OnTimeout
		want      hooks.Decision
	}{{"proposal", hooks.Block}, {"allow", hooks.Allow}} {
		e, r, _ := askEngine(t, config.ModeAsk, 50*time.Millisecond, check("t", "exit 1"))
		e.cfg.OnTimeout = tc.onTimeout
		a := e.Decide(context.Background(), stopIn(false))
		if a.Decision != tc.want || r.verdicts[0].Source != verdictlog.SourceTimeout {
			t.Errorf("on_timeout=%s: %+v %+v", tc.onTimeout, a, r.verdicts[0])
		}
	}
}

func TestEscapeResolvesThePendingQuestion(t *testing.T) {
	e, r, asked := askEngine(t, config.ModeAsk, time.Minute, check("t", "exit 1"))
	ans := decideAsync(e, stopIn(false))
	<-asked
	e.Interrupt()
	if a := <-ans; a.Decision != hooks.Allow || r.verdicts[0].Source != verdictlog.SourceEscape {
		t.Fatalf("%+v %+v", a, r.verdicts[0])
	}
	if len(e.Pending()) != 0 {
		t.Fatal("question still pending")
	}
	var resolvedBy verdictlog.Source
	for _, ev := range r.events {
		if qr, ok := ev.(session.QuestionResolved); ok {
			resolvedBy = qr.By
		}
	}
	if resolvedBy != verdictlog.SourceEscape {
		t.Fatalf("resolved by %q", resolvedBy)
	}
	// No further continuation in this turn: the next stop is allowed without asking.
	if a := e.Decide(context.Background(), stopIn(false)); a.Decision != hooks.Allow || len(asked) != 0 {
		t.Fatalf("%+v", a)
	}
}
