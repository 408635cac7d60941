package ssh

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
	"github.com/hooksup/hooksup/web"
)

// sshShell runs hooksup --config CFG ARGS in the person's other terminal on this machine, whose
// runtime directory is runDir.
func sshShell(t *testing.T, runDir, cfg string, args ...string) (string, string, int) {
	t.Helper()
	return e2e.HubShell(t, runDir, append([]string{"--config", cfg}, args...)...)
}

// Sessions on another machine over a real OpenSSH: listed beside this machine's (ls, ls --json,
// status), answered with HOST:PREFIX and by a bare prefix (approve: the next request carries
// the check's reason; deny: the agent stops; halt: the turn ends), and every way a host fails
// is its own line on stderr while the rest are still listed, within the bound.
func TestHubOverSSH(t *testing.T) {
	// Serial: it bounds the time of the remote ls, which tests running beside it would stretch.
	const cfgText = `
mode = "ask"
decision_timeout = "10m"
[[stop.checks]]
name = "tests"
command = "echo 'FAIL: TestSSH'; exit 1"
`
	rc1 := e2e.NewRealClaudeTUI(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("ANSWER-ONE"), mockapi.Text("ONE-CONTINUED"), mockapi.Text("WRONG: AFTER HALT")}})
	rc2 := e2e.NewRealClaudeTUI(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("ANSWER-TWO"), mockapi.Text("WRONG: A CONTINUATION")}})
	local := e2e.NewRealClaudeTUI(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("LOCAL")}})
	rc2.Env.Setenv("XDG_RUNTIME_DIR", rc1.Run)
	remoteRun, localRun := rc1.Run, local.Run
	srv := e2e.StartSSHD(t, remoteRun)
	cfg := srv.HubConfigFile(t, "")

	tm1 := rc1.ClaudeTUI(rc1.Config(cfgText), 160, 45)
	tm2 := rc2.ClaudeTUI(rc2.Config(cfgText), 160, 45)
	tmL := local.ClaudeTUI(local.Config(cfgText), 160, 45)
	const wait = 45 * time.Second
	for _, tm := range []*e2e.Tmux{tm1, tm2, tmL} {
		tm.WaitFor("claude's prompt", wait, func(s string) bool { return strings.Contains(s, "manual mode on") })
	}
	e2e.TypeIntoClaude(t, tm1, "first prompt")
	tm1.Keys("Enter")
	e2e.TypeIntoClaude(t, tm2, "second prompt")
	tm2.Keys("Enter")
	tm1.WaitText(wait, "ANSWER-ONE", "⚑ claude wants to stop", "FAIL: TestSSH")
	tm2.WaitText(wait, "ANSWER-TWO", "⚑ claude wants to stop", "FAIL: TestSSH")

	// This machine alone does not see the remote's sessions.
	out, errText, code := sshShell(t, localRun, cfg, "ls", "--json")
	var ls []web.Session
	if code != 0 || json.Unmarshal([]byte(out), &ls) != nil || len(ls) != 1 || ls[0].Host != "" || ls[0].Cwd != local.Env.WorkDir {
		t.Fatalf("ls --json here: exit %d, %s%s", code, out, errText)
	}

	out, errText, code = sshShell(t, localRun, cfg, "ls", "--json", "--host", "remote")
	ls = nil
	if code != 0 || errText != "" {
		t.Fatalf("ls --json --host remote: exit %d\n%s%s", code, out, errText)
	}
	if err := json.Unmarshal([]byte(out), &ls); err != nil {
		t.Fatalf("ls --json --host remote: %v\n%s", err, out)
	}
	byCwd := map[string]web.Session{}
	for _, s := range ls {
		byCwd[s.Cwd] = s
	}
	first, second, here := byCwd[rc1.Env.WorkDir], byCwd[rc2.Env.WorkDir], byCwd[local.Env.WorkDir]
	if len(ls) != 3 || first.Host != "remote" || second.Host != "remote" || here.Host != "" {
		t.Fatalf("ls --json --host remote: want the two remote sessions and this one:\n%s", out)
	}
	for _, s := range []web.Session{first, second} {
		if len(s.Pending) != 1 || s.Pending[0].Event != "Stop" || !strings.Contains(s.Pending[0].Reason, "FAIL: TestSSH") || s.SessionID == "" {
			t.Fatalf("remote session %+v: want one pending Stop with the check's reason", s)
		}
	}

	out, errText, code = sshShell(t, localRun, cfg, "ls", "--host", "remote")
	if code != 0 || !strings.HasPrefix(out, "HOST ") {
		t.Fatalf("ls --host remote: exit %d\n%s%s", code, out, errText)
	}
	for _, want := range []string{"remote  " + first.SessionID[:8], "remote  " + second.SessionID[:8], "-       " + here.SessionID[:8]} {
		if !strings.Contains(out, want) {
			t.Fatalf("ls --host remote lacks %q:\n%s", want, out)
		}
	}

	if out, errText, code := sshShell(t, localRun, cfg, "status", "--host", "remote", "--format", "{sessions} {waiting} {pending}"); code != 0 || out != "3 2 2\n" {
		t.Fatalf("status --host remote: exit %d, %q %s", code, out, errText)
	}
	// [hub] hosts reaches the remote unasked; --local does not.
	withHosts := srv.HubConfigFile(t, "hosts = [\"remote\"]\n")
	if out, errText, code := sshShell(t, localRun, withHosts, "status", "--format", "{sessions} {pending}"); code != 0 || out != "3 2\n" {
		t.Fatalf("status with [hub] hosts: exit %d, %q %s", code, out, errText)
	}
	if out, errText, code := sshShell(t, localRun, withHosts, "status", "--local", "--format", "{sessions} {pending}"); code != 0 || out != "1 0\n" {
		t.Fatalf("status --local: exit %d, %q %s", code, out, errText)
	}

	// A prefix as short as one character matches both remote sessions' ids or neither; the
	// project directories' common prefix matches every session: ambiguous, listed, exit 1.
	common := commonPrefix(filepath.Base(rc1.Env.WorkDir), filepath.Base(rc2.Env.WorkDir), filepath.Base(local.Env.WorkDir))
	if common != "" {
		_, errText, code := sshShell(t, localRun, cfg, "approve", "--host", "remote", common)
		if code != 1 || !strings.Contains(errText, "matches 3 sessions") || !strings.Contains(errText, "remote:"+first.SessionID[:8]) {
			t.Fatalf("approve of an ambiguous prefix: exit %d, %q", code, errText)
		}
	}

	out, errText, code = sshShell(t, localRun, cfg, "approve", "remote:"+first.SessionID[:8])
	if code != 0 || !strings.Contains(out, "the agent continues after Stop in session remote:"+first.SessionID[:8]) {
		t.Fatalf("approve remote:%s: exit %d\n%s%s", first.SessionID[:8], code, out, errText)
	}
	tm1.WaitText(wait, "ONE-CONTINUED", "continued by you (hooksup approve)")
	main1 := rc1.Srv.Main()
	if len(main1) < 2 || !strings.Contains(main1[1].LastUserText(), "FAIL: TestSSH") {
		t.Fatalf("%d requests; the second's last user text %q", len(main1), e2e.LastUser(main1))
	}

	// A bare prefix is searched on every host.
	out, errText, code = sshShell(t, localRun, cfg, "deny", "--host", "remote", second.SessionID[:8])
	if code != 0 || !strings.Contains(out, "the agent may stop at") {
		t.Fatalf("deny: exit %d\n%s%s", code, out, errText)
	}
	scr := tm2.WaitText(wait, "let stop by you (hooksup deny)")
	if strings.Contains(scr, "claude wants to stop") {
		t.Fatalf("question still shown after hooksup deny:\n%s", scr)
	}

	// The first session asks again (its check still fails): halt ends its turn.
	tm1.WaitText(wait, "⚑ claude wants to stop")
	out, errText, code = sshShell(t, localRun, cfg, "halt", "remote:"+first.SessionID[:8], "--reason", "wrong branch")
	if code != 0 || !strings.Contains(out, "the turn ends at") || !strings.Contains(out, "wrong branch") {
		t.Fatalf("halt: exit %d\n%s%s", code, out, errText)
	}
	tm1.WaitText(wait, "turn ended by you (hooksup halt)")
	if n := len(rc2.Srv.Main()); n != 1 {
		t.Fatalf("the denied session made %d requests, want 1", n)
	}
	if n := len(rc1.Srv.Main()); n != 2 {
		t.Fatalf("the halted session made %d requests, want 2", n)
	}

	// Every way a host fails, each its own line, while this machine's sessions and the
	// remote's are still listed, within the bound.
	// The bound is generous: a loaded machine (the race detector, agents running beside)
	// can take seconds to start the remote's hooksup; the hosts that fail here fail at once.
	const bound = 30 * time.Second
	bounded := srv.HubConfigFile(t, fmt.Sprintf("timeout = %q\n", bound.String()))
	start := time.Now()
	out, errText, code = sshShell(t, localRun, bounded, "ls", "--host", "down", "--host", "bare", "--host", "old", "--host", "remote")
	took := time.Since(start)
	if code != 0 {
		t.Fatalf("ls with failing hosts: exit %d\n%s%s", code, out, errText)
	}
	for _, want := range []string{"remote  " + first.SessionID[:8], "remote  " + second.SessionID[:8], "-       " + here.SessionID[:8]} {
		if !strings.Contains(out, want) {
			t.Fatalf("ls with failing hosts lacks %q:\n%s\nstderr:\n%s", want, out, errText)
		}
	}
	lines := strings.Split(strings.TrimSpace(errText), "\n")
	wantErr := []string{
		"hooksup ls: host down: unreachable (ssh: connect to host 127.0.0.1 port",
		"hooksup ls: host bare: no hooksup there (",
		"hooksup ls: host old: this hooksup speaks hub protocol 1, the remote's hooksup (v9.0.0) speaks 2: upgrade this hooksup",
	}
	if len(lines) != len(wantErr) {
		t.Fatalf("stderr has %d lines, want %d:\n%s", len(lines), len(wantErr), errText)
	}
	for i, w := range wantErr {
		if !strings.HasPrefix(lines[i], w) {
			t.Fatalf("stderr line %d: %q, want it to start with %q", i+1, lines[i], w)
		}
	}
	if !strings.Contains(lines[1], "[hub] remote_command") || !strings.Contains(lines[0], "check that ssh down works") {
		t.Fatalf("the lines do not say what to do:\n%s", errText)
	}
	// The failing hosts fail at once, each as it fails, and the remote answers: none waits out
	// the bound.
	if took >= bound {
		t.Fatalf("ls with failing hosts took %v: a host waited out the %v bound", took, bound)
	}
	srv.WaitNoRemoteServers(t)
	// An answer through a host that cannot be reached says so and exits 1.
	if _, errText, code := sshShell(t, localRun, bounded, "approve", "down:"+first.SessionID[:8]); code != 1 ||
		!strings.Contains(errText, "host down: unreachable") || !strings.Contains(errText, "no session matches") {
		t.Fatalf("approve on a host that is down: exit %d, %q", code, errText)
	}
}

