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

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/supervisor"
)

// codexStopInput is the Stop hook input Codex 0.169.0 sent in an offline run.
const codexStopInput = `{"session_id":"01a208dc-8f9c-7193-8458-9d4435e9e247","turn_id":"01a208dc-8fb1-7f62-8c84-a998deb21385","transcript_path":"/home/dev/.codex/sessions/2026/11/23/rollout-2026-11-23T14-43-22-01a208dc-8f9c-7193-8458-9d4435e9e247.jsonl","cwd":"/home/dev/proj","hook_event_name":"Stop","model":"gpt-5.5","permission_mode":"bypassPermissions","stop_hook_active":false,"last_assistant_message":"First final answer."}`

// claudeStopInput is the Stop hook input Claude Code 2.1.330 sends.
const claudeStopInput = `{"session_id":"4312ba3d-56cd-4b9f-8c76-66e8ea524739","transcript_path":"/home/dev/.claude/projects/-home-dev-proj/4312ba3d.jsonl","cwd":"/home/dev/proj","prompt_id":"8b633690","permission_mode":"default","effort":{"level":"medium"},"hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"First final answer.","background_tasks":[],"session_crons":[]}`

// BenchmarkCodexHookRoundTrip times one Stop hook call from exec to exit, the supervisor
// answering allow through each agent's codec, with the input each agent sends: Codex's beside
// claude's, and a bare Go client making the same call. Run with -benchtime 500x.
func BenchmarkCodexHookRoundTrip(b *testing.B) {
	dir, err := os.MkdirTemp("", "hc")
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(dir)
	bare := filepath.Join(dir, "bare")
	if out, err := goBuild(bare, "./testdata/bareclient").CombinedOutput(); err != nil {
		b.Fatalf("build bare client: %v\n%s", err, out)
	}
	type server struct {
		name string
		env  []string
	}
	var servers []server
	for _, a := range []agent.Agent{agent.Claude{}, agent.Codex{}} {
		srv, err := supervisor.Listen(filepath.Join(dir, a.Name()+".sock"), "tok", nil)
		if err != nil {
			b.Fatal(err)
		}
		srv.Adapt = a.Input
		srv.HandleDefault(func(context.Context, *hooks.Input) ([]byte, int) {
			return a.Answer(hooks.Answer{Decision: hooks.Allow})
		})
		go srv.Serve(context.Background())
		defer srv.Close()
		servers = append(servers, server{a.Name(), append(os.Environ(), hooks.EnvSocket+"="+srv.Path, hooks.EnvToken+"=tok", hooks.EnvLog+"="+filepath.Join(dir, "log"))})
	}
	variants := []struct {
		name  string
		argv  []string
		env   []string
		input string
	}{
		{"claude: hooksup-hook Stop", []string{hookClientBin, "Stop"}, servers[0].env, claudeStopInput},
		{"codex: hooksup-hook Stop", []string{hookClientBin, "Stop"}, servers[1].env, codexStopInput},
		{"codex: bare Go client", []string{bare}, servers[1].env, codexStopInput},
	}
	once := func(argv, env []string, input string) time.Duration {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = env
		cmd.Stdin = bytes.NewReader([]byte(input))
		var out bytes.Buffer
		cmd.Stdout = &out
		start := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatalf("%v: %v", argv, err)
		}
		d := time.Since(start)
		if out.Len() > 0 {
			b.Fatalf("%v did not allow: %s", argv, out.Bytes())
		}
		return d
	}
	for _, v := range variants {
		once(v.argv, v.env, v.input)
	}
	samples := make([][]time.Duration, len(variants))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, v := range variants {
			samples[j] = append(samples[j], once(v.argv, v.env, v.input))
		}
	}
	b.StopTimer()
	pct := func(s []time.Duration, p float64) time.Duration {
		s = slices.Clone(s)
		slices.Sort(s)
		return s[min(len(s)-1, int(float64(len(s))*p))]
	}
	fmt.Printf("\nStop hook round trip over %d runs each (exec to exit, allow)\n%-28s %10s %10s\n", b.N, "", "p50", "p99")
	for j, v := range variants {
		fmt.Printf("%-28s %10s %10s\n", v.name, pct(samples[j], 0.5).Round(time.Microsecond), pct(samples[j], 0.99).Round(time.Microsecond))
	}
	b.ReportMetric(float64(pct(samples[0], 0.5).Microseconds()), "claude-p50-µs")
	b.ReportMetric(float64(pct(samples[1], 0.5).Microseconds()), "codex-p50-µs")
}
