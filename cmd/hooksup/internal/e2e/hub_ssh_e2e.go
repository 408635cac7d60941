package e2e

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// SshServer is a real OpenSSH server on 127.0.0.1, for this test alone: its own host key, and
// client keys whose sessions get the "remote" runtime directory and a PATH of their own.
type SshServer struct {
	dir    string
	port   int
	Config string // the client's ssh -F file: Host remote, bare, old, down
	cmd    *exec.Cmd

	sshd, sshdConfig string
}

// SshdPath is the distribution's sshd; the test is skipped without it, except in CI, where
// .ci/run installs it.
func SshdPath(t *testing.T) string {
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

// FreePort is a TCP port on 127.0.0.1 nothing listens on now.
func FreePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// StartSSHD starts sshd for the hosts of the client's config: remote, remote2 and remote3 (this
// hooksup, remoteRun its runtime directory), bare (no hooksup), old (a hooksup that speaks hub protocol 2), down (a
// port nothing listens on).
func StartSSHD(t *testing.T, remoteRun string) *SshServer {
	t.Helper()
	sshd := SshdPath(t)
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
	s := &SshServer{dir: dir, port: FreePort(t)}
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
	if err := os.Symlink(HooksupBin, filepath.Join(bin, "hooksup")); err != nil {
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
	fmt.Fprintf(&hosts, "Host down\n  Port %d\n  IdentityFile %s/remote\n", FreePort(t), dir)
	fmt.Fprintf(&hosts, `Host *
  HostName 127.0.0.1
  User %s
  IdentitiesOnly yes
  UserKnownHostsFile %s/known_hosts
  StrictHostKeyChecking accept-new
  BatchMode yes
  LogLevel ERROR
`, CurrentUser(t), dir)
	s.Config = write("ssh_config", hosts.String())
	s.start(t, sshd, sshdConfig)
	return s
}

func CurrentUser(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("id", "-un").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

func (s *SshServer) start(t *testing.T, sshd, config string) {
	t.Helper()
	s.sshd, s.sshdConfig = sshd, config
	s.Run(t)
	t.Cleanup(s.Stop)
}

// Run starts sshd in a process group of its own and waits until it listens.
func (s *SshServer) Run(t *testing.T) {
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

// Stop kills sshd: the listener, and the process serving each connection (each in a session
// of its own, so not in the listener's group), as a machine that goes down would.
func (s *SshServer) Stop() {
	if s.cmd == nil {
		return
	}
	for _, pid := range ChildrenOf(s.cmd.Process.Pid) {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	s.cmd.Wait()
	s.cmd = nil
}

// ChildrenOf are the processes whose parent is pid.
func ChildrenOf(pid int) []int {
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

// HubConfigFile is the other terminal's --config: [hub] ssh through the test's ssh config.
func (s *SshServer) HubConfigFile(t *testing.T, extra string) string {
	t.Helper()
	return HubConfigWith(t, s.Config, extra)
}

// HubConfigWith is a --config whose [hub] ssh reads sshConfig.
func HubConfigWith(t *testing.T, sshConfig, extra string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "hub.toml")
	text := fmt.Sprintf("[hub]\nssh = [\"ssh\", \"-F\", %q]\nremote_command = '\"$HOOKSUP_TEST_REMOTE\"/hooksup'\n%s", sshConfig, extra)
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// RemoteServers are the pids of the remote hooksup hub-stdio processes of s still running.
func (s *SshServer) RemoteServers() []string {
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

// WaitNoRemoteServers fails unless every remote hub-stdio has ended: each ends with its ssh.
func (s *SshServer) WaitNoRemoteServers(t *testing.T) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; {
		pids := s.RemoteServers()
		if len(pids) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("hub-stdio still runs on the remote after the commands ended: pids %v", pids)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
