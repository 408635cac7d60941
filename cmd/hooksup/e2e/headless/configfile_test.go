package headless

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
)

// A .hooksup.toml that is a named pipe, a directory or too large is refused at once, by name and
// with the fix, by every command that reads it; the installed hook lets the stop through, says
// why and logs it. None of them waits on the pipe.
func TestConfigThatIsNotARegularFile(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		make func(path string) error
		says string
	}{
		{"fifo", func(p string) error { return syscall.Mkfifo(p, 0o600) }, "the file is a named pipe (FIFO), not a regular file, so hooksup does not read it: replace it with a regular file, or remove it"},
		{"directory", func(p string) error { return os.Mkdir(p, 0o700) }, "the file is a directory, not a regular file"},
		{"huge", func(p string) error {
			return os.WriteFile(p, []byte("# "+strings.Repeat("x", 2<<20)+"\n"), 0o600)
		}, "the file is larger than 1 MiB, the most a configuration file may hold"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := e2e.NewSandbox(t)
			path := filepath.Join(s.Project, ".hooksup.toml")
			if err := c.make(path); err != nil {
				t.Skip("cannot make one here:", err)
			}
			sub := filepath.Join(s.Project, "sub") // found from below as well
			os.Mkdir(sub, 0o700)
			want := path + ": " + c.says
			run := func(name string, cmd *exec.Cmd) (int, string, string) {
				t.Helper()
				var out, errb bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &errb
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				done := make(chan struct{})
				go func() { cmd.Wait(); close(done) }()
				select {
				case <-done:
				case <-time.After(30 * time.Second):
					cmd.Process.Kill()
					<-done
					t.Fatalf("%s still running after 30s: it waits on %s", name, path)
				}
				return cmd.ProcessState.ExitCode(), out.String(), errb.String()
			}
			for _, dir := range []string{s.Project, sub} {
				for _, args := range [][]string{{"check"}, {"--claude-bin", "/bin/true", "doctor"}, {"trust"}} {
					cmd := e2e.ExecHooksup(s, args...)
					cmd.Dir = dir
					name := "hooksup " + strings.Join(args, " ") + " in " + dir
					code, stdout, stderr := run(name, cmd)
					if code == 0 || !strings.Contains(stdout+stderr, want) {
						t.Errorf("%s: exit %d, want non-zero and %q\nstdout:\n%s\nstderr:\n%s", name, code, want, stdout, stderr)
					}
				}
			}
			hook := s.InstalledHook("s-" + c.name)
			code, stdout, stderr := run("hooksup-hook", hook)
			if code != 0 || !strings.Contains(stdout, "checks skipped") || !strings.Contains(stdout, "not a regular file") && !strings.Contains(stdout, "larger than 1 MiB") {
				t.Errorf("the installed hook: exit %d, want 0 (the stop let through) with a systemMessage saying why\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			logText, _ := os.ReadFile(filepath.Join(s.StateDir(), "hooksup.log"))
			if !strings.Contains(string(logText), "standalone: config") || !strings.Contains(string(logText), ".hooksup.toml") {
				t.Errorf("hooksup.log does not say why the hook ran no check:\n%s", logText)
			}
		})
	}
}

// hooksup check ends, its check's group killed, on SIGTERM, SIGHUP and Ctrl-C while its checks
// run.
func TestCheckEndsOnASignal(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			s := e2e.NewSandbox(t)
			c := e2e.NewRunningCheck(s)
			cfg := s.Config(fmt.Sprintf("[[stop.checks]]\nname = \"slow\"\ncommand = %q\ntimeout = \"20m\"\n", c.Command()))
			cmd := e2e.ExecHooksup(s, "--config", cfg, "check")
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan struct{})
			go func() { cmd.Wait(); close(done) }()
			defer cmd.Process.Kill()
			pgid, _ := c.Group(t)
			cmd.Process.Signal(sig)
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				t.Fatalf("hooksup check still running 30s after %v:\n%s", sig, out.String())
			}
			if cmd.ProcessState.ExitCode() == 0 {
				t.Errorf("exit 0 after %v:\n%s", sig, out.String())
			}
			if left := e2e.GroupGoneBy(pgid, time.Now().Add(10*time.Second)); len(left) > 0 {
				t.Errorf("the check's processes %v outlived hooksup check", left)
			}
		})
	}
}
