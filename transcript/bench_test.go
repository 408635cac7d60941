package transcript

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/hooksup/hooksup/transcript/internal/gen"
)

// benchData returns the transcript BenchmarkParse parses: the file named by
// TRANSCRIPT_BENCH_FILE (bench.sh sets it), else a 32 MB synthetic one.
func benchData(b *testing.B) []byte {
	b.Helper()
	if name := os.Getenv("TRANSCRIPT_BENCH_FILE"); name != "" {
		data, err := os.ReadFile(name)
		if err != nil {
			b.Fatal(err)
		}
		return data
	}
	var buf bytes.Buffer
	if _, err := gen.Write(&buf, gen.Config{Size: 32 << 20, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkParse measures parsing throughput (MB/s) of a whole transcript held in memory.
func BenchmarkParse(b *testing.B) {
	data := benchData(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		p := NewParser(Options{})
		if _, err := p.ReadFrom(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
		if p.Stats().Malformed != 0 {
			b.Fatal("malformed lines")
		}
	}
}

// refLine is what a plain encoding/json parser of the same lines would decode; it is here only
// to show what the scanner saves (BenchmarkParseEncodingJSON).
type refLine struct {
	Type      string `json:"type"`
	Subtype   string `json:"subtype"`
	RequestID string `json:"requestId"`
	Message   *struct {
		ID      string          `json:"id"`
		Model   string          `json:"model"`
		Content json.RawMessage `json:"content"`
		Usage   *struct {
			Input         int64 `json:"input_tokens"`
			Output        int64 `json:"output_tokens"`
			CacheCreation int64 `json:"cache_creation_input_tokens"`
			CacheRead     int64 `json:"cache_read_input_tokens"`
		} `json:"usage"`
	} `json:"message"`
	Attachment json.RawMessage `json:"attachment"`
	DurationMs int64           `json:"durationMs"`
}

// BenchmarkParseEncodingJSON decodes every line with encoding/json into a small struct with
// json.RawMessage for the parts it does not need, for comparison with BenchmarkParse.
func BenchmarkParseEncodingJSON(b *testing.B) {
	data := benchData(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		var out int64
		for line := range bytes.Lines(data) {
			var l refLine
			if err := json.Unmarshal(line, &l); err != nil {
				b.Fatal(err)
			}
			if l.Message != nil && l.Message.Usage != nil {
				out += l.Message.Usage.Output
			}
		}
		if out == 0 {
			b.Fatal("no usage")
		}
	}
}

// appendLatencies appends n assistant lines to a followed transcript, one at a time, and
// returns for each the time from the write to the watcher's update for it.
func appendLatencies(tb testing.TB, n int) []time.Duration {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "s.jsonl")
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	w := NewWatcher(path, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- w.Run(ctx) }()
	defer func() {
		cancel()
		for range w.Updates() {
		}
		if err := <-errc; err != nil {
			tb.Error(err)
		}
	}()
	<-w.ready
	lines := make([][]byte, n)
	for i := range lines {
		lines[i] = []byte(assistantLine(fmt.Sprintf("msg_%d", i), fmt.Sprintf("req_%d", i), "claude-opus-5-5", fmt.Sprintf("ping %d", i), 100, 10) + "\n")
	}
	lat := make([]time.Duration, n)
	for i, line := range lines {
		start := time.Now()
		if _, err := f.Write(line); err != nil {
			tb.Fatal(err)
		}
		for u := range w.Updates() {
			if u.Record.Kind != KindAssistant {
				continue
			}
			if want := fmt.Sprintf("ping %d", i); u.Record.Text != want {
				tb.Fatalf("update %q, want %q", u.Record.Text, want)
			}
			break
		}
		lat[i] = time.Since(start)
	}
	return lat
}

// percentile returns the p-th percentile (0-100) of sorted durations.
func percentile(sorted []time.Duration, p float64) time.Duration {
	return sorted[min(len(sorted)-1, int(float64(len(sorted))*p/100))]
}

// BenchmarkTailLatency reports the time from appending a line to receiving its update, p50 and
// p99 over at least 1000 appends (go test -bench TailLatency -benchtime 1000x).
func BenchmarkTailLatency(b *testing.B) {
	lat := appendLatencies(b, max(b.N, 1000))
	slices.Sort(lat)
	var sum time.Duration
	for _, d := range lat {
		sum += d
	}
	b.ReportMetric(float64(sum.Nanoseconds())/float64(len(lat)), "ns/op")
	b.ReportMetric(float64(percentile(lat, 50).Nanoseconds())/1e3, "p50-µs")
	b.ReportMetric(float64(percentile(lat, 99).Nanoseconds())/1e3, "p99-µs")
	b.ReportMetric(float64(len(lat)), "appends")
}

// TestAppendLatencies runs the latency helper briefly: every append is delivered, in order.
func TestAppendLatencies(t *testing.T) {
	lat := appendLatencies(t, 50)
	want(t, len(lat), 50)
}
