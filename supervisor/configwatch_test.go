package supervisor

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/session"
)

// watchFixture is a project with a trusted .hooksup.toml and a configWatch over it, whose
// notices and switches are recorded.
type watchFixture struct {
	t        *testing.T
	dir      string
	file     string
	w        *configWatch
	mu       sync.Mutex
	events   []session.Event
	switched []config.Config
	applied  []func() // what each switch calls as it takes effect at a stop
}

func newWatchFixture(t *testing.T, content string) *watchFixture {
	t.Helper()
	dir := t.TempDir()
	f := &watchFixture{t: t, dir: dir, file: filepath.Join(dir, ".hooksup.toml")}
	if err := os.WriteFile(f.file, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	store := config.TrustStore{Path: filepath.Join(dir, "state", "trusted")}
	if err := store.Trust(f.file); err != nil {
		t.Fatal(err)
	}
	o := ConfigWatch{Files: []string{f.file, filepath.Join(dir, ".hooksup.local.toml")}, Trust: store,
		InUse: map[string][]byte{f.file: []byte(content)},
		Load: func(project map[string][]byte) (config.Config, error) {
			c := config.Defaults()
			err := config.Decode(f.file, project[f.file], &c)
			return c, err
		}}
	start, err := o.Load(o.InUse)
	if err != nil {
		t.Fatal(err)
	}
	f.w = newConfigWatch(o, dir, start, slog.New(slog.DiscardHandler), f.publish, f.switchTo)
	return f
}

func (f *watchFixture) publish(ev session.Event) {
	f.mu.Lock()
	f.events = append(f.events, ev)
	f.mu.Unlock()
}
func (f *watchFixture) switchTo(c config.Config, applied func()) {
	f.mu.Lock()
	f.switched = append(f.switched, c)
	f.applied = append(f.applied, applied)
	f.mu.Unlock()
}

func (f *watchFixture) notices() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, ev := range f.events {
		if n, ok := ev.(session.Notice); ok {
			out = append(out, n.Text)
		}
	}
	return out
}

// replace writes content as an editor saves: beside the file, renamed over it.
func (f *watchFixture) replace(content string) {
	f.t.Helper()
	tmp := f.file + ".tmp"
	if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
	if err := os.Rename(tmp, f.file); err != nil {
		f.t.Fatal(err)
	}
}

const oneCheck = "[[stop.checks]]\nname = \"ok\"\ncommand = \"true\"\n"

// An editor's save (a new file renamed over the old) is seen by the watch, read once quiet,
// and told: not trusted, the old checks run on; and a front end is asked.
func TestConfigWatchSeesARenameReplace(t *testing.T) {
	f := newWatchFixture(t, oneCheck)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() { f.w.run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	// The watch is set up once the first event of ours reaches it: write until one does.
	deadline := time.Now().Add(10 * time.Second)
	for n := 0; ; n++ {
		f.replace(oneCheck + strings.Repeat("\n", n+1) + "[[stop.checks]]\nname = \"lint\"\ncommand = \"false\"\n")
		waitUntil := time.Now().Add(500 * time.Millisecond)
		for time.Now().Before(waitUntil) && len(f.notices()) == 0 {
			time.Sleep(5 * time.Millisecond)
		}
		if len(f.notices()) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the watch never told of the new content")
		}
	}
	if n := f.notices(); !strings.Contains(n[0], "not trusted") || !strings.Contains(n[0], "(ok)") {
		t.Fatalf("notice %q", n[0])
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.switched) != 0 {
		t.Fatal("an untrusted content was switched to")
	}
	asked := false
	for _, ev := range f.events {
		if a, ok := ev.(session.ConfigTrustAsked); ok && a.Path == f.file && strings.Contains(a.Name, ".hooksup.toml") {
			asked = true
		}
	}
	if !asked {
		t.Fatalf("no front end was asked: %+v", f.events)
	}
}

// A burst of events is read once, when it is over: the timer each event pushes back fires once.
func TestConfigWatchDebouncesABurst(t *testing.T) {
	f := newWatchFixture(t, oneCheck)
	events := make(chan fsnotify.Event)
	fire := make(chan time.Time)
	armed := 0
	after := func(time.Duration) <-chan time.Time { armed++; return fire }
	checks := make(chan struct{}, 10)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go f.w.loop(ctx, events, nil, after, func() { checks <- struct{}{} })
	for range 5 {
		events <- fsnotify.Event{Name: f.file, Op: fsnotify.Write}
		events <- fsnotify.Event{Name: filepath.Join(f.dir, "main.go"), Op: fsnotify.Write} // not followed
	}
	fire <- time.Now()
	<-checks
	if armed != 5 {
		t.Fatalf("the timer was armed %d times, want 5 (once per event of a followed file)", armed)
	}
	select {
	case <-checks:
		t.Fatal("a burst was read more than once")
	default:
	}
}

