package transcript

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/session"
)

func waitReady(t *testing.T, w *Watcher) {
	t.Helper()
	select {
	case <-w.ready:
	case <-time.After(30 * time.Second):
		t.Fatal("watcher never became ready")
	}
}

func prompts(us []Update) []string {
	var out []string
	for _, u := range us {
		if u.Record.Kind == KindPrompt {
			out = append(out, u.Record.Text)
		}
	}
	return out
}

func hasPrompt(text string) func([]Update) bool {
	return func(us []Update) bool {
		for _, p := range prompts(us) {
			if p == text {
				return true
			}
		}
		return false
	}
}

// TestWatcherFileAppearsLater follows a transcript whose file and directories do not exist yet,
// as when SessionStart names a path claude has not written.
func TestWatcherFileAppearsLater(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "projects", "-home-dev-proj", "4312ba3d.jsonl")
	w, c := startWatcher(t, path, Options{})
	waitReady(t, w)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	appendFile(t, path, promptLine("first")+"\n")
	c.waitFor(t, "the first prompt", hasPrompt("first"))
	appendFile(t, path, promptLine("second")+"\n")
	c.waitFor(t, "the second prompt", hasPrompt("second"))
	s := w.Snapshot()
	want(t, s.SessionID, "4312ba3d")
	want(t, s.Path, path)
	want(t, s.Main.Turns, 2)
}

// TestWatcherPartialLines writes lines byte by byte, syncing each byte: each line is delivered
// once, whole.
func TestWatcherPartialLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	appendFile(t, path, "")
	w, c := startWatcher(t, path, Options{})
	waitReady(t, w)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	data := promptLine("byte by byte") + "\n" + assistantLine("m1", "r1", "claude-opus-5-5", "done — ✓", 10, 2) + "\n"
	for i := range len(data) {
		if _, err := f.Write([]byte{data[i]}); err != nil {
			t.Fatal(err)
		}
		if err := f.Sync(); err != nil {
			t.Fatal(err)
		}
	}
	us := c.waitFor(t, "the assistant line", func(us []Update) bool { return count(us, KindAssistant) > 0 })
	want(t, len(us), 2)
	want(t, us[0].Record.Text, "byte by byte")
	want(t, us[1].Record.Text, "done — ✓")
	s := w.Snapshot()
	want(t, s.Main.Lines, 2)
	want(t, s.Main.Malformed, 0)
	want(t, s.Main.Usage, session.Usage{InputTokens: 10, OutputTokens: 2})
}

func TestWatcherTruncation(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	appendFile(t, path, promptLine("a")+"\n"+promptLine("b")+"\n"+promptLine("c")+"\n")
	w, c := startWatcher(t, path, Options{})
	c.waitFor(t, "three prompts", func(us []Update) bool { return count(us, KindPrompt) == 3 })
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	appendFile(t, path, promptLine("after")+"\n")
	us := c.waitFor(t, "the prompt after the truncation", hasPrompt("after"))
	want(t, count(us, KindReset), 1)
	want(t, w.Snapshot().Main.Turns, 1)
	want(t, w.Snapshot().Main.Lines, 1)
}

func TestWatcherReplacement(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	appendFile(t, path, promptLine("old 1")+"\n"+promptLine("old 2")+"\n"+assistantLine("m0", "r0", "x", "", 500, 5)+"\n")
	w, c := startWatcher(t, path, Options{})
	c.waitFor(t, "the old file", func(us []Update) bool { return count(us, KindAssistant) == 1 })
	tmp := filepath.Join(dir, "s.jsonl.tmp")
	appendFile(t, tmp, promptLine("new")+"\n"+assistantLine("m1", "r1", "x", "", 7, 1)+"\n")
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	us := c.waitFor(t, "the new file", func(us []Update) bool { return count(us, KindAssistant) == 2 })
	want(t, count(us, KindReset), 1)
	s := w.Snapshot()
	want(t, s.Main.Turns, 1)
	want(t, s.Main.Usage, session.Usage{InputTokens: 7, OutputTokens: 1})
	appendFile(t, path, promptLine("appended to the new file")+"\n")
	c.waitFor(t, "an append to the new file", hasPrompt("appended to the new file"))
}

