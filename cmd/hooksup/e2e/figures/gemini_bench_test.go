package figures

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/agent/claude"
	"github.com/hooksup/hooksup/agent/gemini"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/supervisor"
)

// geminiStopInput is the AfterAgent hook input Gemini CLI 0.61.0 sent in an offline run, its
// transcript_path to be filled in.
const geminiStopInput = `{"session_id":"0ec9599d-29ad-4c6c-95f1-67c831099445","transcript_path":"TRANSCRIPT","cwd":"/tmp/gemini-offline/run/proj","hook_event_name":"AfterAgent","timestamp":"2026-11-25T22:35:51.510Z","prompt":"hello","prompt_response":"first answer answer","stop_hook_active":false}`

// BenchmarkGeminiHookRoundTrip times one stop hook call from exec to exit, the supervisor
// answering allow through each agent's input and codec: gemini's AfterAgent (whose last message
// the supervisor reads from the end of gemini's chat) beside claude's Stop, and a bare Go client
// making gemini's call. Run with -benchtime 300x.
func BenchmarkGeminiHookRoundTrip(b *testing.B) {
	dir, err := os.MkdirTemp("", "hg")
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(dir)
	bare := e2e.BuildBareClient(b, dir)
	chat, err := filepath.Abs("testdata/gemini/chat.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	input := strings.Replace(geminiStopInput, "TRANSCRIPT", chat, 1)
	var envs [][]string
	for _, a := range []agent.Agent{claude.Agent{}, gemini.Agent{}} {
		srv, err := supervisor.Listen(filepath.Join(dir, a.Name()+".sock"), "tok", nil)
		if err != nil {
			b.Fatal(err)
		}
		srv.Adapt = a.Input
		srv.HandleDefault(func(_ context.Context, in *hooks.Input) ([]byte, int) {
			if a.Name() == "gemini" && in.LastAssistantMessage != "after gate" {
				b.Errorf("gemini's stop reached the supervisor as %q with last message %q", in.HookEventName, in.LastAssistantMessage)
			}
			return a.Answer(hooks.Answer{Decision: hooks.Allow})
		})
		go srv.Serve(context.Background())
		defer srv.Close()
		envs = append(envs, append(os.Environ(), hooks.EnvSocket+"="+srv.Path, hooks.EnvToken+"=tok", hooks.EnvLog+"="+filepath.Join(dir, "log")))
	}
	variants := []e2e.HookRun{
		{Name: "claude: hooksup-hook Stop", Argv: []string{e2e.HookClientBin, "Stop"}, Env: envs[0], Input: []byte(e2e.ClaudeStopInput), Allowed: true},
		{Name: "gemini: hooksup-hook Stop", Argv: []string{e2e.HookClientBin, "Stop"}, Env: envs[1], Input: []byte(input), Allowed: true},
		{Name: "gemini: bare Go client", Argv: []string{bare}, Env: envs[1], Input: []byte(input), Allowed: true},
	}
	samples := e2e.TimeRoundTrips(b, variants)
	fmt.Printf("\nStop hook round trip over %d runs each (exec to exit, allow)\n%-28s %10s %10s\n", b.N, "", "p50", "p99")
	for j, v := range variants {
		fmt.Printf("%-28s %10s %10s\n", v.Name, e2e.Pct(samples[j], 0.5).Round(time.Microsecond), e2e.Pct(samples[j], 0.99).Round(time.Microsecond))
	}
	b.ReportMetric(float64(e2e.Pct(samples[0], 0.5).Microseconds()), "claude-p50-µs")
	b.ReportMetric(float64(e2e.Pct(samples[1], 0.5).Microseconds()), "gemini-p50-µs")
}
