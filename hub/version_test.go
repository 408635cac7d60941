package hub

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeSession serves a control socket at path the way another build of hooksup might: it reads
// each connection's request line and writes answer; got receives the requests.
func fakeSession(t *testing.T, path, answer string) <-chan map[string]any {
	t.Helper()
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	got := make(chan map[string]any, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			line, err := bufio.NewReader(c).ReadBytes('\n')
			if err == nil {
				var req map[string]any
				_ = json.Unmarshal(line, &req)
				got <- req
				c.Write([]byte(answer + "\n"))
			}
			c.Close()
		}
	}()
	return got
}

// A session of a later protocol answers every request with its own version: the client says
// which two versions met and what to do, and never takes the answer for its own.
func TestClientMeetsAnotherVersion(t *testing.T) {
	dir := shortDir(t)
	path := filepath.Join(dir, "next.ctl")
	got := fakeSession(t, path, `{"protocol":2,"code":"version","error":"this session speaks hub protocol 2"}`)
	c := Client{Path: path}
	const want = "this hooksup speaks hub protocol 1, the session's speaks 2: upgrade this hooksup"
	if _, err := c.Snapshot(); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("snapshot from a protocol 2 session: %v, want %q", err, want)
	}
	if req := <-got; req["protocol"] != float64(1) || req["op"] != "snapshot" {
		t.Fatalf("the request said %v, want op snapshot and protocol 1", req)
	}
	for name, call := range map[string]func() error{
		"resolve":   func() error { return c.Resolve(1, "allow", "", "hooksup deny") },
		"interrupt": c.Interrupt,
		"events":    func() error { return c.Events(func(Event) bool { return true }) },
	} {
		if err := call(); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s on a protocol 2 session: %v, want %q", name, err, want)
		}
	}

	// A session that answers in another version without saying it is one (a snapshot, say) is
	// still not understood.
	odd := filepath.Join(dir, "odd.ctl")
	fakeSession(t, odd, `{"protocol":3,"snapshot":{"id":"odd"}}`)
	if _, err := (Client{Path: odd}).Snapshot(); err == nil || !strings.Contains(err.Error(), "the session's speaks 3") {
		t.Fatalf("a snapshot in protocol 3: %v, want the versions named", err)
	}
}

// A session that predates the version field speaks protocol 1: its answers are taken.
func TestUnversionedSessionIsProtocol1(t *testing.T) {
	path := filepath.Join(shortDir(t), "old.ctl")
	fakeSession(t, path, `{"snapshot":{"id":"old","agent":"claude","pending":[]}}`)
	snap, err := Client{Path: path}.Snapshot()
	if err != nil || snap.ID != "old" {
		t.Fatalf("snapshot from an unversioned session: %+v, %v", snap, err)
	}
}

// A client of another version is refused by the server, in the server's version, before the
// request is acted on: an interrupt of protocol 2 interrupts nothing.
func TestServerRefusesAnotherVersion(t *testing.T) {
	dir := shortDir(t)
	sess := newEngineSession(t)
	_, e := serve(t, dir, "ffff", sess, nil)
	conn, err := net.Dial("unix", e.Control)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.Write([]byte(`{"op":"snapshot","protocol":2}` + "\n"))
	line, err := bufio.NewReader(conn).ReadBytes('\n')
	if err != nil {
		t.Fatal(err)
	}
	var r map[string]any
	if err := json.Unmarshal(line, &r); err != nil {
		t.Fatal(err)
	}
	if r["protocol"] != float64(1) || r["code"] != "version" || r["snapshot"] != nil ||
		!strings.Contains(r["error"].(string), "protocol 2") {
		t.Fatalf("the answer to a protocol 2 request: %s", line)
	}
}

// List lists a session of another protocol with its VersionError, whose message names it by
// its registration (pid, the hooksup that started it), beside the sessions it can ask; the
// registration is kept: the session is alive.
func TestListKeepsASessionOfAnotherVersion(t *testing.T) {
	dir := shortDir(t)
	serve(t, dir, "aaaa", newEngineSession(t), nil)
	ctl := filepath.Join(dir, "next.ctl")
	fakeSession(t, ctl, `{"protocol":2,"code":"version","error":"this session speaks hub protocol 2"}`)
	if _, err := Register(dir, Entry{ID: "next", Agent: "codex", Cwd: "/src/next", PID: os.Getpid(), Started: time.Now(),
		Control: ctl, Hooksup: "v9.1.0"}); err != nil {
		t.Fatal(err)
	}
	live, err := List(dir)
	if err != nil || len(live) != 2 {
		t.Fatalf("listed %+v, %v; want both sessions", live, err)
	}
	if live[0].Err != nil || live[0].Snapshot.Cwd != "/src/aaaa" {
		t.Fatalf("the session of this protocol: %+v", live[0])
	}
	next := live[1]
	verr, ok := errors.AsType[*VersionError](next.Err)
	if !ok || verr.Ours != Protocol || verr.Theirs != 2 || next.Snapshot.Cwd != "/src/next" || next.Snapshot.Agent != "codex" {
		t.Fatalf("the session of protocol 2: %+v", next)
	}
	want := fmt.Sprintf("the session's (pid %d, started by hooksup v9.1.0) speaks 2", os.Getpid())
	if !strings.Contains(next.Err.Error(), want) {
		t.Fatalf("%q lacks %q", next.Err, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "next"+entrySuffix)); err != nil {
		t.Fatalf("its registration is gone: %v", err)
	}
}
