package hub

import (
	"encoding/json"
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/engine"
	"github.com/hooksup/hooksup/event"
	"github.com/hooksup/hooksup/supervisor"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// everyEvent is one of each event a session publishes. TestEveryEventListed keeps it whole.
var everyEvent = []event.Event{
	supervisor.HookReceived{}, engine.CheckStarted{}, engine.CheckOutput{}, engine.CheckFinished{},
	engine.VerdictDecided{}, supervisor.OtherHooksReported{}, engine.Interrupted{}, event.Notice{},
	supervisor.AgentExited{}, supervisor.Alert{}, supervisor.SubagentsChanged{}, engine.QuestionAsked{},
	engine.QuestionResolved{}, supervisor.StateChanged{}, supervisor.TranscriptUpdated{}, supervisor.SessionSummary{},
	engine.CheckWaiting{}, engine.CheckWaitEnded{},
}

// endOfEvents is the last event a test publishes: the stream is read up to it.
var endOfEvents = event.Notice{Level: event.NoticeInfo, Text: "end of the test's events"}

// streamEvents opens an event stream on a real control socket, publishes evs and then
// endOfEvents in the session, and returns the events the client read before endOfEvents.
func streamEvents(t *testing.T, sess *engineSession, control string, evs ...event.Event) []Event {
	t.Helper()
	got := make(chan Event, 64)
	go Client{Path: control}.Events(func(ev Event) bool { got <- ev; return true })
	for deadline := time.Now().Add(10 * time.Second); ; {
		sess.mu.Lock()
		n := len(sess.subs)
		sess.mu.Unlock()
		if n == 2 { // the server's own subscription and the stream's
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the stream never subscribed")
		}
		time.Sleep(10 * time.Millisecond)
	}
	for _, ev := range append(evs, endOfEvents) {
		sess.emit(ev)
	}
	var out []Event
	timeout := time.After(10 * time.Second)
	for {
		select {
		case ev := <-got:
			if strings.Contains(string(ev.Data), endOfEvents.Text) {
				return out
			}
			out = append(out, ev)
		case <-timeout:
			t.Fatalf("the stream never carried the last event; read %+v", out)
		}
	}
}

// The names a client reads for the session's events are the protocol's, pinned in
// testdata/event-names.golden: renaming a Go type changes none of them. Beside each name, the
// fields of its data (docs/hub-protocol.md lists them): renaming one shows here too.
func TestWireEventNames(t *testing.T) {
	dir := shortDir(t)
	sess := newEngineSession(t)
	_, e := serve(t, dir, "wire", sess, nil)
	var lines []string
	for _, ev := range streamEvents(t, sess, e.Control, everyEvent...) {
		var data map[string]json.RawMessage
		if err := json.Unmarshal(ev.Data, &data); err != nil {
			t.Fatalf("%s: %v", ev.Type, err)
		}
		fields := slices.Sorted(maps.Keys(data))
		lines = append(lines, ev.Type+": "+strings.Join(fields, " "))
	}
	got := strings.Join(lines, "\n") + "\n"
	golden := filepath.Join("testdata", "event-names.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Fatalf("the event names on the wire changed (go test -update writes them, for a new protocol version):\n got:\n%s\nwant:\n%s", got, want)
	}
}

// everyEvent has one of each event type the session's packages declare (a struct embedding
// At), so TestWireEventNames sees every name the wire can carry.
func TestEveryEventListed(t *testing.T) {
	listed := map[string]bool{}
	pkgs := map[string]bool{reflect.TypeFor[event.Event]().PkgPath(): true}
	for _, ev := range everyEvent {
		ty := reflect.TypeOf(ev)
		listed[ty.PkgPath()+"."+ty.Name()] = true
		pkgs[ty.PkgPath()] = true
	}
	// This package's directory is the module's hub/: the others are found from there.
	module := strings.TrimSuffix(reflect.TypeFor[Client]().PkgPath(), "/hub")
	var declared []string
	for path := range pkgs {
		rel, ok := strings.CutPrefix(path, module+"/")
		if !ok {
			t.Fatalf("event package %s is outside the module %s", path, module)
		}
		fset := token.NewFileSet()
		files, err := filepath.Glob(filepath.Join("..", filepath.FromSlash(rel), "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range file.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok || g.Tok != token.TYPE {
					continue
				}
				for _, spec := range g.Specs {
					ts := spec.(*ast.TypeSpec)
					if st, ok := ts.Type.(*ast.StructType); ok && embedsAt(st) {
						declared = append(declared, path+"."+ts.Name.Name)
					}
				}
			}
		}
	}
	if len(declared) == 0 {
		t.Fatal("found no event types: the scan is broken")
	}
	for _, name := range declared {
		if !listed[name] {
			t.Errorf("%s is an event (it embeds At) that everyEvent lacks: add it, and name it on the wire", name)
		}
	}
}

func embedsAt(st *ast.StructType) bool {
	for _, f := range st.Fields.List {
		if len(f.Names) > 0 {
			continue
		}
		switch x := f.Type.(type) {
		case *ast.Ident:
			if x.Name == "At" {
				return true
			}
		case *ast.SelectorExpr:
			if x.Sel.Name == "At" {
				return true
			}
		}
	}
	return false
}

// unnamedEvent is an event the wire has no name for.
type unnamedEvent struct{ event.At }

// An event without a declared name is never sent (under its Go type's name or any other):
// the events around it are, and the session's log says which one was left out.
func TestUnnamedEventNotSent(t *testing.T) {
	dir := shortDir(t)
	sess := newEngineSession(t)
	var logBuf syncBuffer
	_, e := serve(t, dir, "unnamed", sess, slog.New(slog.NewTextHandler(&logBuf, nil)))
	var names []string
	for _, ev := range streamEvents(t, sess, e.Control, engine.Interrupted{Turn: 1}, unnamedEvent{}, engine.Interrupted{Turn: 2}) {
		names = append(names, ev.Type)
	}
	if got := strings.Join(names, " "); got != "Interrupted Interrupted" {
		t.Fatalf("the stream carried %q, want the two named events only", got)
	}
	if !strings.Contains(logBuf.String(), "unnamedEvent") {
		t.Fatalf("the log does not name the event left out:\n%s", logBuf.String())
	}
}
