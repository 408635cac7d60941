package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// sshServer is a real OpenSSH server on 127.0.0.1, for this test alone: its own host key, and
// client keys whose sessions get the "remote" runtime directory and a PATH of their own.
type sshServer struct {
	dir    string
	port   int
	config string // the client's ssh -F file: Host remote, bare, old, down
	cmd    *exec.Cmd

	sshd, sshdConfig string
}

// sshdPath is the distribution's sshd; the test is skipped without it, except in CI, where
// .ci/run installs it.
func sshdPath(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"/usr/sbin/sshd", "/usr/local/sbin/sshd"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("sshd"); err == nil {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatal("sshd is not installed (CI must install openssh-server)")
	}
	t.Skip("no sshd: install openssh-server")
	return ""
}

// freePort is a TCP port on 127.0.0.1 nothing listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// startSSHD starts sshd for the hosts of the client's config: remote, remote2 and remote3 (this
// hooksup, remoteRun its runtime directory), bare (no hooksup), old (a hooksup that speaks hub protocol 2), down (a
// port nothing listens on).
func startSSHD(t *testing.T, remoteRun string) *sshServer {
	t.Helper()
	sshd := sshdPath(t)
	if _, err := exec.LookPath("ssh"); err != nil {
		t.Fatal("sshd but no ssh: install openssh-client")
	}
	if os.Geteuid() == 0 {
		// sshd needs its privilege separation directory, which its service makes at boot.
		if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	s := &sshServer{dir: dir, port: freePort(t)}
	keygen := func(name string) {
		if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", filepath.Join(dir, name)).CombinedOutput(); err != nil {
			t.Fatalf("ssh-keygen: %v\n%s", err, out)
		}
	}
	for _, k := range []string{"host", "remote", "bare", "old"} {
		keygen(k)
	}
	bin := filepath.Join(dir, "bin") // the remote's hooksup
	oldBin := filepath.Join(dir, "oldbin")
	for _, d := range []string{bin, oldBin} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(hooksupBin, filepath.Join(bin, "hooksup")); err != nil {
		t.Fatal(err)
	}
	old := "#!/bin/sh\necho '{\"protocol\":2,\"hello\":{\"hooksup\":\"v9.0.0\"}}'\nexec cat >/dev/null\n"
	if err := os.WriteFile(filepath.Join(oldBin, "hooksup"), []byte(old), 0o755); err != nil {
		t.Fatal(err)
	}
	pub := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name+".pub"))
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(b))
	}
	// Each key's sessions name their hooksup's directory in HOOKSUP_TEST_REMOTE, which the
	// remote_command of hubConfigFile runs: the remote's shell start-up files may set PATH.
	keys := fmt.Sprintf("environment=\"HOOKSUP_TEST_REMOTE=%s\",environment=\"XDG_RUNTIME_DIR=%s\" %s\n", bin, remoteRun, pub("remote")) +
		fmt.Sprintf("environment=\"HOOKSUP_TEST_REMOTE=%s\",environment=\"XDG_RUNTIME_DIR=%s\" %s\n", filepath.Join(dir, "nothing"), remoteRun, pub("bare")) +
		fmt.Sprintf("environment=\"HOOKSUP_TEST_REMOTE=%s\",environment=\"XDG_RUNTIME_DIR=%s\" %s\n", oldBin, remoteRun, pub("old"))
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("authorized_keys", keys)
	sshdConfig := write("sshd_config", fmt.Sprintf(`Port %d
ListenAddress 127.0.0.1
HostKey %s/host
AuthorizedKeysFile %s/authorized_keys
PidFile %s/sshd.pid
UsePAM no
StrictModes no
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitUserEnvironment yes
`, s.port, dir, dir, dir))
	var hosts strings.Builder
	for _, h := range []string{"remote", "bare", "old"} {
		fmt.Fprintf(&hosts, "Host %s\n  IdentityFile %s/%s\n  Port %d\n", h, dir, h, s.port)
	}
	for _, h := range []string{"remote2", "remote3"} { // more names of the remote
		fmt.Fprintf(&hosts, "Host %s\n  IdentityFile %s/remote\n  Port %d\n", h, dir, s.port)
	}
	fmt.Fprintf(&hosts, "Host down\n  Port %d\n  IdentityFile %s/remote\n", freePort(t), dir)
	fmt.Fprintf(&hosts, `Host *
  HostName 127.0.0.1
  User %s
  IdentitiesOnly yes
  UserKnownHostsFile %s/known_hosts
  StrictHostKeyChecking accept-new
  BatchMode yes
  LogLevel ERROR
`, currentUser(t), dir)
	s.config = write("ssh_config", hosts.String())
	s.start(t, sshd, sshdConfig)
	return s
}