func commonPrefix(ss ...string) string {
	p := ss[0]
	for _, s := range ss[1:] {
		for !strings.HasPrefix(s, p) {
			p = p[:len(p)-1]
		}
	}
	return p
}

// TestFigureLsOverSSH prints what hooksup ls costs with a remote host beside this machine
// alone: a cold ssh connection every time, and through an ssh ControlMaster. It asserts
// nothing; run it with HOOKSUP_FIGURES=1 go test -run TestFigureLsOverSSH -v ./cmd/hooksup/
func TestFigureLsOverSSH(t *testing.T) {
	// Serial: a figure measures times, which tests running beside it would stretch.
	if os.Getenv("HOOKSUP_FIGURES") == "" {
		t.Skip("prints figures: set HOOKSUP_FIGURES=1")
	}
	rc := e2e.NewRealClaudeTUI(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("ANSWER")}})
	local := t.TempDir()
	srv := e2e.StartSSHD(t, rc.Run)
	tm := rc.ClaudeTUI(rc.Config(`mode = "ask"`), 160, 45)
	tm.WaitFor("claude's prompt", 45*time.Second, func(s string) bool { return strings.Contains(s, "manual mode on") })

	cmDir, err := os.MkdirTemp("", "cm")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(cmDir)
	base, err := os.ReadFile(srv.Config)
	if err != nil {
		t.Fatal(err)
	}
	master := filepath.Join(t.TempDir(), "ssh_config_master")
	text := fmt.Sprintf("Host *\n  ControlMaster auto\n  ControlPath %s/%%C\n  ControlPersist 60\n", cmDir) + string(base)
	if err := os.WriteFile(master, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	defer exec.Command("ssh", "-F", master, "-O", "exit", "remote").Run()

	const runs = 20
	measure := func(cfg string, args ...string) []time.Duration {
		var ds []time.Duration
		for range runs + 1 {
			start := time.Now()
			out, errText, code := sshShell(t, local, cfg, args...)
			d := time.Since(start)
			if code != 0 || errText != "" {
				t.Fatalf("%v: exit %d\n%s%s", args, code, out, errText)
			}
			if len(args) > 1 && !strings.Contains(out, "remote") {
				t.Fatalf("%v lists no remote session:\n%s", args, out)
			}
			ds = append(ds, d)
		}
		return ds[1:] // the first warms the caches (and opens the master)
	}
	// The floor: ssh alone running true there, the remote's shell start-up included.
	bare := func(cfg string) []time.Duration {
		var ds []time.Duration
		for range runs + 1 {
			start := time.Now()
			if out, err := exec.Command("ssh", "-F", cfg, "remote", "true").CombinedOutput(); err != nil {
				t.Fatalf("ssh remote true: %v\n%s", err, out)
			}
			ds = append(ds, time.Since(start))
		}
		return ds[1:]
	}
	sshCold, sshMaster := bare(srv.Config), bare(master)
	here := measure(srv.HubConfigFile(t, ""), "ls")
	cold := measure(srv.HubConfigFile(t, ""), "ls", "--host", "remote")
	viaMaster := measure(e2e.HubConfigWith(t, master, ""), "ls", "--host", "remote")
	for _, f := range []struct {
		name string
		ds   []time.Duration
	}{{"ls (this machine only)", here},
		{"ssh remote true, a cold connection", sshCold}, {"ls --host remote, a cold ssh connection", cold},
		{"ssh remote true, through ControlMaster", sshMaster}, {"ls --host remote, through ControlMaster", viaMaster}} {
		slices.Sort(f.ds)
		t.Logf("%-42s median %v  p90 %v  (%d runs)", f.name, f.ds[len(f.ds)/2].Round(100*time.Microsecond),
			f.ds[len(f.ds)*9/10].Round(100*time.Microsecond), len(f.ds))
	}
}

