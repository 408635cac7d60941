package transcript

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/transcript/internal/gen"
)

// bigTranscript writes a synthetic transcript of about size bytes once per test run.
func bigTranscript(t *testing.T, size int64) (string, gen.Totals) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "projects", "-proj", "11111111-2222-4333-8444-555555555555.jsonl")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	tot, err := gen.Write(f, gen.Config{Size: size, Seed: 42})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	return path, tot
}

// heapSampler records the largest HeapAlloc seen while it runs.
type heapSampler struct {
	stop chan struct{}
	done chan struct{}
	mu   sync.Mutex
	peak uint64
}

func sampleHeap(every time.Duration) *heapSampler {
	h := &heapSampler{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(h.done)
		var ms runtime.MemStats
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&ms)
			h.mu.Lock()
			h.peak = max(h.peak, ms.HeapAlloc)
			h.mu.Unlock()
			select {
			case <-h.stop:
				return
			case <-tick.C:
			}
		}
	}()
	return h
}

func (h *heapSampler) finish() uint64 {
	close(h.stop)
	<-h.done
	return h.peak
}

func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// Test100MB writes a 100 MB synthetic transcript once and reads it through the watcher (as a
// resumed long session would be read) and through a bare parser. Both must find the generator's
// totals, and memory must stay bounded: the heap never holds the file (peak and retained heap
// < 64 MB; measured: about 4 MB and 2 MB). The parser run is skipped under the race detector,
// where the watcher run covers the same parsing path.
func Test100MB(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	path, tot := bigTranscript(t, 100<<20)
	t.Run("watcher", func(t *testing.T) { watch100MB(t, path, tot) })
	t.Run("parser", func(t *testing.T) {
		if raceEnabled {
			t.Skip("-race: the watcher run covers the same path")
		}
		parse100MB(t, path, tot)
	})
}

func watch100MB(t *testing.T, path string, tot gen.Totals) {
	base := liveHeap()
	h := sampleHeap(5 * time.Millisecond)
	w := NewWatcher(path, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errc := make(chan error, 1)
	go func() { errc <- w.Run(ctx) }()
	turnsEnded := make(chan int64, 1)
	go func() { // a consumer that keeps nothing, like a throttling supervisor
		var n int64
		for u := range w.Updates() {
			if u.Record.Kind == KindTurnDuration {
				n++
			}
		}
		turnsEnded <- n
	}()
	waitReady(t, w) // Run has read the whole file before it reports ready
	peak := h.finish()
	s := w.Snapshot()
	after := liveHeap() - min(base, liveHeap())
	t.Logf("%d MB file, %d lines: peak heap %.1f MB (%.1f MB before), live heap held by the watcher %.1f MB",
		tot.Bytes>>20, tot.Lines, float64(peak)/(1<<20), float64(base)/(1<<20), float64(after)/(1<<20))
	want(t, s.Main.Lines, tot.Lines)
	want(t, s.Main.Bytes, tot.Bytes)
	want(t, s.Main.Malformed, 0)
	want(t, s.Main.Usage, session.Usage{InputTokens: tot.Tokens.Input, OutputTokens: tot.Tokens.Output,
		CacheCreationTokens: tot.Tokens.CacheCreation, CacheReadTokens: tot.Tokens.CacheRead})
	want(t, s.Main.Messages, tot.Messages)
	want(t, s.Main.Turns, tot.Turns)
	want(t, s.Main.TurnsEnded, tot.TurnsEnded)
	want(t, s.Main.TurnTime, tot.TurnTime)
	want(t, s.Main.APIErrors, tot.APIErrors)
	want(t, s.Main.Compactions, tot.Compactions)
	want(t, s.Main.LastText, tot.LastText)
	want(t, s.Main.Title, tot.Title)
	want(t, len(s.Main.ByModel), len(tot.ByModel))
	for name, n := range tot.ToolCalls {
		want(t, s.Main.ToolCalls[name], n)
	}
	want(t, s.Main.HookCounts[hooks.OutcomeSuccess], tot.StopHooks) // attachment and summary merged
	const bound = 64 << 20
	if peak > bound {
		t.Errorf("peak heap %d MB, want < 64 MB", peak>>20)
	}
	if after > bound {
		t.Errorf("live heap held after reading %d MB, want < 64 MB", after>>20)
	}
	cancel()
	if err := <-errc; err != nil {
		t.Fatalf("Run: %v", err)
	}
	want(t, <-turnsEnded, tot.TurnsEnded) // every turn end was delivered
	runtime.KeepAlive(w)
}

func parse100MB(t *testing.T, path string, tot gen.Totals) {
	base := liveHeap()
	h := sampleHeap(5 * time.Millisecond)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p := NewParser(Options{})
	if _, err := p.ReadFrom(f); err != nil {
		t.Fatal(err)
	}
	peak := h.finish()
	held := liveHeap() - min(base, liveHeap())
	runtime.KeepAlive(p)
	t.Logf("peak heap %.1f MB, held %.1f MB", float64(peak)/(1<<20), float64(held)/(1<<20))
	want(t, p.Stats().Usage.OutputTokens, tot.Tokens.Output)
	want(t, p.Stats().Lines, tot.Lines)
	if peak > 64<<20 || held > 64<<20 {
		t.Errorf("peak %d MB, held %d MB; want both < 64 MB", peak>>20, held>>20)
	}
}
