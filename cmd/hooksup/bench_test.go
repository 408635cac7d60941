package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/supervisor"
)

// BenchmarkHookRoundTrip times one Stop hook call from exec to exit, the supervisor answering
// allow with no checks, beside (a) a shell hook that only reads stdin and (b) a bare Go program
// that reads stdin and makes the same socket call: the floor for any Go hook client. Each b.N
// step runs all three, interleaved. Run with -benchtime=1000x; it prints p50/p99 and the ratio.
func BenchmarkHookRoundTrip(b *testing.B) {
	dir, err := os.MkdirTemp("", "hb")
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(dir)
	bare := filepath.Join(dir, "bare")
	if out, err := goBuild(bare, "./testdata/bareclient").CombinedOutput(); err != nil {
		b.Fatalf("build bare client: %v\n%s", err, out)
	}
	srv, err := supervisor.Listen(filepath.Join(dir, "s.sock"), "tok", nil)
	if err != nil {
		b.Fatal(err)
	}
	srv.HandleDefault(func(context.Context, *hooks.Input) ([]byte, int) { return nil, 0 })
	go srv.Serve(context.Background())
	defer srv.Close()

	input := []byte(`{"session_id":"4312ba3d-56cd-4b9f-8c76-66e8ea524739","transcript_path":"/home/dev/.claude/projects/-home-dev-proj/4312ba3d.jsonl","cwd":"/home/dev/proj","prompt_id":"8b633690","permission_mode":"default","effort":{"level":"medium"},"hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"First final answer.","background_tasks":[],"session_crons":[]}`)
	env := append(os.Environ(), hooks.EnvSocket+"="+srv.Path, hooks.EnvToken+"=tok", hooks.EnvLog+"="+filepath.Join(dir, "log"))
	variants := []struct {
		name string
		argv []string
	}{
		{"hooksup-hook Stop", []string{hookClientBin, "Stop"}},
		{"hooksup hook Stop", []string{hooksupBin, "hook", "Stop"}},
		{"bare Go client", []string{bare}},
		{"sh -c 'cat >/dev/null'", []string{"/bin/sh", "-c", "cat >/dev/null"}},
	}
	samples := make([][]time.Duration, len(variants))
	once := func(argv []string) time.Duration {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = env
		cmd.Stdin = bytes.NewReader(input)
		start := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatalf("%v: %v", argv, err)
		}
		return time.Since(start)
	}
	for _, v := range variants { // warm the page cache
		once(v.argv)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, v := range variants {
			samples[j] = append(samples[j], once(v.argv))
		}
	}
	b.StopTimer()
	pct := func(s []time.Duration, p float64) time.Duration {
		s = slices.Clone(s)
		slices.Sort(s)
		return s[min(len(s)-1, int(float64(len(s))*p))]
	}
	fmt.Printf("\nhook round trip over %d runs each (exec to exit, allow, no checks)\n", b.N)
	fmt.Printf("%-26s %10s %10s\n", "client", "p50", "p99")
	for j, v := range variants {
		fmt.Printf("%-26s %10s %10s\n", v.name, pct(samples[j], 0.5).Round(time.Microsecond), pct(samples[j], 0.99).Round(time.Microsecond))
	}
	r50 := float64(pct(samples[0], 0.5)) / float64(pct(samples[2], 0.5))
	r99 := float64(pct(samples[0], 0.99)) / float64(pct(samples[2], 0.99))
	fmt.Printf("injected client (hooksup-hook) / bare Go: p50 %.2fx, p99 %.2fx\n", r50, r99)
	fmt.Printf("hooksup hook (whole binary) / bare Go: p50 %.2fx\n", float64(pct(samples[1], 0.5))/float64(pct(samples[2], 0.5)))
	b.ReportMetric(float64(pct(samples[0], 0.5).Microseconds()), "client-p50-µs")
	b.ReportMetric(float64(pct(samples[2], 0.5).Microseconds()), "bare-p50-µs")
	b.ReportMetric(r50, "ratio-p50")
}