// hooksup watch --host in tmux shows a session on another machine with its host, answers its
// question there; when sshd dies the host's card says it is disconnected, and once sshd is
// back the session is shown again.
func TestWatchOverSSH(t *testing.T) {
	t.Parallel()
	const cfgText = `
mode = "ask"
decision_timeout = "10m"
[[stop.checks]]
name = "tests"
command = "echo 'FAIL: TestWatchSSH'; exit 1"
`
	rc := e2e.NewRealClaudeTUI(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("ANSWER-ONE"), mockapi.Text("ONE-CONTINUED"), mockapi.Text("ONE-AGAIN")}})
	srv := e2e.StartSSHD(t, rc.Run)
	cfg := srv.HubConfigFile(t, "timeout = \"30s\"\n")
	tm := rc.ClaudeTUI(rc.Config(cfgText), 160, 45)
	const wait = 45 * time.Second
	tm.WaitFor("claude's prompt", wait, func(s string) bool { return strings.Contains(s, "manual mode on") })
	e2e.TypeIntoClaude(t, tm, "first prompt")
	tm.Keys("Enter")
	tm.WaitText(wait, "ANSWER-ONE", "⚑ claude wants to stop", "FAIL: TestWatchSSH")

	localRun := t.TempDir()
	_, env := e2e.OtherTerminal(t, localRun)
	env = append(env, "TERM=xterm-256color")
	w := e2e.StartTmux(t, 140, 40, env, t.TempDir(), e2e.HooksupBin, "--config", cfg, "watch", "--host", "remote")
	project := filepath.Base(rc.Env.WorkDir)
	w.WaitText(wait, "remote · "+project+" · claude", "⚑ Stop", "FAIL: TestWatchSSH")
	w.Keys("a")
	tm.WaitText(wait, "ONE-CONTINUED", "continued by you (hooksup watch)")
	main := rc.Srv.Main()
	if len(main) < 2 || !strings.Contains(main[1].LastUserText(), "FAIL: TestWatchSSH") {
		t.Fatalf("%d requests; the second's last user text %q", len(main), e2e.LastUser(main))
	}

	srv.Stop()
	scr := w.WaitText(wait, "remote", "disconnected", "trying again in")
	if strings.Contains(scr, "remote · "+project) {
		t.Fatalf("the remote session is still shown once sshd is gone:\n%s", scr)
	}
	srv.Run(t)
	w.WaitFor("the remote session back", wait, func(s string) bool {
		return strings.Contains(s, "remote · "+project+" · claude") && !strings.Contains(s, "disconnected")
	})
}