// TestWatcherSubagents follows subagent transcripts as they appear, with their .meta.json.
func TestWatcherSubagents(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "4312ba3d.jsonl")
	appendFile(t, path, assistantLine("m1", "r1", "claude-opus-5-5", "main", 100, 10)+"\n")
	w, c := startWatcher(t, path, Options{})
	waitReady(t, w)
	sub := SubagentDir(path)
	want(t, sub, filepath.Join(dir, "4312ba3d", "subagents"))
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	var lines strings.Builder
	for _, l := range sampleLines(t, "subagent-transcript-line-examples.jsonl") {
		lines.Write(l)
		lines.WriteByte('\n')
	}
	appendFile(t, filepath.Join(sub, "agent-a3323485d7cf4d430.jsonl"), lines.String())
	meta, err := os.ReadFile(filepath.Join("testdata", "subagent-meta-example.json"))
	if err != nil {
		t.Fatal(err)
	}
	appendFile(t, filepath.Join(sub, "agent-a3323485d7cf4d430.meta.json"), string(meta))
	us := c.waitFor(t, "the subagent's lines and meta", func(us []Update) bool {
		typed, hook := false, false
		for _, u := range us {
			typed = typed || (u.Record.Kind == KindSubagent && u.Source.AgentType == "general-purpose" && u.Record.Text == "Say hi")
			hook = hook || (u.Record.Kind == KindHook && u.Source.AgentID == "a3323485d7cf4d430")
		}
		return typed && hook
	})
	for _, u := range us {
		if u.Record.Kind == KindAssistant && u.Source.AgentID == "a3323485d7cf4d430" {
			want(t, u.Source.AgentType, "general-purpose")
		}
	}
	// A second subagent without a meta file: its type comes from attributionAgent.
	appendFile(t, filepath.Join(sub, "agent-b2.jsonl"),
		`{"isSidechain":true,"agentId":"b2","message":{"id":"m9","model":"claude-haiku-5-5","content":[{"type":"text","text":"explored"}],"usage":{"input_tokens":5,"output_tokens":1}},"requestId":"r9","attributionAgent":"Explore","type":"assistant"}`+"\n")
	c.waitFor(t, "the second subagent", func(us []Update) bool {
		for _, u := range us {
			if u.Source.AgentID == "b2" && u.Record.Kind == KindAssistant {
				return true
			}
		}
		return false
	})
	s := w.Snapshot()
	want(t, len(s.Agents), 2)
	a := s.Agents[0]
	want(t, a.ID, "a3323485d7cf4d430")
	want(t, a.Type, "general-purpose")
	want(t, a.Description, "Say hi")
	want(t, a.Finished, true)
	want(t, a.Stats.Usage, session.Usage{InputTokens: 8250, OutputTokens: 12})
	want(t, s.Agents[1].Type, "Explore")
	want(t, s.Main.Usage, session.Usage{InputTokens: 100, OutputTokens: 10})
	want(t, s.Usage, session.Usage{InputTokens: 100 + 8250 + 5, OutputTokens: 10 + 12 + 1})
	want(t, s.ByModel["claude-opus-5-5"], session.Usage{InputTokens: 8350, OutputTokens: 22})
	hooks := s.Hooks()
	want(t, len(hooks), 1)
	want(t, hooks[0].Event, "SubagentStop")
}

// TestWatcherSubagentsBeforeStart finds subagent files that exist when the watcher starts.
func TestWatcherSubagentsBeforeStart(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	sub := SubagentDir(path)
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	appendFile(t, filepath.Join(sub, "agent-x.jsonl"), promptLine("sub prompt")+"\n")
	appendFile(t, filepath.Join(sub, "notes.txt"), "not a transcript\n")
	w, c := startWatcher(t, path, Options{})
	c.waitFor(t, "the subagent's prompt", hasPrompt("sub prompt"))
	want(t, len(w.Snapshot().Agents), 1)
}

func TestWatcherSwitch(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	appendFile(t, a, promptLine("in a")+"\n")
	w, c := startWatcher(t, a, Options{})
	c.waitFor(t, "a's prompt", hasPrompt("in a"))
	w.Switch(b) // after /clear: a new session file, not written yet
	c.waitFor(t, "the switch", func(us []Update) bool { return count(us, KindSession) == 1 })
	appendFile(t, b, promptLine("in b")+"\n")
	c.waitFor(t, "b's prompt", hasPrompt("in b"))
	appendFile(t, a, promptLine("late in a")+"\n")
	appendFile(t, b, promptLine("b again")+"\n")
	us := c.waitFor(t, "b's second prompt", hasPrompt("b again"))
	want(t, strings.Join(prompts(us), "|"), "in a|in b|b again")
	s := w.Snapshot()
	want(t, s.SessionID, "b")
	want(t, s.Main.Turns, 2)
}

