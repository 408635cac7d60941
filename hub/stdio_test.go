package hub

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// envStdioHelper makes the test binary `hooksup hub-stdio` over the runtime directory it names:
// the remote end of a Transport whose command is the test binary itself.
const envStdioHelper = "HOOKSUP_TEST_HUB_STDIO_DIR"

func TestMain(m *testing.M) {
	if dir := os.Getenv(envStdioHelper); dir != "" {
		if err := ServeStdio(context.Background(), dir, "v9.9.9-test", os.Stdin, os.Stdout); err != nil {
			os.Exit(3)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// loopback is a Transport whose "ssh" is this test binary serving dir on its stdio.
func loopback(t *testing.T, dir string) Transport {
	t.Helper()
	t.Setenv(envStdioHelper, dir)
	return Transport{SSH: []string{os.Args[0]}, Timeout: 10 * time.Second}
}

// Another machine's session, reached through the stdio wire: listed with its pending question,
// its events streamed, and answered, the verdict saying where.
func TestRemoteListsStreamsAndResolves(t *testing.T) {
	dir := shortDir(t)
	sess := newEngineSession(t)
	_, e := serve(t, dir, "rrrr", sess, nil)
	r, err := Dial(context.Background(), loopback(t, dir), "devbox")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Hooksup != "v9.9.9-test" {
		t.Fatalf("hello names hooksup %q", r.Hooksup)
	}

	got := make(chan Event, 16)
	streamDone := make(chan error, 1)
	go func() {
		streamDone <- r.Events(e.ID, func(ev Event) bool { got <- ev; return ev.Type != EventVerdictDecided })
	}()
	for deadline := time.Now().Add(10 * time.Second); ; {
		sess.mu.Lock()
		n := len(sess.subs)
		sess.mu.Unlock()
		if n == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the relayed stream never subscribed")
		}
		time.Sleep(10 * time.Millisecond)
	}
	go sess.Decide(context.Background(), stopIn())
	q := <-sess.asked

	live, err := r.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(live) != 1 || live[0].Entry.ID != e.ID || live[0].Err != nil {
		t.Fatalf("listed %+v", live)
	}
	s := live[0].Snapshot
	if s.Cwd != "/src/rrrr" || len(s.Pending) != 1 || s.Pending[0].ID != q.ID || !strings.Contains(s.Pending[0].Reason, "FAIL: hub") {
		t.Fatalf("snapshot %+v", s)
	}
	if snap, err := r.Snapshot(e.ID); err != nil || len(snap.Pending) != 1 {
		t.Fatalf("snapshot: %+v, %v", snap, err)
	}
	if err := r.Resolve(e.ID, q.ID, "block", "", "hooksup approve"); err != nil {
		t.Fatal(err)
	}
	if err := r.Resolve(e.ID, q.ID, "allow", "", "hooksup deny"); !errors.Is(err, ErrAnswered) {
		t.Fatalf("the second answer: %v, want ErrAnswered", err)
	}
	var types []string
	for ev := range got {
		types = append(types, ev.Type)
		if ev.Type == EventVerdictDecided {
			break
		}
	}
	if err := <-streamDone; err != nil {
		t.Fatalf("the stream ended with %v", err)
	}
	if s := strings.Join(types, " "); !strings.Contains(s, EventQuestionAsked) || !strings.Contains(s, EventQuestionResolved) {
		t.Fatalf("events %s", s)
	}
	vs := sess.verdicts()
	if len(vs) != 1 || vs[0].Decision != "block" || !strings.Contains(string(vs[0].Source), "hooksup approve") {
		t.Fatalf("verdicts %+v", vs)
	}
	// Another stream after the first was let go: the connection still serves.
	if _, err := r.List(); err != nil {
		t.Fatal(err)
	}
}

// The stdio server dials only the sessions registered in its own runtime directory.
func TestStdioReachesOnlyItsOwnSessions(t *testing.T) {
	dir := shortDir(t)
	other := shortDir(t)
	sess := newEngineSession(t)
	serve(t, other, "oooo", sess, nil)
	r, err := Dial(context.Background(), loopback(t, dir), "devbox")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, id := range []string{"oooo", "../" + filepath.Base(other) + "/oooo", filepath.Join(other, "oooo")} {
		if _, err := r.Snapshot(id); err == nil || !strings.Contains(err.Error(), "no session") {
			t.Fatalf("snapshot of %q: %v, want no session", id, err)
		}
	}
}

// hub-stdio ends when its input does: ssh gone, nothing is left running.
func TestStdioEndsWithItsInput(t *testing.T) {
	dir := shortDir(t)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- ServeStdio(context.Background(), dir, "v", inR, outW) }()
	go io.Copy(io.Discard, outR)
	if _, err := inW.Write([]byte(`{"protocol":1,"stream":1,"op":"list"}` + "\n")); err != nil {
		t.Fatal(err)
	}
	inW.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("ServeStdio: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ServeStdio still runs after its input ended")
	}
}

