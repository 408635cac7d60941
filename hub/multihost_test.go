package hub

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/verdictlog"
)

// countingSSH is a Transport whose ssh notes each run in a file, then runs script; dials counts
// the runs so far.
func countingSSH(t *testing.T, script string) (tr Transport, dials func() int) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "dials")
	quoted := "'" + strings.ReplaceAll(file, "'", `'\''`) + "'"
	return fakeSSH(t, "echo dial >>"+quoted+"\n"+script, 5*time.Second), func() int {
		b, _ := os.ReadFile(file)
		return strings.Count(string(b), "dial")
	}
}

// unreachable is what ssh says of a host it cannot connect to.
const unreachable = "echo 'ssh: connect to host devbox port 22: Connection refused' >&2\nexit 255"

// A host that cannot be reached is one card saying why and when it is tried again; it is not
// dialled again before then, and each failure doubles the wait.
func TestMultiHostBacksOff(t *testing.T) {
	tr, dials := countingSSH(t, unreachable)
	m := NewMultiHost(shortDir(t), tr, []string{"devbox"}, "hooksup watch")
	defer m.Close()
	card := func() string {
		t.Helper()
		ls, err := m.List()
		if err != nil || len(ls) != 1 || ls[0].Host != "devbox" || ls[0].Err == nil {
			t.Fatalf("listed %+v, %v; want the host's card", ls, err)
		}
		return ls[0].Err.Error()
	}
	first := card()
	if !strings.Contains(first, "disconnected: unreachable (ssh: connect to host devbox port 22: Connection refused)") ||
		!strings.Contains(first, "trying again in 1s") || dials() != 1 {
		t.Fatalf("after the first dial (%d dials): %s", dials(), first)
	}
	card()
	if dials() != 1 {
		t.Fatalf("dialled %d times within the wait", dials())
	}
	for deadline := time.Now().Add(10 * time.Second); dials() < 2; {
		if time.Now().After(deadline) {
			t.Fatal("never dialled again")
		}
		time.Sleep(100 * time.Millisecond)
		second := card()
		if dials() == 2 && !strings.Contains(second, "trying again in 2s") {
			t.Fatalf("after the second failure: %s", second)
		}
	}
}

// Lists of one host at once, as hooksup web's page and its event follower make, dial it once:
// the others wait for that dial and list its outcome.
func TestMultiHostDialsOnceForListsAtOnce(t *testing.T) {
	tr, dials := countingSSH(t, "sleep 0.5\n"+unreachable)
	m := NewMultiHost(shortDir(t), tr, []string{"devbox"}, "hooksup web")
	defer m.Close()
	const lists = 8
	cards := make([]string, lists)
	var wg sync.WaitGroup
	for i := range lists {
		wg.Go(func() {
			if ls, _ := m.ListHost("devbox"); len(ls) == 1 && ls[0].Err != nil {
				cards[i] = ls[0].Err.Error()
			}
		})
	}
	wg.Wait()
	if n := dials(); n != 1 {
		t.Fatalf("%d lists at once dialled %d times, want once", lists, n)
	}
	for _, c := range cards {
		if !strings.Contains(c, "disconnected: unreachable") {
			t.Fatalf("a list's card: %q", c)
		}
	}
}

// Without hosts (hooksup watch --local) only this machine's sessions are listed, and nothing is
// dialled.
func TestMultiHostLocalOnly(t *testing.T) {
	dir := shortDir(t)
	_, e := serve(t, dir, "llll", newEngineSession(t), nil)
	tr, dials := countingSSH(t, unreachable)
	m := NewMultiHost(dir, tr, nil, "hooksup watch")
	defer m.Close()
	ls, err := m.List()
	if err != nil || len(ls) != 1 || ls[0].Entry.ID != e.ID || ls[0].Host != "" || ls[0].Err != nil {
		t.Fatalf("listed %+v, %v", ls, err)
	}
	if ls, err := m.ListHost("devbox"); err != nil || len(ls) != 0 {
		t.Fatalf("a host not given listed %+v, %v", ls, err)
	}
	if dials() != 0 {
		t.Fatalf("dialled %d times", dials())
	}
}

// followed streams l's events through m until f has seen a verdict, once the session has the
// stream's subscriber besides the control server's.
func followed(t *testing.T, m *MultiHost, l Live, sess *engineSession) (types func() []string) {
	t.Helper()
	done := make(chan []string, 1)
	go func() {
		var seen []string
		m.Events(l, func(ev Event) bool { seen = append(seen, ev.Type); return ev.Type != EventVerdictDecided })
		done <- seen
	}()
	for deadline := time.Now().Add(10 * time.Second); ; {
		sess.mu.Lock()
		n := len(sess.subs)
		sess.mu.Unlock()
		if n == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the stream never subscribed")
		}
		time.Sleep(10 * time.Millisecond)
	}
	return func() []string {
		select {
		case s := <-done:
			return s
		case <-time.After(10 * time.Second):
			t.Fatal("the stream did not end with the verdict")
			return nil
		}
	}
}

