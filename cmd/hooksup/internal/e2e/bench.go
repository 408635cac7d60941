package e2e

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// ClaudeStopInput is the Stop hook input Claude Code 2.1.330 sends.
const ClaudeStopInput = `{"session_id":"4312ba3d-56cd-4b9f-8c76-66e8ea524739","transcript_path":"/home/dev/.claude/projects/-home-dev-proj/4312ba3d.jsonl","cwd":"/home/dev/proj","prompt_id":"8b633690","permission_mode":"default","effort":{"level":"medium"},"hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"First final answer.","background_tasks":[],"session_crons":[]}`

// HookRun is one command a round-trip benchmark times: argv with env and input on its stdin.
// With allowed, anything on its stdout (an answer other than a plain allow) fails the benchmark.
type HookRun struct {
	Name    string
	Argv    []string
	Env     []string
	Input   []byte
	Allowed bool
}

// BuildBareClient builds ./testdata/bareclient into dir and returns its path: a bare Go program
// that reads stdin and makes the hook's socket call, the floor for any Go hook client.
func BuildBareClient(b *testing.B, dir string) string {
	b.Helper()
	bare := filepath.Join(dir, "bare")
	if out, err := GoBuild(bare, "./testdata/bareclient").CombinedOutput(); err != nil {
		b.Fatalf("build bare client: %v\n%s", err, out)
	}
	return bare
}

// TimeRoundTrips runs each of runs once to warm the page cache, then all of them b.N times,
// interleaved, timed from exec to exit; it returns each run's durations.
func TimeRoundTrips(b *testing.B, runs []HookRun) [][]time.Duration {
	b.Helper()
	once := func(r HookRun) time.Duration {
		cmd := exec.Command(r.Argv[0], r.Argv[1:]...)
		cmd.Env = r.Env
		cmd.Stdin = bytes.NewReader(r.Input)
		var out bytes.Buffer
		cmd.Stdout = &out
		start := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatalf("%v: %v", r.Argv, err)
		}
		d := time.Since(start)
		if r.Allowed && out.Len() > 0 {
			b.Fatalf("%v did not allow at once: %s", r.Argv, out.Bytes())
		}
		return d
	}
	for _, r := range runs {
		once(r)
	}
	samples := make([][]time.Duration, len(runs))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, r := range runs {
			samples[j] = append(samples[j], once(r))
		}
	}
	b.StopTimer()
	return samples
}

// Pct is the p quantile of s (0.5 the median).
func Pct(s []time.Duration, p float64) time.Duration {
	s = slices.Clone(s)
	slices.Sort(s)
	return s[min(len(s)-1, int(float64(len(s))*p))]
}