// TestFigureWatchIdleHosts prints how often hooksup watch wakes up while nothing happens, with
// three hosts beside this machine and with this machine alone: the context switches of every
// thread of the watch and of the ssh processes it started, and of the remotes' hub-stdio, over
// 10 s, one demo session waiting on each side. It asserts nothing; run it with
// HOOKSUP_FIGURES=1 go test -run TestFigureWatchIdleHosts -v ./cmd/hooksup/
func TestFigureWatchIdleHosts(t *testing.T) {
	// Serial: a figure measures times, which tests running beside it would stretch.
	if os.Getenv("HOOKSUP_FIGURES") == "" {
		t.Skip("prints figures: set HOOKSUP_FIGURES=1")
	}
	const window = 10 * time.Second
	remote := e2e.NewSandbox(t)
	remoteRun := filepath.Join(remote.Home, "run")
	if err := os.Mkdir(remoteRun, 0o700); err != nil {
		t.Fatal(err)
	}
	srv := e2e.StartSSHD(t, remoteRun)
	cfg := srv.HubConfigFile(t, "")
	demo := func(s *e2e.Sandbox, run string) {
		env := append(append([]string{}, s.Env...), "TERM=xterm-256color")
		if run != "" {
			env = append(env, "XDG_RUNTIME_DIR="+run)
		}
		tm := e2e.StartTmux(t, 200, 50, env, s.Project, e2e.HooksupBin, "demo")
		tm.WaitText(45*time.Second, "needs permission")
	}
	demo(remote, remoteRun)
	local := e2e.NewSandbox(t)
	demo(local, "")
	localRun := ""
	for _, kv := range local.Env {
		if v, ok := strings.CutPrefix(kv, "XDG_RUNTIME_DIR="); ok {
			localRun = v
		}
	}

	measure := func(sessions string, args ...string) (watch, remotes float64) {
		_, env := e2e.OtherTerminal(t, localRun)
		env = append(env, "TERM=xterm-256color")
		w := e2e.StartTmux(t, 200, 50, env, t.TempDir(), append([]string{e2e.HooksupBin, "--config", cfg, "watch"}, args...)...)
		w.WaitText(45*time.Second, "hooksup watch · "+sessions)
		time.Sleep(5 * time.Second) // settled: every connection made, every stream open
		pane, _ := strconv.Atoi(w.Display("#{pane_pid}"))
		var mine []int
		for _, p := range e2e.ChildrenOf(pane) {
			mine = append(mine, p)
			mine = append(mine, e2e.ChildrenOf(p)...) // the watch's ssh processes
		}
		var theirs []int
		for _, p := range srv.RemoteServers() {
			n, _ := strconv.Atoi(p)
			theirs = append(theirs, n)
		}
		before, rBefore := switches(mine), switches(theirs)
		time.Sleep(window)
		after, rAfter := switches(mine), switches(theirs)
		w.Keys("q")
		return float64(after-before) / window.Seconds(), float64(rAfter-rBefore) / window.Seconds()
	}
	alone, _ := measure("1 session", "--local")
	three, remotes := measure("4 sessions", "--host", "remote", "--host", "remote2", "--host", "remote3")
	t.Logf("hooksup watch, this machine alone:           %.1f wake-ups/s", alone)
	t.Logf("hooksup watch, three hosts (watch and ssh): %.1f wake-ups/s; the remotes' three hub-stdio: %.1f wake-ups/s", three, remotes)
}

// switches sums the context switches of every thread of pids.
func switches(pids []int) int {
	n := 0
	for _, pid := range pids {
		tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/status", pid))
		for _, st := range tasks {
			b, err := os.ReadFile(st)
			if err != nil {
				continue
			}
			for _, l := range strings.Split(string(b), "\n") {
				if v, ok := strings.CutPrefix(l, "voluntary_ctxt_switches:"); ok {
					k, _ := strconv.Atoi(strings.TrimSpace(v))
					n += k
				} else if v, ok := strings.CutPrefix(l, "nonvoluntary_ctxt_switches:"); ok {
					k, _ := strconv.Atoi(strings.TrimSpace(v))
					n += k
				}
			}
		}
	}
	return n
}
