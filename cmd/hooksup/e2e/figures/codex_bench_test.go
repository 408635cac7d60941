package figures

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hooksup/hooksup/agent/claude"
	"github.com/hooksup/hooksup/agent/codex"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/supervisor"
)

// codexStopInput is the Stop hook input Codex 0.169.0 sent in an offline run.
const codexStopInput = `{"session_id":"01a208dc-8f9c-7193-8458-9d4435e9e247","turn_id":"01a208dc-8fb1-7f62-8c84-a998deb21385","transcript_path":"/home/dev/.codex/sessions/2026/11/23/rollout-2026-11-23T14-43-22-01a208dc-8f9c-7193-8458-9d4435e9e247.jsonl","cwd":"/home/dev/proj","hook_event_name":"Stop","model":"gpt-5.5","permission_mode":"bypassPermissions","stop_hook_active":false,"last_assistant_message":"First final answer."}`

// BenchmarkCodexHookRoundTrip times one Stop hook call from exec to exit, the supervisor
// answering allow through each agent's codec, with the input each agent sends: Codex's beside
// claude's, and a bare Go client making the same call. Run with -benchtime 500x.
func BenchmarkCodexHookRoundTrip(b *testing.B) {
	dir, err := os.MkdirTemp("", "hc")
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(dir)
	bare := e2e.BuildBareClient(b, dir)
	type server struct {
		name string
		env  []string
	}
	var servers []server
	for _, a := range []agent.Agent{claude.Agent{}, codex.Agent{}} {
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
	variants := []e2e.HookRun{
		{Name: "claude: hooksup-hook Stop", Argv: []string{e2e.HookClientBin, "Stop"}, Env: servers[0].env, Input: []byte(e2e.ClaudeStopInput), Allowed: true},
		{Name: "codex: hooksup-hook Stop", Argv: []string{e2e.HookClientBin, "Stop"}, Env: servers[1].env, Input: []byte(codexStopInput), Allowed: true},
		{Name: "codex: bare Go client", Argv: []string{bare}, Env: servers[1].env, Input: []byte(codexStopInput), Allowed: true},
	}
	samples := e2e.TimeRoundTrips(b, variants)
	fmt.Printf("\nStop hook round trip over %d runs each (exec to exit, allow)\n%-28s %10s %10s\n", b.N, "", "p50", "p99")
	for j, v := range variants {
		fmt.Printf("%-28s %10s %10s\n", v.Name, e2e.Pct(samples[j], 0.5).Round(time.Microsecond), e2e.Pct(samples[j], 0.99).Round(time.Microsecond))
	}
	b.ReportMetric(float64(e2e.Pct(samples[0], 0.5).Microseconds()), "claude-p50-µs")
	b.ReportMetric(float64(e2e.Pct(samples[1], 0.5).Microseconds()), "codex-p50-µs")
}