// TestWatcherIdleDoesNoWork checks that a caught-up watcher sleeps: no wake-ups without writes.
func TestWatcherIdleDoesNoWork(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	w, c := startWatcher(t, path, Options{})
	waitReady(t, w)
	appendFile(t, path, promptLine("one")+"\n")
	c.waitFor(t, "the prompt", hasPrompt("one"))
	// Let the events of that write (create, write) all arrive, then watch an idle period.
	before := w.wakeups.Load()
	for settled := 0; settled < 2; {
		time.Sleep(50 * time.Millisecond)
		if n := w.wakeups.Load(); n != before {
			before, settled = n, 0
		} else {
			settled++
		}
	}
	time.Sleep(300 * time.Millisecond)
	want(t, w.wakeups.Load(), before)
	appendFile(t, path, promptLine("two")+"\n")
	c.waitFor(t, "the second prompt", hasPrompt("two"))
	if w.wakeups.Load() == before {
		t.Error("a write did not wake the watcher")
	}
}

func TestWatcherRunTwice(t *testing.T) {
	w, _ := startWatcher(t, filepath.Join(t.TempDir(), "s.jsonl"), Options{})
	waitReady(t, w)
	if err := w.Run(context.Background()); !errors.Is(err, ErrAlreadyRun) {
		t.Fatalf("second Run = %v, want ErrAlreadyRun", err)
	}
}

// TestWatcherStopsCleanly stops watchers in every state, including one blocked on a consumer
// that stopped reading, and checks that no goroutine is left behind.
func TestWatcherStopsCleanly(t *testing.T) {
	before := runtime.NumGoroutine()
	for _, reader := range []bool{true, false} {
		dir := t.TempDir()
		path := filepath.Join(dir, "s.jsonl")
		var data strings.Builder
		for i := range 50 {
			data.WriteString(promptLine("p"+string(rune('a'+i%26))) + "\n")
		}
		appendFile(t, path, data.String())
		if err := os.MkdirAll(SubagentDir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		appendFile(t, filepath.Join(SubagentDir(path), "agent-z.jsonl"), data.String())
		w := NewWatcher(path, Options{UpdateBuffer: 1})
		ctx, cancel := context.WithCancel(context.Background())
		errc := make(chan error, 1)
		go func() { errc <- w.Run(ctx) }()
		drained := make(chan struct{})
		if reader {
			go func() {
				for range w.Updates() {
				}
				close(drained)
			}()
			waitReady(t, w)
		} else {
			<-w.Updates() // Run is now blocked sending the next update
		}
		cancel()
		select {
		case err := <-errc:
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("Run did not return after cancel")
		}
		if reader {
			<-drained
		} else {
			for range w.Updates() { // closed by Run
			}
		}
	}
	deadline := time.Now().Add(30 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<20)
		t.Fatalf("%d goroutines left behind:\n%s", n-before, buf[:runtime.Stack(buf, true)])
	}
}

// watchList is what the watcher's fsWatcher watches (nil before Run).
func watchList(w *Watcher) []string {
	w.mu.Lock()
	fsw := w.fsw
	w.mu.Unlock()
	if fsw == nil {
		return nil
	}
	return fsw.WatchList()
}

// openFDs is how many descriptors the process has open.
func openFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/dev/fd")
	if err != nil {
		t.Skip("no /dev/fd")
	}
	return len(ents)
}

func metaJSON(finished bool) string {
	return fmt.Sprintf(`{"agentType":"Explore","description":"look around","finished":%v}`, finished)
}

