package agents

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// clockTicks is the kernel's unit for a process's CPU times in /proc (USER_HZ, 100 on Linux).
const clockTicks = 100

// cpuOf is the CPU time, in seconds, of the processes whose environment holds home (HOME=home)
// and whose command line holds any of names: each one's own and that of its children it has
// waited for. It reads /proc (Linux).
func cpuOf(t *testing.T, home string, names ...string) (total float64, procs int) {
	t.Helper()
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		env, err := os.ReadFile(filepath.Join(d, "environ"))
		if err != nil || !bytes.Contains(env, []byte("\x00HOME="+home+"\x00")) && !bytes.HasPrefix(env, []byte("HOME="+home+"\x00")) {
			continue
		}
		cmd, _ := os.ReadFile(filepath.Join(d, "cmdline"))
		named := false
		for _, n := range names {
			named = named || bytes.Contains(cmd, []byte(n))
		}
		stat, err := os.ReadFile(filepath.Join(d, "stat"))
		if !named || err != nil {
			continue
		}
		s := string(stat)
		f := strings.Fields(s[strings.LastIndex(s, ")")+2:])
		for _, i := range []int{11, 12, 13, 14} { // utime, stime, cutime, cstime
			v, _ := strconv.Atoi(f[i])
			total += float64(v) / clockTicks
		}
		procs++
	}
	return total, procs
}

// What hooksup costs beside the agent it supervises, in CPU: the real qwen (the heaviest of
// the five here) through one prompt, its shell dialog answered at the terminal, the command run
// and the model's answer, once alone and once under hooksup's TUI, alternately, in tmux; at the
// end the agent's processes' CPU and hooksup's own. It prints figures and asserts only that each
// run reached its end; run it with HOOKSUP_FIGURES=1 go test -run TestFigureAgentCPU -v
// ./cmd/hooksup/e2e/agents/ on a quiet machine.
func TestFigureAgentCPU(t *testing.T) {
	if os.Getenv("HOOKSUP_FIGURES") == "" {
		t.Skip("prints figures: set HOOKSUP_FIGURES=1")
	}
	for i := 0; i < 6; i++ {
		under := i%2 == 1
		rq := newRealQwenTUI(t, mockapi.QwenShell(qwenKeyCommand, "create a file"), mockapi.ChatText("MADE-IT"))
		argv := []string{rq.env.Qwen}
		if under {
			argv = []string{e2e.HooksupBin, "--config", rq.Config(`mode = "auto"`), "qwen"}
		}
		start := time.Now()
		tm := e2e.StartTmux(t, 160, 45, rq.env.Environ(), rq.env.WorkDir, argv...)
		tm.WaitText(90*time.Second, "Type your message")
		promptQwen(t, tm, rq, "make a file")
		tm.WaitText(60*time.Second, qwenDialogMark)
		tm.Keys("Enter")
		tm.WaitText(60*time.Second, "MADE-IT")
		agentCPU, n := cpuOf(t, rq.env.Home, "qwen-code")
		hooksupCPU, _ := cpuOf(t, rq.env.Home, e2e.HooksupBin+"\x00") // hooksup itself, not hooksup-hook beside it
		if under {
			t.Logf("under hooksup: qwen %.2f s CPU (%d processes), hooksup %.2f s, %v from start to the answer", agentCPU, n, hooksupCPU, time.Since(start).Round(time.Millisecond))
		} else {
			t.Logf("alone:         qwen %.2f s CPU (%d processes), %v from start to the answer", agentCPU, n, time.Since(start).Round(time.Millisecond))
		}
		tm.Keys("C-c")
		tm.Keys("C-c")
	}
}
