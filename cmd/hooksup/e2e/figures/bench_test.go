package figures

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
	bare := e2e.BuildBareClient(b, dir)
	srv, err := supervisor.Listen(filepath.Join(dir, "s.sock"), "tok", nil)
	if err != nil {
		b.Fatal(err)
	}
	srv.HandleDefault(func(context.Context, *hooks.Input) ([]byte, int) { return nil, 0 })
	go srv.Serve(context.Background())
	defer srv.Close()

	input := []byte(e2e.ClaudeStopInput)
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
	variants := []e2e.HookRun{
		{Name: "hooksup-hook Stop", Argv: []string{e2e.HookClientBin, "Stop"}, Env: env, Input: input, Allowed: false},
		{Name: "hooksup hook Stop", Argv: []string{e2e.HooksupBin, "hook", "Stop"}, Env: env, Input: input, Allowed: false},
		{Name: "bare Go client", Argv: []string{bare}, Env: env, Input: input, Allowed: false},
		{Name: "sh -c 'cat >/dev/null'", Argv: []string{"/bin/sh", "-c", "cat >/dev/null"}, Env: env, Input: input, Allowed: false},
		{Name: "installed Stop hook", Argv: installed, Env: installedEnv, Input: installedInput, Allowed: true},
		{Name: "bare Go client + check", Argv: []string{bare, "check", "true"}, Env: installedEnv, Input: installedInput, Allowed: true},
	}
	samples := e2e.TimeRoundTrips(b, variants)
	fmt.Printf("\nhook round trip over %d runs each (exec to exit; allow; the installed hook and the bare client + check run one check, true)\n", b.N)
	fmt.Printf("%-26s %10s %10s\n", "client", "p50", "p99")
	for j, v := range variants {
		fmt.Printf("%-26s %10s %10s\n", v.Name, e2e.Pct(samples[j], 0.5).Round(time.Microsecond), e2e.Pct(samples[j], 0.99).Round(time.Microsecond))
	}
	r50 := float64(e2e.Pct(samples[0], 0.5)) / float64(e2e.Pct(samples[2], 0.5))
	r99 := float64(e2e.Pct(samples[0], 0.99)) / float64(e2e.Pct(samples[2], 0.99))
	fmt.Printf("injected client (hooksup-hook) / bare Go: p50 %.2fx, p99 %.2fx\n", r50, r99)
	fmt.Printf("hooksup hook (whole binary) / bare Go: p50 %.2fx\n", float64(e2e.Pct(samples[1], 0.5))/float64(e2e.Pct(samples[2], 0.5)))
	fmt.Printf("installed Stop hook (%s, one instant check) / bare Go + the same check: p50 %.2fx, p99 %.2fx\n", filepath.Base(installed[0]),
		float64(e2e.Pct(samples[4], 0.5))/float64(e2e.Pct(samples[5], 0.5)), float64(e2e.Pct(samples[4], 0.99))/float64(e2e.Pct(samples[5], 0.99)))
	fmt.Printf("installed Stop hook (%s, one instant check) / bare Go (socket call only): p50 %.2fx\n", filepath.Base(installed[0]),
		float64(e2e.Pct(samples[4], 0.5))/float64(e2e.Pct(samples[2], 0.5)))
	b.ReportMetric(float64(e2e.Pct(samples[0], 0.5).Microseconds()), "client-p50-µs")
	b.ReportMetric(float64(e2e.Pct(samples[2], 0.5).Microseconds()), "bare-p50-µs")
	b.ReportMetric(r50, "ratio-p50")
	b.ReportMetric(float64(e2e.Pct(samples[4], 0.5))/float64(e2e.Pct(samples[5], 0.5)), "installed-ratio-p50")
}

// installedHookArgv is the Stop hook command `hooksup install` registers, as argv: the test's
// hooksup installs into the project's local settings and the command is read back from them.
func installedHookArgv(b *testing.B, proj string, env []string) []string {
	b.Helper()
	cmd := exec.Command(e2e.HooksupBin, "install", "--scope", "local")
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