// A session with hundreds of subagents, each written and finished: the files watched and the
// descriptors open stay bounded (kqueue spends one per watched file, and the default limit is
// 256), and appends to the session's transcript and new subagents are still seen.
func TestWatcherManySubagentsBounded(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	appendFile(t, path, promptLine("start")+"\n")
	sub := SubagentDir(path)
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	fdsBefore := openFDs(t)
	w, c := startWatcher(t, path, Options{})
	c.waitFor(t, "the first prompt", hasPrompt("start"))
	const n = 300
	// The three directories, the session's transcript, and each live subagent's transcript and
	// .meta.json; descriptors: the watcher's own few and each live subagent's transcript open.
	maxWatched, maxFDs := 3+1+2*maxLiveAgents, 8+1+maxLiveAgents
	var topWatched, topFDs int
	sample := func() {
		topWatched = max(topWatched, len(watchList(w)))
		topFDs = max(topFDs, openFDs(t)-fdsBefore)
	}
	subPrompts := func(us []Update) int {
		k := 0
		for _, p := range prompts(us) {
			if strings.HasPrefix(p, "sub ") {
				k++
			}
		}
		return k
	}
	for i := range n {
		id := fmt.Sprintf("a%03d", i)
		appendFile(t, filepath.Join(sub, "agent-"+id+".jsonl"), promptLine("sub "+id)+"\n")
		appendFile(t, filepath.Join(sub, "agent-"+id+".meta.json"), metaJSON(true))
		sample()
		if i%25 == 24 {
			c.waitFor(t, "the subagents so far", func(us []Update) bool { return subPrompts(us) == i+1 })
			sample()
		}
	}
	sample()
	t.Logf("%d subagents: at most %d paths watched (bound %d), %d descriptors opened (bound %d)", n, topWatched, maxWatched, topFDs, maxFDs)
	if topWatched > maxWatched {
		t.Errorf("%d paths watched at once, want at most %d: %v", topWatched, maxWatched, watchList(w))
	}
	if topFDs > maxFDs {
		t.Errorf("%d descriptors opened, want at most %d", topFDs, maxFDs)
	}
	appendFile(t, path, promptLine("main again")+"\n")
	c.waitFor(t, "the session's next prompt", hasPrompt("main again"))
	appendFile(t, filepath.Join(sub, "agent-late.jsonl"), promptLine("sub late")+"\n")
	c.waitFor(t, "a new subagent's prompt", hasPrompt("sub late"))
	appendFile(t, filepath.Join(sub, "agent-late.jsonl"), promptLine("sub late again")+"\n")
	c.waitFor(t, "the new subagent's next prompt", hasPrompt("sub late again"))
	s := w.Snapshot()
	want(t, len(s.Agents), n+1)
	want(t, s.Agents[0].Finished, true)
	want(t, s.Agents[0].Stats.Turns, 1)
}

// A finished subagent's transcript is let go once quiet; what is appended to it later (a
// subagent steered on after it finished) is read when a hook names the agent (Wake), at a stop
// (Wake("")), and when the subagents directory changes.
func TestWatcherParkedSubagentWritten(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	appendFile(t, path, promptLine("start")+"\n")
	sub := SubagentDir(path)
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	agent := filepath.Join(sub, "agent-x1.jsonl")
	appendFile(t, agent, promptLine("sub first")+"\n")
	appendFile(t, filepath.Join(sub, "agent-x1.meta.json"), metaJSON(true))
	w, c := startWatcher(t, path, Options{})
	c.waitFor(t, "the subagent's prompt", hasPrompt("sub first"))
	parked := func() {
		t.Helper()
		for deadline := time.Now().Add(30 * time.Second); w.parks.Load() == 0 || slices.Contains(watchList(w), agent); time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("the finished subagent was never let go: %d parks, watching %v", w.parks.Load(), watchList(w))
			}
		}
	}
	parked()
	appendFile(t, agent, promptLine("sub steered")+"\n")
	w.Wake("x1")
	c.waitFor(t, "the line after Wake", hasPrompt("sub steered"))
	parked()
	appendFile(t, agent, promptLine("sub at stop")+"\n")
	w.Wake("")
	c.waitFor(t, "the line after Wake at a stop", hasPrompt("sub at stop"))
	parked()
	appendFile(t, agent, promptLine("sub before another")+"\n")
	appendFile(t, filepath.Join(sub, "agent-y2.jsonl"), promptLine("sub another")+"\n")
	c.waitFor(t, "the line when another subagent starts", hasPrompt("sub before another"))
	want(t, w.Snapshot().Agents[0].Stats.Turns, 4)
}
