package figures

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"

	"github.com/creack/pty"
)

// measureKeys types one key at a time into ptmx and times its arrival at the child.
func measureKeys(b *testing.B, ptmx *os.File, conn net.Conn, n int) []time.Duration {
	out := make([]time.Duration, 0, n)
	buf := make([]byte, 64)
	for i := 0; i < n; i++ {
		start := time.Now()
		if _, err := ptmx.Write([]byte{'x'}); err != nil {
			b.Fatal(err)
		}
		conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		got := 0
		for got < 1 {
			m, err := conn.Read(buf)
			if err != nil {
				b.Fatalf("key %d never arrived: %v", i, err)
			}
			got += m
		}
		out = append(out, time.Since(start))
		time.Sleep(2 * time.Millisecond) // one key at a time, as typed
	}
	return out
}

func startKeyEcho(b *testing.B, dir string, argv []string, env []string) (*os.File, net.Conn, *exec.Cmd) {
	sock := filepath.Join(dir, fmt.Sprintf("k%d.sock", time.Now().UnixNano()%100000))
	ln, err := net.Listen("unix", sock)
	if err != nil {
		b.Fatal(err)
	}
	defer ln.Close()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(append(os.Environ(), env...), e2e.EnvKeyEcho+"="+sock, "TERM=xterm-256color")
	cmd.Dir = dir
	ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 160, Rows: 48})
	if err != nil {
		b.Fatal(err)
	}
	// Drain the outer terminal's output, as a terminal would.
	go func() {
		buf := make([]byte, 64<<10)
		for {
			if _, err := ptmx.Read(buf); err != nil {
				return
			}
		}
	}()
	ln.(*net.UnixListener).SetDeadline(time.Now().Add(20 * time.Second))
	conn, err := ln.Accept()
	if err != nil {
		b.Fatalf("the child never connected: %v", err)
	}
	time.Sleep(500 * time.Millisecond) // let the TUI settle
	return ptmx, conn, cmd
}

// BenchmarkKeystrokeLatency prints the time from a key written to the terminal to its arrival
// in the child's pty: the child alone in a pty, and the child in hooksup's claude pane. The
// difference is what hooksup adds. Run with -benchtime=1x (each run types 500 keys).
func BenchmarkKeystrokeLatency(b *testing.B) {
	dir, _ := os.MkdirTemp("", "kl")
	defer os.RemoveAll(dir)
	self, _ := os.Executable()
	const keys = 500
	pct := func(s []time.Duration, p float64) time.Duration {
		s = slices.Clone(s)
		slices.Sort(s)
		return s[min(len(s)-1, int(float64(len(s))*p))]
	}
	for i := 0; i < b.N; i++ {
		ptmx, conn, cmd := startKeyEcho(b, dir, []string{self}, nil)
		direct := measureKeys(b, ptmx, conn, keys)
		ptmx.Close()
		cmd.Process.Kill()
		cmd.Wait()

		state := filepath.Join(dir, "state")
		ptmx, conn, cmd = startKeyEcho(b, dir, []string{e2e.HooksupBin, "--claude-bin", self, "claude"},
			[]string{"XDG_STATE_HOME=" + state, "XDG_RUNTIME_DIR=" + dir, "HOME=" + dir})
		viaHooksup := measureKeys(b, ptmx, conn, keys)
		ptmx.Close()
		cmd.Process.Kill()
		cmd.Wait()

		fmt.Printf("\nkeystroke to child pty, %d keys each\n%-22s %10s %10s\n", keys, "", "p50", "p99")
		fmt.Printf("%-22s %10s %10s\n", "child alone in a pty", pct(direct, .5).Round(time.Microsecond), pct(direct, .99).Round(time.Microsecond))
		fmt.Printf("%-22s %10s %10s\n", "through hooksup's TUI", pct(viaHooksup, .5).Round(time.Microsecond), pct(viaHooksup, .99).Round(time.Microsecond))
		fmt.Printf("added by hooksup: p50 %s, p99 %s\n", (pct(viaHooksup, .5) - pct(direct, .5)).Round(time.Microsecond),
			(pct(viaHooksup, .99) - pct(direct, .99)).Round(time.Microsecond))
		b.ReportMetric(float64((pct(viaHooksup, .5) - pct(direct, .5)).Microseconds()), "added-p50-µs")
	}
}