func currentUser(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("id", "-un").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

func (s *sshServer) start(t *testing.T, sshd, config string) {
	t.Helper()
	s.sshd, s.sshdConfig = sshd, config
	s.run(t)
	t.Cleanup(s.stop)
}

// run starts sshd in a process group of its own and waits until it listens.
func (s *sshServer) run(t *testing.T) {
	t.Helper()
	s.cmd = exec.Command(s.sshd, "-D", "-e", "-f", s.sshdConfig)
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	log, err := os.OpenFile(filepath.Join(s.dir, "sshd.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	s.cmd.Stdout, s.cmd.Stderr = log, log
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; {
		if c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(s.port)); err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(filepath.Join(s.dir, "sshd.log"))
			t.Fatalf("sshd does not listen on %d:\n%s", s.port, b)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stop kills sshd: the listener, and the process serving each connection (each in a session
// of its own, so not in the listener's group), as a machine that goes down would.
func (s *sshServer) stop() {
	if s.cmd == nil {
		return
	}
	for _, pid := range childrenOf(s.cmd.Process.Pid) {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	s.cmd.Wait()
	s.cmd = nil
}

// childrenOf are the processes whose parent is pid.
func childrenOf(pid int) []int {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var out []int
	for _, st := range stats {
		b, err := os.ReadFile(st)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses, the last ")" ends it.
		rest := string(b[strings.LastIndexByte(string(b), ')')+1:])
		f := strings.Fields(rest)
		if len(f) > 1 && f[1] == strconv.Itoa(pid) {
			if n, err := strconv.Atoi(filepath.Base(filepath.Dir(st))); err == nil {
				out = append(out, n)
			}
		}
	}
	return out
}

// hubConfigFile is the other terminal's --config: [hub] ssh through the test's ssh config.
func (s *sshServer) hubConfigFile(t *testing.T, extra string) string {
	t.Helper()
	return hubConfigWith(t, s.config, extra)
}

// hubConfigWith is a --config whose [hub] ssh reads sshConfig.
func hubConfigWith(t *testing.T, sshConfig, extra string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "hub.toml")
	text := fmt.Sprintf("[hub]\nssh = [\"ssh\", \"-F\", %q]\nremote_command = '\"$HOOKSUP_TEST_REMOTE\"/hooksup'\n%s", sshConfig, extra)
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// sshShell runs hooksup --config CFG ARGS in the person's other terminal on this machine, whose
// runtime directory is runDir.
func sshShell(t *testing.T, runDir, cfg string, args ...string) (string, string, int) {
	t.Helper()
	return hubShell(t, runDir, append([]string{"--config", cfg}, args...)...)
}

// Sessions on another machine over a real OpenSSH: listed beside this machine's (ls, ls --json,
// status), answered with HOST:PREFIX and by a bare prefix (approve: the next request carries
// the check's reason; deny: the agent stops; halt: the turn ends), and every way a host fails
// is its own line on stderr while the rest are still listed, within the bound.
func TestHubOverSSH(t *testing.T) {
	const cfgText = `
mode = "ask"
decision_timeout = "10m"
[[stop.checks]]
name = "tests"
command = "echo 'FAIL: TestSSH'; exit 1"
`
	rc1 := newRealClaudeTUI(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("ANSWER-ONE"), mockapi.Text("ONE-CONTINUED"), mockapi.Text("WRONG: AFTER HALT")}})
	rc2 := newRealClaudeTUI(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("ANSWER-TWO"), mockapi.Text("WRONG: A CONTINUATION")}})
	local := newRealClaudeTUI(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("LOCAL")}})
	rc2.env.Setenv("XDG_RUNTIME_DIR", rc1.run)
	remoteRun, localRun := rc1.run, local.run
	srv := startSSHD(t, remoteRun)
	cfg := srv.hubConfigFile(t, "")

	tm1 := rc1.claudeTUI(rc1.config(cfgText), 160, 45)
	tm2 := rc2.claudeTUI(rc2.config(cfgText), 160, 45)
	tmL := local.claudeTUI(local.config(cfgText), 160, 45)
	const wait = 45 * time.Second
	for _, tm := range []*e2e.Tmux{tm1, tm2, tmL} {
		tm.WaitFor("claude's prompt", wait, func(s string) bool { return strings.Contains(s, "manual mode on") })
	}
	typeIntoClaude(t, tm1, "first prompt")
	tm1.Keys("Enter")
	typeIntoClaude(t, tm2, "second prompt")
	tm2.Keys("Enter")
	tm1.WaitText(wait, "ANSWER-ONE", "⚑ claude wants to stop", "FAIL: TestSSH")
	tm2.WaitText(wait, "ANSWER-TWO", "⚑ claude wants to stop", "FAIL: TestSSH")

	// This machine alone does not see the remote's sessions.
	out, errText, code := sshShell(t, localRun, cfg, "ls", "--json")
	var ls []lsJSON
	if code != 0 || json.Unmarshal([]byte(out), &ls) != nil || len(ls) != 1 || ls[0].Host != "" || ls[0].Cwd != local.env.WorkDir {
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
	byCwd := map[string]lsJSON{}
	for _, s := range ls {
		byCwd[s.Cwd] = s
	}
	first, second, here := byCwd[rc1.env.WorkDir], byCwd[rc2.env.WorkDir], byCwd[local.env.WorkDir]
	if len(ls) != 3 || first.Host != "remote" || second.Host != "remote" || here.Host != "" {
		t.Fatalf("ls --json --host remote: want the two remote sessions and this one:\n%s", out)
	}
	for _, s := range []lsJSON{first, second} {
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
	withHosts := srv.hubConfigFile(t, "hosts = [\"remote\"]\n")
	if out, errText, code := sshShell(t, localRun, withHosts, "status", "--format", "{sessions} {pending}"); code != 0 || out != "3 2\n" {
		t.Fatalf("status with [hub] hosts: exit %d, %q %s", code, out, errText)
	}
	if out, errText, code := sshShell(t, localRun, withHosts, "status", "--local", "--format", "{sessions} {pending}"); code != 0 || out != "1 0\n" {
		t.Fatalf("status --local: exit %d, %q %s", code, out, errText)
	}

	// A prefix as short as one character matches both remote sessions' ids or neither; the
	// project directories' common prefix matches every session: ambiguous, listed, exit 1.
	common := commonPrefix(filepath.Base(rc1.env.WorkDir), filepath.Base(rc2.env.WorkDir), filepath.Base(local.env.WorkDir))
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
	main1 := rc1.srv.Main()
	if len(main1) < 2 || !strings.Contains(main1[1].LastUserText(), "FAIL: TestSSH") {
		t.Fatalf("%d requests; the second's last user text %q", len(main1), lastUser(main1))
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
	if n := len(rc2.srv.Main()); n != 1 {
		t.Fatalf("the denied session made %d requests, want 1", n)
	}
	if n := len(rc1.srv.Main()); n != 2 {
		t.Fatalf("the halted session made %d requests, want 2", n)
	}

	// Every way a host fails, each its own line, while this machine's sessions and the
	// remote's are still listed, within the bound.
	// The bound is generous: a loaded machine (the race detector, agents running beside)
	// can take seconds to start the remote's hooksup; the hosts that fail here fail at once.
	const bound = 30 * time.Second
	bounded := srv.hubConfigFile(t, fmt.Sprintf("timeout = %q\n", bound.String()))
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
	srv.waitNoRemoteServers(t)
	// An answer through a host that cannot be reached says so and exits 1.
	if _, errText, code := sshShell(t, localRun, bounded, "approve", "down:"+first.SessionID[:8]); code != 1 ||
		!strings.Contains(errText, "host down: unreachable") || !strings.Contains(errText, "no session matches") {
		t.Fatalf("approve on a host that is down: exit %d, %q", code, errText)
	}
}

// remoteServers are the pids of the remote hooksup hub-stdio processes of s still running.
func (s *sshServer) remoteServers() []string {
	want := filepath.Join(s.dir, "bin", "hooksup") + "\x00" + "hub-stdio"
	cmdlines, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	var pids []string
	for _, c := range cmdlines {
		if b, err := os.ReadFile(c); err == nil && strings.Contains(string(b), want) {
			pids = append(pids, filepath.Base(filepath.Dir(c)))
		}
	}
	return pids
}

// waitNoRemoteServers fails unless every remote hub-stdio has ended: each ends with its ssh.
func (s *sshServer) waitNoRemoteServers(t *testing.T) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; {
		pids := s.remoteServers()
		if len(pids) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("hub-stdio still runs on the remote after the commands ended: pids %v", pids)
		}
		time.Sleep(50 * time.Millisecond)
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
	if os.Getenv("HOOKSUP_FIGURES") == "" {
		t.Skip("prints figures: set HOOKSUP_FIGURES=1")
	}
	rc := newRealClaudeTUI(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("ANSWER")}})
	local := t.TempDir()
	srv := startSSHD(t, rc.run)
	tm := rc.claudeTUI(rc.config(`mode = "ask"`), 160, 45)
	tm.WaitFor("claude's prompt", 45*time.Second, func(s string) bool { return strings.Contains(s, "manual mode on") })

	cmDir, err := os.MkdirTemp("", "cm")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(cmDir)
	base, err := os.ReadFile(srv.config)
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
	sshCold, sshMaster := bare(srv.config), bare(master)
	here := measure(srv.hubConfigFile(t, ""), "ls")
	cold := measure(srv.hubConfigFile(t, ""), "ls", "--host", "remote")
	viaMaster := measure(hubConfigWith(t, master, ""), "ls", "--host", "remote")
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
	const cfgText = `
mode = "ask"
decision_timeout = "10m"
[[stop.checks]]
name = "tests"
command = "echo 'FAIL: TestWatchSSH'; exit 1"
`
	rc := newRealClaudeTUI(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("ANSWER-ONE"), mockapi.Text("ONE-CONTINUED"), mockapi.Text("ONE-AGAIN")}})
	srv := startSSHD(t, rc.run)
	cfg := srv.hubConfigFile(t, "timeout = \"30s\"\n")
	tm := rc.claudeTUI(rc.config(cfgText), 160, 45)
	const wait = 45 * time.Second
	tm.WaitFor("claude's prompt", wait, func(s string) bool { return strings.Contains(s, "manual mode on") })
	typeIntoClaude(t, tm, "first prompt")
	tm.Keys("Enter")
	tm.WaitText(wait, "ANSWER-ONE", "⚑ claude wants to stop", "FAIL: TestWatchSSH")

	localRun := t.TempDir()
	_, env := otherTerminal(t, localRun)
	env = append(env, "TERM=xterm-256color")
	w := e2e.StartTmux(t, 140, 40, env, t.TempDir(), hooksupBin, "--config", cfg, "watch", "--host", "remote")
	project := filepath.Base(rc.env.WorkDir)
	w.WaitText(wait, "remote · "+project+" · claude", "⚑ Stop", "FAIL: TestWatchSSH")
	w.Keys("a")
	tm.WaitText(wait, "ONE-CONTINUED", "continued by you (hooksup watch)")
	main := rc.srv.Main()
	if len(main) < 2 || !strings.Contains(main[1].LastUserText(), "FAIL: TestWatchSSH") {
		t.Fatalf("%d requests; the second's last user text %q", len(main), lastUser(main))
	}

	srv.stop()
	scr := w.WaitText(wait, "remote", "disconnected", "trying again in")
	if strings.Contains(scr, "remote · "+project) {
		t.Fatalf("the remote session is still shown once sshd is gone:\n%s", scr)
	}
	srv.run(t)
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
	if os.Getenv("HOOKSUP_FIGURES") == "" {
		t.Skip("prints figures: set HOOKSUP_FIGURES=1")
	}
	const window = 10 * time.Second
	remote := newSandbox(t)
	remoteRun := filepath.Join(remote.home, "run")
	if err := os.Mkdir(remoteRun, 0o700); err != nil {
		t.Fatal(err)
	}
	srv := startSSHD(t, remoteRun)
	cfg := srv.hubConfigFile(t, "")
	demo := func(s *sandbox, run string) {
		env := append(append([]string{}, s.env...), "TERM=xterm-256color")
		if run != "" {
			env = append(env, "XDG_RUNTIME_DIR="+run)
		}
		tm := e2e.StartTmux(t, 200, 50, env, s.project, hooksupBin, "demo")
		tm.WaitText(45*time.Second, "needs permission")
	}
	demo(remote, remoteRun)
	local := newSandbox(t)
	demo(local, "")
	localRun := ""
	for _, kv := range local.env {
		if v, ok := strings.CutPrefix(kv, "XDG_RUNTIME_DIR="); ok {
			localRun = v
		}
	}

	measure := func(sessions string, args ...string) (watch, remotes float64) {
		_, env := otherTerminal(t, localRun)
		env = append(env, "TERM=xterm-256color")
		w := e2e.StartTmux(t, 200, 50, env, t.TempDir(), append([]string{hooksupBin, "--config", cfg, "watch"}, args...)...)
		w.WaitText(45*time.Second, "hooksup watch · "+sessions)
		time.Sleep(5 * time.Second) // settled: every connection made, every stream open
		pane, _ := strconv.Atoi(w.Display("#{pane_pid}"))
		var mine []int
		for _, p := range childrenOf(pane) {
			mine = append(mine, p)
			mine = append(mine, childrenOf(p)...) // the watch's ssh processes
		}
		var theirs []int
		for _, p := range srv.remoteServers() {
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
