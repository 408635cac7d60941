package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/supervisor"
)

// BenchmarkHookRoundTrip times one Stop hook call from exec to exit, the supervisor answering
// allow with no checks, beside (a) a shell hook that only reads stdin and (b) a bare Go program
// that reads stdin and makes the same socket call: the floor for any Go hook client. It also
// times the hook `hooksup install` registers, standalone (no supervisor: it loads the config,
// runs the checks itself, keeps the session's counts and writes the verdict log), with one check
// that passes at once (`true`), beside the floor for that: the bare Go program that reads stdin
// and runs the same check the way hooksup does (/bin/sh -c true, output captured), one fork and
// exec of sh like the hook's. Each b.N step runs all of them, interleaved. Run with
// -benchtime=1000x; it prints p50/p99 and the ratios. The binaries are built like the test's
// (CGO_ENABLED=0 in the environment builds them as the release does: statically linked).
func BenchmarkHookRoundTrip(b *testing.B) {
	dir, err := os.MkdirTemp("", "hb")
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(dir)
	bare := buildBareClient(b, dir)
	srv, err := supervisor.Listen(filepath.Join(dir, "s.sock"), "tok", nil)
	if err != nil {
		b.Fatal(err)
	}
	srv.HandleDefault(func(context.Context, *hooks.Input) ([]byte, int) { return nil, 0 })
	go srv.Serve(context.Background())
	defer srv.Close()

	input := []byte(claudeStopInput)
	env := append(os.Environ(), hooks.EnvSocket+"="+srv.Path, hooks.EnvToken+"=tok", hooks.EnvLog+"="+filepath.Join(dir, "log"))
	// The installed hook: no supervisor in its environment, a user config whose one check
	// passes at once, a project directory of its own.
	sb := filepath.Join(dir, "installed")
	proj := filepath.Join(sb, "proj")
	for _, d := range []string{proj, filepath.Join(sb, "cfg", "hooksup"), filepath.Join(sb, "state")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			b.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(sb, "cfg", "hooksup", "config.toml"),
		[]byte("[[stop.checks]]\nname = \"instant\"\ncommand = \"true\"\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	var installedEnv []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "HOOKSUP_") {
			installedEnv = append(installedEnv, kv)
		}
	}
	installedEnv = append(installedEnv, "HOME="+sb, "XDG_CONFIG_HOME="+filepath.Join(sb, "cfg"), "XDG_STATE_HOME="+filepath.Join(sb, "state"))
	installedInput := bytes.Replace(input, []byte(`"/home/dev/proj"`), []byte(`"`+proj+`"`), 1)
	installed := installedHookArgv(b, proj, installedEnv)
	variants := []hookRun{
		{"hooksup-hook Stop", []string{hookClientBin, "Stop"}, env, input, false},
		{"hooksup hook Stop", []string{hooksupBin, "hook", "Stop"}, env, input, false},
		{"bare Go client", []string{bare}, env, input, false},
		{"sh -c 'cat >/dev/null'", []string{"/bin/sh", "-c", "cat >/dev/null"}, env, input, false},
		{"installed Stop hook", installed, installedEnv, installedInput, true},
		{"bare Go client + check", []string{bare, "check", "true"}, installedEnv, installedInput, true},
	}
	samples := timeRoundTrips(b, variants)
	fmt.Printf("\nhook round trip over %d runs each (exec to exit; allow; the installed hook and the bare client + check run one check, true)\n", b.N)
	fmt.Printf("%-26s %10s %10s\n", "client", "p50", "p99")
	for j, v := range variants {
		fmt.Printf("%-26s %10s %10s\n", v.name, pct(samples[j], 0.5).Round(time.Microsecond), pct(samples[j], 0.99).Round(time.Microsecond))
	}
	r50 := float64(pct(samples[0], 0.5)) / float64(pct(samples[2], 0.5))
	r99 := float64(pct(samples[0], 0.99)) / float64(pct(samples[2], 0.99))
	fmt.Printf("injected client (hooksup-hook) / bare Go: p50 %.2fx, p99 %.2fx\n", r50, r99)
	fmt.Printf("hooksup hook (whole binary) / bare Go: p50 %.2fx\n", float64(pct(samples[1], 0.5))/float64(pct(samples[2], 0.5)))
	fmt.Printf("installed Stop hook (%s, one instant check) / bare Go + the same check: p50 %.2fx, p99 %.2fx\n", filepath.Base(installed[0]),
		float64(pct(samples[4], 0.5))/float64(pct(samples[5], 0.5)), float64(pct(samples[4], 0.99))/float64(pct(samples[5], 0.99)))
	fmt.Printf("installed Stop hook (%s, one instant check) / bare Go (socket call only): p50 %.2fx\n", filepath.Base(installed[0]),
		float64(pct(samples[4], 0.5))/float64(pct(samples[2], 0.5)))
	b.ReportMetric(float64(pct(samples[0], 0.5).Microseconds()), "client-p50-µs")
	b.ReportMetric(float64(pct(samples[2], 0.5).Microseconds()), "bare-p50-µs")
	b.ReportMetric(r50, "ratio-p50")
	b.ReportMetric(float64(pct(samples[4], 0.5))/float64(pct(samples[5], 0.5)), "installed-ratio-p50")
}

