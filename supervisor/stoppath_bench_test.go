package supervisor

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/hooksup/hooksup/hooks"
)

// BenchmarkStopPath times the supervisor's part of a Stop that runs no checks: one call through
// the hook client in this process (no exec) to a whole session (engine, verdict log, transcript
// feed, configuration watch), the transcript holding the stop's message, beside the same call to
// a server that answers at once. Each b.N step runs both, interleaved; it prints the p50s and
// what the session adds. With -cpuprofile, the session's path is what is left of the profile
// once the bare server's is taken out.
func BenchmarkStopPath(b *testing.B) {
	ss := startStorm(b)
	defer ss.stop(b)
	dir, err := os.MkdirTemp("", "hs")
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(dir)
	bare, err := Listen(filepath.Join(dir, "s.sock"), "tok", nil)
	if err != nil {
		b.Fatal(err)
	}
	bare.HandleDefault(func(context.Context, *hooks.Input) ([]byte, int) { return nil, 0 })
	go bare.Serve(context.Background())
	defer bare.Close()
	bareEnv := map[string]string{hooks.EnvSocket: bare.Path, hooks.EnvToken: "tok", hooks.EnvLog: filepath.Join(dir, "log")}

	path := filepath.Join(ss.dir, "transcript.jsonl")
	if err := os.WriteFile(path, assistantLine("First final answer.", time.Now()), 0o600); err != nil {
		b.Fatal(err)
	}
	in := fmt.Appendf(nil, `{"session_id":"bench","transcript_path":%q,"cwd":%q,"hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"First final answer."}`,
		path, ss.dir)
	call := func(env map[string]string) time.Duration {
		var out bytes.Buffer
		start := time.Now()
		hooks.Client{Getenv: func(k string) string { return env[k] }}.Run(hooks.Stop, bytes.NewReader(in), &out, io.Discard)
		d := time.Since(start)
		if out.Len() > 0 {
			b.Fatalf("answer %q, want allow", out.Bytes())
		}
		return d
	}
	var session, floor []time.Duration
	b.ResetTimer()
	for range b.N {
		session = append(session, call(ss.env))
		floor = append(floor, call(bareEnv))
	}
	b.StopTimer()
	p50 := func(d []time.Duration) time.Duration {
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		return d[len(d)/2]
	}
	s, f := p50(session), p50(floor)
	b.ReportMetric(float64(s.Microseconds()), "session-p50-µs")
	b.ReportMetric(float64(f.Microseconds()), "bare-p50-µs")
	b.ReportMetric(float64((s - f).Microseconds()), "added-p50-µs")
}