// Each session is reached where it runs, this machine's through its control socket and
// another host's through that host's connection: listed with its host, each host alone with
// ListHost, its snapshot, events, answers (which say they come from by) and Escape.
func TestMultiHostReachesEachSessionWhereItRuns(t *testing.T) {
	local, remote := shortDir(t), shortDir(t)
	here, there := newEngineSession(t), newEngineSession(t)
	_, le := serve(t, local, "llll", here, nil)
	_, re := serve(t, remote, "rrrr", there, nil)
	m := NewMultiHost(local, loopback(t, remote), []string{"devbox"}, "hooksup watch")
	defer m.Close()

	ls, err := m.List()
	if err != nil || len(ls) != 2 || ls[0].Entry.ID != le.ID || ls[0].Host != "" ||
		ls[1].Entry.ID != re.ID || ls[1].Host != "devbox" || ls[1].Err != nil {
		t.Fatalf("listed %+v, %v; want this machine's session, then devbox's", ls, err)
	}
	for host, want := range map[string]string{"": le.ID, "devbox": re.ID} {
		if hl, err := m.ListHost(host); err != nil || len(hl) != 1 || hl[0].Entry.ID != want {
			t.Fatalf("ListHost(%q) = %+v, %v; want %s alone", host, hl, err, want)
		}
	}

	for i, sess := range []*engineSession{here, there} {
		l := ls[i]
		events := followed(t, m, l, sess)
		ans := make(chan hooks.Answer, 1)
		go func() { ans <- sess.Decide(context.Background(), stopIn()) }()
		q := <-sess.asked
		snap, err := m.Snapshot(l)
		if err != nil || len(snap.Pending) != 1 || snap.Pending[0].ID != q.ID {
			t.Fatalf("%s's snapshot: %+v, %v", l.Entry.ID, snap, err)
		}
		if err := m.Resolve(l, q.ID, hooks.Block, "fix it"); err != nil {
			t.Fatalf("answering %s: %v", l.Entry.ID, err)
		}
		if a := <-ans; a.Decision != hooks.Block {
			t.Fatalf("%s's answer %+v, want block", l.Entry.ID, a)
		}
		if vs := sess.verdicts(); len(vs) != 1 || vs[0].Source != "manual (hooksup watch)" {
			t.Fatalf("%s's verdicts %+v", l.Entry.ID, vs)
		}
		if s := strings.Join(events(), " "); !strings.Contains(s, EventQuestionAsked) || !strings.Contains(s, EventQuestionResolved) {
			t.Fatalf("%s's events: %s", l.Entry.ID, s)
		}

		go func() { ans <- sess.Decide(context.Background(), stopIn()) }()
		<-sess.asked
		if err := m.Interrupt(l); err != nil {
			t.Fatalf("interrupting %s: %v", l.Entry.ID, err)
		}
		if a := <-ans; a.Decision != hooks.Allow {
			t.Fatalf("%s's answer after Escape %+v, want allow", l.Entry.ID, a)
		}
		if vs := sess.verdicts(); len(vs) < 2 || vs[len(vs)-1].Source != verdictlog.SourceEscape {
			t.Fatalf("%s's verdicts after Escape %+v", l.Entry.ID, vs)
		}
	}

	elsewhere := ls[1]
	elsewhere.Host = "elsewhere"
	if err := m.Interrupt(elsewhere); err == nil || !strings.Contains(err.Error(), "no host elsewhere") {
		t.Fatalf("a session of a host not given: %v", err)
	}
}

// A host whose connection drops is its card until it is dialled again: what is asked of its
// sessions meanwhile is a HostError saying the connection dropped, and after the wait the next
// list reaches them again.
func TestMultiHostReconnectsAfterADrop(t *testing.T) {
	local, remote := shortDir(t), shortDir(t)
	there := newEngineSession(t)
	_, re := serve(t, remote, "rrrr", there, nil)
	m := NewMultiHost(local, loopback(t, remote), []string{"devbox"}, "hooksup watch")
	defer m.Close()
	ls, err := m.List()
	if err != nil || len(ls) != 1 || ls[0].Entry.ID != re.ID {
		t.Fatalf("listed %+v, %v", ls, err)
	}
	l := ls[0]

	conn, _ := m.hosts[0].remote()
	conn.cmd.Process.Kill() // ssh gone
	<-conn.Done()
	dropped := func(what string, err error) {
		t.Helper()
		if herr, ok := errors.AsType[*HostError](err); !ok || herr.Host != "devbox" || !errors.Is(err, ErrDropped) {
			t.Fatalf("%s after the drop: %v, want devbox's HostError of a dropped connection", what, err)
		}
	}
	_, err = m.Snapshot(l)
	dropped("a snapshot", err)

	ls, err = m.List()
	if err != nil || len(ls) != 1 || ls[0].Host != "devbox" || ls[0].Err == nil ||
		!strings.Contains(ls[0].Err.Error(), "disconnected: dropped the connection") ||
		!strings.Contains(ls[0].Err.Error(), "trying again in 1s") {
		t.Fatalf("listed after the drop %+v, %v; want devbox's card", ls, err)
	}
	dropped("an answer", m.Resolve(l, 1, hooks.Allow, ""))
	dropped("an interrupt", m.Interrupt(l))
	dropped("the events", m.Events(l, func(Event) bool { return true }))

	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("never listed again: %+v", ls)
		}
		if ls, err = m.List(); err == nil && len(ls) == 1 && ls[0].Err == nil && ls[0].Entry.ID == re.ID {
			break
		}
	}
	if snap, err := m.Snapshot(ls[0]); err != nil || snap.Cwd != "/src/rrrr" {
		t.Fatalf("a snapshot once reconnected: %+v, %v", snap, err)
	}
}
