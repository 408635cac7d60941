package supervisor

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/session"
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

// BenchmarkStopHops times, in this process, each hop of a Stop that runs no checks inside the
// supervisor (ARCHITECTURE.md, "How a Stop travels"): the input's parse and the agent's mapping,
// the supervisor's bookkeeping before the engine, the engine's decision and the reply's
// encoding, and the configuration files looked at by their stamps (atStop) against read
// (check). It reports each hop's p50.
func BenchmarkStopHops(b *testing.B) {
	ss := startStorm(b)
	defer ss.stop(b)
	path := filepath.Join(ss.dir, "transcript.jsonl")
	if err := os.WriteFile(path, assistantLine("First final answer.", time.Now()), 0o600); err != nil {
		b.Fatal(err)
	}
	proj := filepath.Join(ss.dir, ".hooksup.toml")
	content := []byte("mode = \"auto\"\n")
	if err := os.WriteFile(proj, content, 0o600); err != nil {
		b.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(proj, old, old)
	ss.sup.config = newConfigWatch(ConfigWatch{Files: []string{proj, filepath.Join(ss.dir, ".hooksup.local.toml")},
		InUse: map[string][]byte{proj: content}, Trust: config.TrustStore{Path: filepath.Join(ss.dir, "state", "trusted")},
		Load: func(map[string][]byte) (config.Config, error) { return config.Defaults(), nil }},
		ss.dir, config.Defaults(), slog.New(slog.DiscardHandler), func(session.Event) {}, func(config.Config, func()) {})
	payload := fmt.Appendf(nil, `{"session_id":"bench","transcript_path":%q,"cwd":%q,"hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"First final answer."}`,
		path, ss.dir)
	hops := map[string][]time.Duration{}
	timed := func(name string, f func()) {
		start := time.Now()
		f()
		hops[name] = append(hops[name], time.Since(start))
	}
	ctx := context.Background()
	b.ResetTimer()
	for range b.N {
		var in *hooks.Input
		timed("parse", func() {
			in, _ = hooks.ParseInput(payload)
			ss.sup.server.Adapt(in)
		})
		timed("decide", func() { ss.sup.decide(ctx, in) })
		timed("engine-stop", func() { ss.sup.engine.Stop(ctx, in) })
		timed("config-atstop", ss.sup.config.atStop)
		timed("config-check", ss.sup.config.check)
	}
	b.StopTimer()
	for name, d := range hops {
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		b.ReportMetric(float64(d[len(d)/2].Nanoseconds())/1000, name+"-p50-µs")
	}
}
