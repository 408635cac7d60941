package hub

import (
	"encoding/json"
	"errors"
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

	"github.com/hooksup/hooksup/session"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// everyEvent is one of each event a session publishes. TestEveryEventListed keeps it whole.
var everyEvent = []session.Event{
	session.HookReceived{}, session.CheckStarted{}, session.CheckOutput{}, session.CheckFinished{},
	session.VerdictDecided{}, session.OtherHooksReported{}, session.Interrupted{}, session.Notice{},
	session.AgentExited{}, session.Alert{}, session.SubagentsChanged{}, session.QuestionAsked{},
	session.QuestionResolved{}, session.StateChanged{}, session.TranscriptUpdated{}, session.SessionSummary{},
	session.CheckWaiting{}, session.CheckWaitEnded{}, session.ConfigTrustAsked{}, session.ConfigTrustSettled{},
	session.ConfigApplied{},
	session.GoalTurnTyped{},
}

// endOfEvents is the last event a test publishes: the stream is read up to it.
var endOfEvents = session.Notice{Level: session.NoticeInfo, Text: "end of the test's events"}

// streamEvents opens an event stream on a real control socket, publishes evs and then
// endOfEvents in the session, and returns the events the client read before endOfEvents.
func streamEvents(t *testing.T, sess *engineSession, control string, evs ...session.Event) []Event {
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
	pkgs := map[string]bool{reflect.TypeFor[session.Event]().PkgPath(): true}
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
type unnamedEvent struct{ session.At }

// An event without a declared name is never sent (under its Go type's name or any other):
// the events around it are, and the session's log says which one was left out.
func TestUnnamedEventNotSent(t *testing.T) {
	dir := shortDir(t)
	sess := newEngineSession(t)
	var logBuf syncBuffer
	_, e := serve(t, dir, "unnamed", sess, slog.New(slog.NewTextHandler(&logBuf, nil)))
	var names []string
	for _, ev := range streamEvents(t, sess, e.Control, session.Interrupted{Turn: 1}, unnamedEvent{}, session.Interrupted{Turn: 2}) {
		names = append(names, ev.Type)
	}
	if got := strings.Join(names, " "); got != "Interrupted Interrupted" {
		t.Fatalf("the stream carried %q, want the two named events only", got)
	}
	if !strings.Contains(logBuf.String(), "unnamedEvent") {
		t.Fatalf("the log does not name the event left out:\n%s", logBuf.String())
	}
}

// Each event's data on the wire, byte for byte, with every field set (filled): moving or renaming
// a Go type changes none of it. testdata/event-encoding.golden holds it; go test -update
// rewrites it, for a new protocol version.
func TestWireEventEncoding(t *testing.T) {
	var lines []string
	for _, ev := range everyEvent {
		name, ok := EventName(ev)
		if !ok {
			t.Fatalf("%T has no name on the wire", ev)
		}
		v := reflect.New(reflect.TypeOf(ev)).Elem()
		fill(v, 0)
		data, err := json.Marshal(v.Interface())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		lines = append(lines, name+": "+string(data))
	}
	got := strings.Join(lines, "\n") + "\n"
	golden := filepath.Join("testdata", "event-encoding.golden")
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
		t.Fatalf("the events' encoding on the wire changed:\n got:\n%s\nwant:\n%s", got, want)
	}
}

// fill sets every field of v, nested ones too, to a value that is not its zero: one element in
// each slice and map, a fixed time, an error for an error.
func fill(v reflect.Value, depth int) {
	if depth > 8 {
		return
	}
	switch v.Type() {
	case reflect.TypeFor[time.Time]():
		v.Set(reflect.ValueOf(time.Date(2025, 1, 2, 3, 4, 5, 6, time.UTC)))
		return
	case reflect.TypeFor[json.RawMessage]():
		v.Set(reflect.ValueOf(json.RawMessage(`{"raw":1}`)))
		return
	case reflect.TypeFor[error]():
		v.Set(reflect.ValueOf(errors.New("an error")))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString("s")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(2)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(3)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1.5)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(p.Elem(), depth+1)
		v.Set(p)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fill(s.Index(0), depth+1)
		v.Set(s)
	case reflect.Array:
		for i := range v.Len() {
			fill(v.Index(i), depth+1)
		}
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k, depth+1)
		fill(e, depth+1)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), depth+1)
			}
		}
	}
}
