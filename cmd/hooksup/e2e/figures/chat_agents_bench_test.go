package figures

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/agent/agents"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/supervisor"
)

// BenchmarkCopilotQwenHookRoundTrip times one stop hook call from exec to exit, the supervisor
// answering allow through each agent's input and codec, with the stop input each agent sent in
// an offline run (Copilot CLI's agentStop, whose last message the supervisor reads from the
// events log; Qwen Code's Stop): hooksup-hook beside a bare Go client making the same call, and
// claude's Stop for reference. Run with -benchtime 300x.
func BenchmarkCopilotQwenHookRoundTrip(b *testing.B) {
	dir, err := os.MkdirTemp("", "hq")
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(dir)
	bare := e2e.BuildBareClient(b, dir)
	inputs := map[string]string{}
	for name, f := range map[string][2]string{
		"copilot": {"hook-input-agentStop.json", "transcript-events.jsonl"},
		"qwen":    {"hook-input-Stop.json", "transcript-s2.jsonl"},
	} {
		in, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "agent", name, "testdata", f[0]))
		if err != nil {
			b.Fatal(err)
		}
		tr, err := filepath.Abs(filepath.Join("..", "..", "..", "..", "agent", name, "testdata", f[1]))
		if err != nil {
			b.Fatal(err)
		}
		s := string(in)
		for _, key := range []string{`"transcriptPath":"`, `"transcript_path":"`} {
			if i := strings.Index(s, key); i >= 0 {
				j := strings.Index(s[i+len(key):], `"`)
				s = s[:i+len(key)] + tr + s[i+len(key)+j:]
			}
		}
		inputs[name] = s
	}
	var variants []e2e.HookRun
	for _, name := range []string{agents.Default().Name(), "copilot", "qwen"} {
		a, ok := agents.ByName(name)
		if !ok {
			b.Fatalf("no agent %s", name)
		}
		env := serveAllow(b, dir, a)
		input := inputs[name]
		if input == "" {
			input = e2e.ClaudeStopInput
		}
		variants = append(variants, e2e.HookRun{Name: name + ": hooksup-hook Stop", Argv: []string{e2e.HookClientBin, "Stop"}, Env: env, Input: []byte(input), Allowed: true})
		if name != agents.Default().Name() {
			variants = append(variants, e2e.HookRun{Name: name + ": bare Go client", Argv: []string{bare}, Env: env, Input: []byte(input), Allowed: true})
		}
	}
	samples := e2e.TimeRoundTrips(b, variants)
	fmt.Printf("\nStop hook round trip over %d runs each (exec to exit, allow)\n%-28s %10s %10s\n", b.N, "", "p50", "p99")
	for j, v := range variants {
		fmt.Printf("%-28s %10s %10s\n", v.Name, e2e.Pct(samples[j], 0.5).Round(time.Microsecond), e2e.Pct(samples[j], 0.99).Round(time.Microsecond))
	}
}

// serveAllow serves a's hooks on a socket in dir, answering every stop allow in a's codec, and
// returns the environment a hook needs to reach it.
func serveAllow(b *testing.B, dir string, a agent.Agent) []string {
	srv, err := supervisor.Listen(filepath.Join(dir, a.Name()+".sock"), "tok", nil)
	if err != nil {
		b.Fatal(err)
	}
	srv.Adapt = a.Input
	srv.HandleDefault(func(_ context.Context, in *hooks.Input) ([]byte, int) {
		return a.Answer(hooks.Answer{Decision: hooks.Allow})
	})
	go srv.Serve(context.Background())
	b.Cleanup(func() { srv.Close() })
	return append(os.Environ(), hooks.EnvSocket+"="+srv.Path, hooks.EnvToken+"=tok", hooks.EnvLog+"="+filepath.Join(dir, "log"))
}
