package figures

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/hooksup/hooksup/agent/claude"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"

	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/supervisor"
)

// claudeAnswerLine is the line claude writes to its transcript for the answer claudeStopInput
// names ("First final answer."), with the turn's usage.
const claudeAnswerLine = `{"parentUuid":"3f04dfb8-00da-48a2-bfae-68804b206ff1","isSidechain":false,"message":{"id":"msg_mock_1","type":"message","role":"assistant","model":"claude-opus-5-5","content":[{"type":"text","text":"First final answer."}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1111,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":222}},"requestId":"req_mock_1","type":"assistant","uuid":"fb62c82c-9304-484c-a05f-ead1ac65e360","timestamp":"2026-11-22T09:25:40.760Z","cwd":"/home/dev/proj","sessionId":"4312ba3d-56cd-4b9f-8c76-66e8ea524739","version":"2.1.330"}` + "\n"

// BenchmarkSupervisedStopRoundTrip times one Stop hook call from exec to exit through a whole
// supervised session (the engine deciding allow with no checks, the verdict log, the transcript
// feed), with the transcript the Stop names present (it holds the Stop's last message) and
// absent (a path that does not exist: the message never shows), beside the bare Go client
// against a server that answers at once, the floor. Each b.N step runs all of them,
// interleaved. Run with -benchtime=200x; it prints p50/p99 and the ratios.
func BenchmarkSupervisedStopRoundTrip(b *testing.B) {
	dir, err := os.MkdirTemp("", "hs")
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(dir)
	bare := e2e.BuildBareClient(b, dir)
	srv, err := supervisor.Listen(filepath.Join(dir, "s.sock"), "tok", nil)
	if err != nil {
		b.Fatal(err)
	}
	srv.HandleDefault(func(context.Context, *hooks.Input) ([]byte, int) { return nil, 0 })
	go srv.Serve(context.Background())
	defer srv.Close()
	bareEnv := append(os.Environ(), hooks.EnvSocket+"="+srv.Path, hooks.EnvToken+"=tok", hooks.EnvLog+"="+filepath.Join(dir, "log"))

	present := filepath.Join(dir, "present.jsonl")
	if err := os.WriteFile(present, []byte(claudeAnswerLine), 0o600); err != nil {
		b.Fatal(err)
	}
	absent := filepath.Join(dir, "moved", "absent.jsonl")
	withTranscript := func(path string) []byte {
		return bytes.Replace([]byte(e2e.ClaudeStopInput), []byte(`/home/dev/.claude/projects/-home-dev-proj/4312ba3d.jsonl`), []byte(path), 1)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	presentEnv := startSupervised(ctx, b, filepath.Join(dir, "p"))
	absentEnv := startSupervised(ctx, b, filepath.Join(dir, "a"))
	variants := []e2e.HookRun{
		{Name: "transcript present", Argv: []string{e2e.HookClientBin, "Stop"}, Env: presentEnv, Input: withTranscript(present), Allowed: true},
		{Name: "transcript absent", Argv: []string{e2e.HookClientBin, "Stop"}, Env: absentEnv, Input: withTranscript(absent), Allowed: true},
		{Name: "bare Go client", Argv: []string{bare}, Env: bareEnv, Input: []byte(e2e.ClaudeStopInput), Allowed: true},
	}
	samples := e2e.TimeRoundTrips(b, variants)
	fmt.Printf("\nsupervised Stop round trip over %d runs each (exec to exit; allow, no checks; hooksup-hook to a whole session, the bare client to a bare server)\n", b.N)
	fmt.Printf("%-22s %10s %10s %10s %10s\n", "", "p50", "p99", "p50/bare", "p99/bare")
	for j, v := range variants {
		fmt.Printf("%-22s %10s %10s %9.2fx %9.2fx\n", v.Name, e2e.Pct(samples[j], 0.5).Round(time.Microsecond), e2e.Pct(samples[j], 0.99).Round(time.Microsecond),
			float64(e2e.Pct(samples[j], 0.5))/float64(e2e.Pct(samples[2], 0.5)), float64(e2e.Pct(samples[j], 0.99))/float64(e2e.Pct(samples[2], 0.99)))
	}
	b.ReportMetric(float64(e2e.Pct(samples[0], 0.5))/float64(e2e.Pct(samples[2], 0.5)), "present-ratio-p50")
	b.ReportMetric(float64(e2e.Pct(samples[1], 0.5))/float64(e2e.Pct(samples[2], 0.5)), "absent-ratio-p50")
}

// startSupervised starts a supervised session in dir whose agent is a process that waits to be
// ended, and returns the environment hooksup gives the agent (its socket and token): a hook
// client run with it calls that session. The session ends with ctx.
func startSupervised(ctx context.Context, b *testing.B, dir string) []string {
	b.Helper()
	for _, d := range []string{"run", "state", "proj"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o700); err != nil {
			b.Fatal(err)
		}
	}
	cfg := config.Defaults()
	cfg.Mode = config.ModeAuto
	started := make(chan []string, 1)
	s, err := supervisor.New(supervisor.Options{
		Config: cfg, Agent: claude.Agent{}, Bin: "sleep", HookClient: e2e.HookClientBin,
		ProjectDir: filepath.Join(dir, "proj"), StateDir: filepath.Join(dir, "state"), RuntimeDir: filepath.Join(dir, "run"),
		Start: func(cmd *exec.Cmd) error {
			started <- cmd.Env
			cmd.Args = []string{"sleep", "3600"}
			return cmd.Start()
		},
	})
	if err != nil {
		b.Fatal(err)
	}
	go func() {
		for range s.Events() {
		}
	}()
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := s.Run(ctx); err != nil {
			b.Error(err)
		}
	}()
	b.Cleanup(func() { <-done })
	return <-started
}
