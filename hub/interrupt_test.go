package hub

import (
	"context"
	"errors"
	"testing"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/verdictlog"
)

// Interrupt on the control socket is Escape: the pending question is let stop (source escape),
// and answering it afterwards is "already answered".
func TestInterruptIsEscape(t *testing.T) {
	dir := shortDir(t)
	sess := newEngineSession(t)
	_, e := serve(t, dir, "eeee", sess, nil)
	ans := make(chan hooks.Answer, 1)
	go func() { ans <- sess.Decide(context.Background(), stopIn()) }()
	q := <-sess.asked
	c := Client{Path: e.Control}
	if err := c.Interrupt(); err != nil {
		t.Fatal(err)
	}
	if a := <-ans; a.Decision != hooks.Allow {
		t.Fatalf("answer %+v, want allow", a)
	}
	vs := sess.verdicts()
	if len(vs) == 0 || vs[len(vs)-1].Source != verdictlog.SourceEscape {
		t.Fatalf("verdicts %+v, want the stop allowed by escape", vs)
	}
	if err := c.Resolve(q.ID, "block", "", "hooksup approve"); !errors.Is(err, ErrAnswered) {
		t.Fatalf("answering after the interrupt: %v", err)
	}
}