// fakeSSH is a Transport whose ssh is a shell script (script's text, "$@" the host and the
// remote command).
func fakeSSH(t *testing.T, script string, timeout time.Duration) Transport {
	t.Helper()
	p := filepath.Join(t.TempDir(), "ssh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return Transport{SSH: []string{p}, Timeout: timeout}
}

// Each way a host fails is one line naming the host, what happened and what to do, within the
// bound.
func TestDialFailures(t *testing.T) {
	for _, tc := range []struct {
		name, script string
		want         error
		words        []string
	}{
		{"unreachable", `echo "ssh: connect to host devbox port 22: Connection refused" >&2; exit 255`, ErrUnreachable,
			[]string{"host devbox: unreachable", "Connection refused", "check that ssh devbox works"}},
		{"no hooksup", `echo "bash: line 1: hooksup: command not found" >&2; exit 127`, ErrNoHooksup,
			[]string{"host devbox: no hooksup there", "command not found", "[hub] remote_command"}},
		{"an old hooksup", `echo 'hooksup: unknown command "hub-stdio" (see hooksup --help)' >&2; exit 2`, ErrNoStdio,
			[]string{"host devbox: its hooksup has no hub-stdio", "upgrade hooksup there"}},
		{"another protocol", `echo '{"protocol":2,"hello":{"hooksup":"v3.0.0"}}'; cat >/dev/null`, &VersionError{},
			[]string{"host devbox: this hooksup speaks hub protocol 1, the remote's hooksup (v3.0.0) speaks 2", "upgrade this hooksup"}},
		{"silent", `exec sleep 30`, ErrNoAnswer, []string{"host devbox: no answer", "within 500ms"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			r, err := Dial(context.Background(), fakeSSH(t, tc.script, 500*time.Millisecond), "devbox")
			if err == nil {
				r.Close()
				t.Fatal("dialled")
			}
			if verr, ok := tc.want.(*VersionError); ok {
				if !errors.As(err, &verr) {
					t.Fatalf("%v, want a VersionError", err)
				}
			} else if !errors.Is(err, tc.want) {
				t.Fatalf("%v, want %v", err, tc.want)
			}
			for _, w := range tc.words {
				if !strings.Contains(err.Error(), w) {
					t.Fatalf("%q lacks %q", err, w)
				}
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Fatalf("took %v with a bound of 500ms", d)
			}
		})
	}
}

// A frame of another protocol version is refused, naming both.
func TestStdioRefusesAnotherVersion(t *testing.T) {
	dir := shortDir(t)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go ServeStdio(context.Background(), dir, "v", inR, outW)
	defer inW.Close()
	go inW.Write([]byte(`{"protocol":2,"stream":7,"op":"list"}` + "\n"))
	buf := make([]byte, 4096)
	var text string
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(text, `"stream":7`); {
		if time.Now().After(deadline) {
			t.Fatalf("no answer on stream 7: %s", text)
		}
		n, err := outR.Read(buf)
		if err != nil {
			t.Fatal(err)
		}
		text += string(buf[:n])
	}
	if !strings.Contains(text, `"code":"version"`) || !strings.Contains(text, "hub protocol 2, this hooksup speaks 1") {
		t.Fatalf("answer %s", text)
	}
}
