package figures

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// BenchmarkClaudePermissionLatency prints how long after claude's permission dialog appears in
// hooksup's pane the header shows "needs permission", with the real claude in tmux: on claude's
// default permission mode (auto) and with --permission-mode default. Each b.N step is one
// dialog: a prompt, a risky Bash call, the dialog, Escape. Both instants are read from the same
// capture-pane loop, so the figures are what a person sees, to within one capture (printed as
// "poll"). Run with -benchtime=20x; it prints p50/p99/max per mode.
func BenchmarkClaudePermissionLatency(b *testing.B) {
	for _, mode := range []struct {
		name string
		args []string
	}{{"auto", nil}, {"default", []string{"--permission-mode", "default"}}} {
		b.Run(mode.name, func(b *testing.B) {
			n := 0
			srv := mockapi.NewServer(b, mockapi.HandlerFunc(func(*mockapi.Request) mockapi.Reply {
				n++
				return mockapi.Bash(fmt.Sprintf("%s # %d", e2e.RiskyCommand, n), "Clean and install")
			}), mockapi.WithQuiet())
			env := mockapi.NewEnv(b, srv.URL, "")
			short, err := os.MkdirTemp("", "hb")
			if err != nil {
				b.Fatal(err)
			}
			defer os.RemoveAll(short)
			os.MkdirAll(filepath.Join(short, "run"), 0o700)
			env.Setenv("XDG_STATE_HOME", filepath.Join(short, "state"))
			env.Setenv("XDG_RUNTIME_DIR", filepath.Join(short, "run"))
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(short, "config"))
			env.Setenv("TERM", "xterm-256color")
			env.Setenv("HOOKSUP_CLAUDE_BIN", env.Claude)
			cfg := filepath.Join(short, "hooksup.toml")
			os.WriteFile(cfg, []byte(`mode = "auto"`), 0o600)
			argv := append([]string{e2e.HooksupBin, "--config", cfg, "claude"}, mode.args...)
			tm := e2e.StartTmux(b, 160, 45, env.Environ(), env.WorkDir, argv...)
			const wait = 45 * time.Second
			tm.WaitText(wait, "● waiting for input")
			// The dialog's first line and its question: the dialog appeared when either shows.
			const dialog, dialogTop = "Do you want to proceed?", "Bash command"
			if mode.args == nil {
				// Offline, auto mode first asks what to do about its safety check: stay.
				e2e.TypeIntoClaude(b, tm, "go")
				tm.Keys("Enter")
				tm.WaitText(wait, "can't check actions")
				e2e.PressUntil(b, tm, "Enter", dialog)
				e2e.PressUntil(b, tm, "Escape", "● interrupted")
			}
			var lat, polls []time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				prompt := fmt.Sprintf("go %d", i)
				e2e.TypeIntoClaude(b, tm, prompt)
				tm.Keys("Enter")
				var dialogAt, headerAt time.Time
				deadline := time.Now().Add(wait)
				for dialogAt.IsZero() || headerAt.IsZero() {
					start := time.Now()
					scr := tm.Screen()
					polls = append(polls, time.Since(start))
					now := time.Now()
					if dialogAt.IsZero() && (strings.Contains(scr, dialog) || strings.Contains(scr, dialogTop)) {
						dialogAt = now
					}
					if headerAt.IsZero() && strings.Contains(scr, "● needs permission") {
						headerAt = now
					}
					if now.After(deadline) {
						b.Fatalf("run %d: no dialog or no header:\n%s", i, scr)
					}
				}
				lat = append(lat, headerAt.Sub(dialogAt))
				e2e.PressUntil(b, tm, "Escape", "● interrupted")
			}
			b.StopTimer()
			pct := func(s []time.Duration, p float64) time.Duration {
				s = slices.Clone(s)
				slices.Sort(s)
				return s[min(len(s)-1, int(float64(len(s))*p))]
			}
			fmt.Printf("\nneeds-permission after claude's dialog, %s mode, %d dialogs: p50 %s  p99 %s  max %s  min %s  (poll p50 %s)\n",
				mode.name, len(lat), pct(lat, .5).Round(time.Millisecond), pct(lat, .99).Round(time.Millisecond),
				slices.Max(lat).Round(time.Millisecond), slices.Min(lat).Round(time.Millisecond), pct(polls, .5).Round(time.Millisecond))
			b.ReportMetric(float64(pct(lat, .5).Milliseconds()), "p50-ms")
			b.ReportMetric(float64(pct(lat, .99).Milliseconds()), "p99-ms")
			tm.Text("/exit")
			tm.Keys("Enter")
			tm.WaitText(wait, "claude exited")
		})
	}
}