// A content trusted from another shell is switched to, once; a broken one is told once, naming
// its line; a removed file keeps its checks, and says so.
func TestConfigWatchTrustedBrokenRemoved(t *testing.T) {
	f := newWatchFixture(t, oneCheck)
	next := oneCheck + "[[stop.checks]]\nname = \"lint\"\ncommand = \"false\"\n"
	f.replace(next)
	f.w.check()
	if err := f.w.o.Trust.Trust(f.file); err != nil {
		t.Fatal(err)
	}
	f.w.check()
	f.w.check()
	if len(f.switched) != 1 || len(f.switched[0].Stop.Checks) != 2 {
		t.Fatalf("switched %+v", f.switched)
	}
	f.replace(next + "bogus = 1\n")
	f.w.check()
	f.w.check()
	os.Remove(f.file)
	f.w.check()
	n := f.notices()
	if len(n) != 4 {
		t.Fatalf("notices %q", n)
	}
	if !strings.Contains(n[1], "runs the checks ok, lint") {
		t.Errorf("switch %q", n[1])
	}
	if !strings.Contains(n[2], ".hooksup.toml:7") || !strings.Contains(n[2], "bogus") || !strings.Contains(n[2], "(ok, lint)") {
		t.Errorf("broken %q", n[2])
	}
	if !strings.Contains(n[3], "was removed") || !strings.Contains(n[3], "(ok, lint) until it ends") {
		t.Errorf("removed %q", n[3])
	}
	if len(f.switched) != 1 {
		t.Errorf("switched %d times", len(f.switched))
	}
}

// A trusted edit is told twice: when it is seen (a notice: from the next stop), and when it
// takes effect at that stop (ConfigApplied, with the mode and the checks the front ends show
// from then on), never before.
func TestConfigWatchSaysWhenTheSwitchTakesEffect(t *testing.T) {
	f := newWatchFixture(t, oneCheck)
	f.replace("mode = \"observe\"\n" + oneCheck + "[[stop.checks]]\nname = \"lint\"\ncommand = \"go vet ./...\"\n" +
		"[[subagent_stop.checks]]\nname = \"review\"\ncommand = \"true\"\n")
	if err := f.w.o.Trust.Trust(f.file); err != nil {
		t.Fatal(err)
	}
	f.w.check()
	applied := func() []session.ConfigApplied {
		f.mu.Lock()
		defer f.mu.Unlock()
		var out []session.ConfigApplied
		for _, ev := range f.events {
			if a, ok := ev.(session.ConfigApplied); ok {
				out = append(out, a)
			}
		}
		return out
	}
	if a := applied(); len(a) != 0 {
		t.Fatalf("told as applied before any stop: %+v", a)
	}
	if len(f.applied) != 1 || f.applied[0] == nil {
		t.Fatalf("switches %d, applied %v", len(f.switched), f.applied)
	}
	f.applied[0]() // the engine, at the next stop
	a := applied()
	if len(a) != 1 {
		t.Fatalf("applied told %d times", len(a))
	}
	want := session.ConfigApplied{At: a[0].At, Mode: "observe",
		Checks:         []session.ConfiguredCheck{{Name: "ok", Command: "true"}, {Name: "lint", Command: "go vet ./..."}},
		SubagentChecks: []session.ConfiguredCheck{{Name: "review", Command: "true"}},
		Files:          []string{".hooksup.toml"}}
	if a[0].Time.IsZero() || !reflect.DeepEqual(a[0], want) {
		t.Errorf("applied %+v, want %+v", a[0], want)
	}
}

// A stop reads the files only when one's stamp changed since they were last read: a file edited
// (and trusted) is seen at the next stop without the watch; one whose stamp is as it was, long
// enough after its last write for the stamp to tell, is not read again.
func TestConfigWatchAtAStopReadsOnlyWhatChanged(t *testing.T) {
	f := newWatchFixture(t, oneCheck)
	old := time.Now().Add(-time.Hour)
	age := func() {
		for _, p := range []string{f.file, f.w.o.Trust.Path} {
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	age()
	f.w.atStop() // the first stop reads them: nothing changed, nothing said
	if n := f.notices(); len(n) != 0 {
		t.Fatalf("notices %q", n)
	}
	// The same size, written back with the same time: a stop takes the file for the one it read.
	swapped := strings.Replace(oneCheck, "true", "echo", 1)[:len(oneCheck)]
	if err := os.WriteFile(f.file, []byte(swapped), 0o644); err != nil {
		t.Fatal(err)
	}
	age()
	f.w.atStop()
	if n := f.notices(); len(n) != 0 {
		t.Fatalf("a stop read a file whose stamp had not changed: %q", n)
	}
	// An editor's save changes the stamp: the next stop reads it, without the watch.
	f.replace(oneCheck + "[[stop.checks]]\nname = \"lint\"\ncommand = \"false\"\n")
	if err := f.w.o.Trust.Trust(f.file); err != nil {
		t.Fatal(err)
	}
	f.w.atStop()
	if len(f.switched) != 1 || len(f.switched[0].Stop.Checks) != 2 {
		t.Fatalf("switched %+v, notices %q", f.switched, f.notices())
	}
}