// claudeStopInput is the Stop hook input Claude Code 2.1.330 sends.
const claudeStopInput = `{"session_id":"4312ba3d-56cd-4b9f-8c76-66e8ea524739","transcript_path":"/home/dev/.claude/projects/-home-dev-proj/4312ba3d.jsonl","cwd":"/home/dev/proj","prompt_id":"8b633690","permission_mode":"default","effort":{"level":"medium"},"hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"First final answer.","background_tasks":[],"session_crons":[]}`

// hookRun is one command a round-trip benchmark times: argv with env and input on its stdin.
// With allowed, anything on its stdout (an answer other than a plain allow) fails the benchmark.
type hookRun struct {
	name    string
	argv    []string
	env     []string
	input   []byte
	allowed bool
}

// buildBareClient builds ./testdata/bareclient into dir and returns its path: a bare Go program
// that reads stdin and makes the hook's socket call, the floor for any Go hook client.
func buildBareClient(b *testing.B, dir string) string {
	b.Helper()
	bare := filepath.Join(dir, "bare")
	if out, err := e2e.GoBuild(bare, "./testdata/bareclient").CombinedOutput(); err != nil {
		b.Fatalf("build bare client: %v\n%s", err, out)
	}
	return bare
}

// timeRoundTrips runs each of runs once to warm the page cache, then all of them b.N times,
// interleaved, timed from exec to exit; it returns each run's durations.
func timeRoundTrips(b *testing.B, runs []hookRun) [][]time.Duration {
	b.Helper()
	once := func(r hookRun) time.Duration {
		cmd := exec.Command(r.argv[0], r.argv[1:]...)
		cmd.Env = r.env
		cmd.Stdin = bytes.NewReader(r.input)
		var out bytes.Buffer
		cmd.Stdout = &out
		start := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatalf("%v: %v", r.argv, err)
		}
		d := time.Since(start)
		if r.allowed && out.Len() > 0 {
			b.Fatalf("%v did not allow at once: %s", r.argv, out.Bytes())
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

// pct is the p quantile of s (0.5 the median).
func pct(s []time.Duration, p float64) time.Duration {
	s = slices.Clone(s)
	slices.Sort(s)
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

// installedHookArgv is the Stop hook command `hooksup install` registers, as argv: the test's
// hooksup installs into the project's local settings and the command is read back from them.
func installedHookArgv(b *testing.B, proj string, env []string) []string {
	b.Helper()
	cmd := exec.Command(hooksupBin, "install", "--scope", "local")
	cmd.Dir, cmd.Env = proj, env
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("hooksup install: %v\n%s", err, out)
	}
	settings := filepath.Join(proj, ".claude", "settings.local.json")
	data, err := os.ReadFile(settings)
	if err != nil {
		b.Fatal(err)
	}
	var s struct {
		Hooks map[string][]struct {
			Hooks []struct{ Command string } `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(data, &s); err != nil || len(s.Hooks["Stop"]) == 0 || len(s.Hooks["Stop"][0].Hooks) == 0 {
		b.Fatalf("no Stop hook in %s (%v):\n%s", settings, err, data)
	}
	// The binary's path is single-quoted for the shell; the test's paths hold no quote or space.
	argv := strings.Fields(s.Hooks["Stop"][0].Hooks[0].Command)
	for i, a := range argv {
		argv[i] = strings.Trim(a, "'")
	}
	return argv
}
