package headless

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/agentsim"
	"github.com/hooksup/hooksup/supervisor"
	"github.com/hooksup/hooksup/verdictlog"
)

// lockedBuffer is a log sink for a server running in another goroutine.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Another local user cannot use a session's socket. (i) The socket's directory is 0700: even
// with the socket itself opened to everyone and the right token, the other user's hook cannot
// connect. (ii) Past the directory (a socket deliberately put in a 0777 directory and made
// 0666), the server checks the peer's uid, refuses the connection before reading a byte of it,
// and logs it. Either way the other user's hook fails open: exit 0, no output.
func TestSecurityOtherUserCannotConnect(t *testing.T) {
	t.Parallel()
	u := e2e.OtherUser(t)
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	pub, err := os.MkdirTemp("", "hsu")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(pub) })
	os.Chmod(pub, 0o777)
	client := filepath.Join(pub, "hooksup-hook")
	bin, _ := os.ReadFile(e2e.HookClientBin)
	if err := os.WriteFile(client, bin, 0o755); err != nil {
		t.Fatal(err)
	}
	// runAs runs the hook client as the other user against sock with token, and returns its
	// exit status, stdout and log.
	runAs := func(t *testing.T, sock, token string) (int, string, string) {
		logPath := filepath.Join(pub, "other-"+e2e.RandomHex(4)+".log")
		cmd := exec.Command(client, "Stop")
		cmd.Env = []string{"HOME=" + pub, "PATH=/usr/bin:/bin", hooks.EnvSocket + "=" + sock, hooks.EnvToken + "=" + token, hooks.EnvLog + "=" + logPath}
		cmd.Stdin = strings.NewReader(e2e.StopJSON)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), NoSetGroups: true}}
		var out bytes.Buffer
		cmd.Stdout = &out
		if err := cmd.Run(); err != nil {
			if _, ok := err.(*exec.ExitError); !ok {
				t.Fatal(err)
			}
		}
		logText, _ := os.ReadFile(logPath)
		return cmd.ProcessState.ExitCode(), out.String(), string(logText)
	}

	t.Run("the private directory keeps it out", func(t *testing.T) {
		s := e2e.NewSandbox(t)
		root := filepath.Dir(s.Home)
		for _, d := range []string{root, filepath.Join(root, "run")} {
			os.Chmod(d, 0o755) // only hooksup's own directory stands in the way
		}
		cfg, started, release := s.GateCheck("")
		ls := s.StartLive(cfg, agentsim.Scenario{}, nil, "-p", "go")
		ls.WaitReady()
		ls.WaitFile(started)
		sock, token := ls.Env(hooks.EnvSocket), ls.Env(hooks.EnvToken)
		if fi, err := os.Stat(filepath.Dir(sock)); err != nil || fi.Mode().Perm() != 0o700 {
			t.Fatalf("socket directory: %v %v", fi.Mode(), err)
		}
		os.Chmod(sock, 0o666) // the directory alone must suffice
		code, out, logText := runAs(t, sock, token)
		if code != 0 || out != "" {
			t.Fatalf("other user's hook: exit %d stdout %q", code, out)
		}
		if !strings.Contains(logText, "supervisor unreachable") || !strings.Contains(logText, "permission denied") {
			t.Fatalf("the other user's log does not say it was kept out:\n%s", logText)
		}
		if n := e2e.AcceptedConns(sock); n != 1 { // claude's own Stop hook only
			t.Fatalf("the supervisor holds %d connections", n)
		}
		os.WriteFile(release, nil, 0o600)
		if code := ls.Wait(20 * time.Second); code != 0 {
			t.Fatalf("exit %d", code)
		}
	})

	t.Run("the peer check refuses it", func(t *testing.T) {
		dir := filepath.Join(pub, "open")
		os.Mkdir(dir, 0o777)
		os.Chmod(dir, 0o777)
		var logBuf lockedBuffer
		token := e2e.RandomHex(24)
		srv, err := supervisor.Listen(filepath.Join(dir, "s.sock"), token, slog.New(slog.NewTextHandler(&logBuf, nil)))
		if err != nil {
			t.Fatal(err)
		}
		os.Chmod(srv.Path, 0o666) // deliberately reachable
		var mu sync.Mutex
		var served []string
		srv.HandleDefault(func(_ context.Context, in *hooks.Input) ([]byte, int) {
			mu.Lock()
			served = append(served, in.SessionID)
			mu.Unlock()
			return hooks.Answer{Decision: hooks.Block, Reason: "only for you"}.Encode()
		})
		ctx, cancel := context.WithCancel(context.Background())
		go srv.Serve(ctx)
		t.Cleanup(func() { cancel(); srv.Close() })

		code, out, otherLog := runAs(t, srv.Path, token)
		if code != 0 || out != "" {
			t.Fatalf("other user's hook: exit %d stdout %q", code, out)
		}
		// Refused before a byte is read: the hook sees its write or its read fail, and allows.
		if !strings.Contains(otherLog, "(allowed)") || !(strings.Contains(otherLog, "gave no answer") || strings.Contains(otherLog, "sending to supervisor")) {
			t.Fatalf("other user's log:\n%s", otherLog)
		}
		want := fmt.Sprintf(`msg="refused a connection from another user" peer_uid=%d`, uid)
		if !strings.Contains(logBuf.String(), want) {
			t.Fatalf("the supervisor's log lacks %q:\n%s", want, logBuf.String())
		}
		// The same call from this user is served.
		cmd := exec.Command(client, "Stop")
		cmd.Env = []string{hooks.EnvSocket + "=" + srv.Path, hooks.EnvToken + "=" + token, hooks.EnvLog + "=" + filepath.Join(pub, "me.log")}
		cmd.Stdin = strings.NewReader(e2e.StopJSON)
		mine, err := cmd.Output()
		if err != nil || !strings.Contains(string(mine), "only for you") {
			t.Fatalf("this user's hook: %v %q", err, mine)
		}
		mu.Lock()
		defer mu.Unlock()
		if len(served) != 1 {
			t.Fatalf("served %d calls, want only this user's", len(served))
		}
	})
}

// A hook with a wrong or missing token is refused: it fails open, and hooksup's log says so
// without the real token or the wrong one.
func TestSecurityWrongOrMissingTokenRefusedAndLogged(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	cfg, started, release := s.GateCheck("")
	ls := s.StartLive(cfg, agentsim.Scenario{}, nil, "-p", "go")
	ls.WaitReady()
	ls.WaitFile(started)
	token := ls.Env(hooks.EnvToken)
	wrong := e2e.RandomHex(24)
	for _, tok := range []string{wrong, ""} {
		cmd := exec.Command(e2e.HookClientBin, "Stop")
		cmd.Env = append(ls.HookEnv(), hooks.EnvToken+"="+tok) // the last value of a variable counts
		cmd.Stdin = strings.NewReader(e2e.StopJSON)
		out, err := cmd.Output()
		if err != nil || len(out) != 0 {
			t.Fatalf("token %q: %v %q", tok, err, out)
		}
	}
	os.WriteFile(release, nil, 0o600)
	if code := ls.Wait(20 * time.Second); code != 0 {
		t.Fatalf("exit %d", code)
	}
	logText, _ := os.ReadFile(filepath.Join(s.StateDir(), "hooksup.log"))
	if n := strings.Count(string(logText), `msg="refused a hook call with a wrong or missing token" event=Stop`); n != 2 {
		t.Fatalf("%d refusals logged, want 2:\n%s", n, logText)
	}
	if n := strings.Count(string(logText), "supervisor refused the call (token) (allowed)"); n != 2 {
		t.Fatalf("%d fail-open lines from the hook, want 2:\n%s", n, logText)
	}
	for name, secret := range map[string]string{"the session token": token, "the wrong token": wrong} {
		if strings.Contains(string(logText), secret) {
			t.Errorf("%s is in hooksup.log", name)
		}
	}
	if got := e2e.Decisions(s.Verdicts()); got != "Stop:allow/checks" {
		t.Fatalf("verdicts %s: a refused call was decided", got)
	}
}

// Under umask 0 the socket directory is 0700, the socket and the injected settings 0600, and
// hooksup's state (log, verdict log) is private too.
func TestSecurityPrivateFilesUnderUmask0(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	cfg, started, release := s.GateCheck("")
	ls := s.StartLiveWith([]string{"/bin/sh", "-c", `umask 000 && exec "$0" "$@"`}, nil, cfg, agentsim.Scenario{}, nil, "-p", "go")
	ls.WaitReady()
	ls.WaitFile(started)
	sock := ls.Env(hooks.EnvSocket)
	live := map[string]os.FileMode{filepath.Dir(sock): 0o700, sock: 0o600, ls.SettingsPath(): 0o600}
	for p, want := range live {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s has mode %o, want %o", p, fi.Mode().Perm(), want)
		}
	}
	os.WriteFile(release, nil, 0o600)
	if code := ls.Wait(20 * time.Second); code != 0 {
		t.Fatalf("exit %d", code)
	}
	vs := s.Verdicts()
	if len(vs) != 1 {
		t.Fatalf("%d verdicts", len(vs))
	}
	sessions := verdictlog.SessionsDir(s.StateDir())
	state := map[string]os.FileMode{
		s.StateDir(): 0o700, filepath.Join(s.StateDir(), "hooksup.log"): 0o600, sessions: 0o700,
		filepath.Join(sessions, vs[0].SessionID): 0o700, filepath.Join(sessions, vs[0].SessionID, "verdicts.jsonl"): 0o600,
	}
	for p, want := range state {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s has mode %o, want %o", p, fi.Mode().Perm(), want)
		}
	}
}

// A hostile repository's .hooksup.toml or .hooksup.local.toml runs nothing until trusted: not
// under `hooksup claude`, not in `hooksup check`, not in the standalone `hooksup hook Stop` that
// `hooksup install` registers.
func TestSecurityUntrustedProjectConfigNeverRuns(t *testing.T) {
	t.Parallel()
	for _, file := range []string{".hooksup.toml", ".hooksup.local.toml"} {
		t.Run(file, func(t *testing.T) {
			s := e2e.NewSandbox(t)
			pwned := filepath.Join(s.Project, "PWNED")
			hostile := fmt.Sprintf("mode = \"auto\"\n[[stop.checks]]\nname = \"innocent\"\ncommand = \"touch %[1]s\"\n[[subagent_stop.checks]]\nname = \"x\"\ncommand = \"touch %[1]s\"\n", pwned)
			path := filepath.Join(s.Project, file)
			if err := os.WriteFile(path, []byte(hostile), 0o644); err != nil {
				t.Fatal(err)
			}
			ignoring := "hooksup: ignoring " + path + ": not trusted: run `hooksup trust` to use it"

			r := s.RunSim("", agentsim.Scenario{Subagents: 1}, "-p", "x")
			if r.Code != 0 || !strings.Contains(r.Stderr, ignoring) {
				t.Fatalf("hooksup claude: exit %d stderr:\n%s", r.Code, r.Stderr)
			}
			if got := e2e.Decisions(r.Verdicts); got != "SubagentStop:allow/nochecks Stop:allow/nochecks" {
				t.Fatalf("verdicts %s", got)
			}

			cmd := e2e.ExecHooksup(s, "check")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			cmd.Run()
			// It fails, as a file that may not be used is no "no checks".
			if cmd.ProcessState.ExitCode() != 1 || stdout.Len() != 0 || !strings.Contains(stderr.String(), path+" is not trusted: run `hooksup trust` to use it") {
				t.Fatalf("hooksup check: exit %d\n%s%s", cmd.ProcessState.ExitCode(), stdout.String(), stderr.String())
			}

			for _, argv := range [][]string{{"hook", "Stop"}, {"hook", "Stop", "--installed"}, {"hook", "SubagentStop", "--installed"}} {
				cmd = e2e.ExecHooksup(s, argv...)
				cmd.Stdin = strings.NewReader(fmt.Sprintf(`{"session_id":"sa-%s","cwd":%q,"hook_event_name":%q,"stop_hook_active":false}`, e2e.RandomHex(4), s.Project, argv[1]))
				out, err := cmd.Output()
				if err != nil || !strings.Contains(string(out), "not trusted") || strings.Contains(string(out), `"decision"`) {
					t.Fatalf("hooksup %v: %v %s", argv, err, out)
				}
			}
			if _, err := os.Stat(pwned); err == nil {
				t.Fatal("an untrusted project config ran a command")
			}
		})
	}
}

// A request whose header claims more than the cap is refused from the header: the supervisor
// answers while the body was never sent. The hook client, given such input by claude, does
// not send it at all and allows.
func TestSecurityOversizedInputRefusedFromHeader(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	cfg, started, release := s.GateCheck("")
	ls := s.StartLive(cfg, agentsim.Scenario{}, nil, "-p", "go")
	ls.WaitReady()
	ls.WaitFile(started)
	sock, token := ls.Env(hooks.EnvSocket), ls.Env(hooks.EnvToken)
	for _, tc := range []struct{ token, want string }{
		{token, "HOOKSUP/1 size 0 0\n"},
		{"wrong", "HOOKSUP/1 token 0 0\n"}, // a stranger learns nothing about the cap
	} {
		c, err := net.Dial("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(c, "HOOKSUP/1 %s Stop %d\n", tc.token, hooks.MaxPayload+1)
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		resp, _ := e2e.ReadAll(c) // the body is never sent: the answer comes anyway
		c.Close()
		if resp != tc.want {
			t.Fatalf("got %q, want %q", resp, tc.want)
		}
	}
	cmd := exec.Command(e2e.HookClientBin, "Stop")
	cmd.Env = ls.HookEnv()
	cmd.Stdin = io.MultiReader(strings.NewReader(`{"last_assistant_message":"`), bytes.NewReader(bytes.Repeat([]byte("x"), hooks.MaxPayload)), strings.NewReader(`"}`))
	out, err := cmd.Output()
	if err != nil || len(out) != 0 {
		t.Fatalf("oversized input: %v %q", err, out)
	}
	os.WriteFile(release, nil, 0o600)
	if code := ls.Wait(20 * time.Second); code != 0 {
		t.Fatalf("exit %d", code)
	}
	logText, _ := os.ReadFile(filepath.Join(s.StateDir(), "hooksup.log"))
	for _, want := range []string{
		fmt.Sprintf(`msg="refused a hook call over the size cap" event=Stop bytes=%d`, hooks.MaxPayload+1),
		fmt.Sprintf(`hook Stop: input over %d bytes (allowed)`, hooks.MaxPayload),
	} {
		if !strings.Contains(string(logText), want) {
			t.Errorf("hooksup.log lacks %q:\n%s", want, logText)
		}
	}
}

// No secret reaches what hooksup writes: neither the session token nor an ANTHROPIC_API_KEY
// from the environment appears in hooksup's log (at --debug), the verdict log, the injected
// settings file or hooksup's stderr — over a session with blocks, subagents and refused calls.
func TestSecurityNoSecretsInLogsOrSettings(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	apiKey := "sk-ant-api03-HOOKSUPFAKE" + e2e.RandomHex(16)
	marker := filepath.Join(s.Project, "marker")
	cfg, started, release := s.GateCheck(fmt.Sprintf(`
[[subagent_stop.checks]]
name = "once"
command = "test -f %[1]s || { touch %[1]s; echo failing once; exit 1; }"
`, marker))
	ls := s.StartLiveWith(nil, []string{"--debug"}, cfg, agentsim.Scenario{Subagents: 2, Permission: true}, []string{"ANTHROPIC_API_KEY=" + apiKey}, "-p", "go")
	ls.WaitReady()
	ls.WaitFile(started)
	token := ls.Env(hooks.EnvToken)
	if token == "" || ls.Env("ANTHROPIC_API_KEY") != apiKey {
		t.Fatal("claude did not get the token and the key")
	}
	cmd := exec.Command(e2e.HookClientBin, "Stop")
	cmd.Env = append(ls.HookEnv(), hooks.EnvToken+"=not-"+token)
	cmd.Stdin = strings.NewReader(e2e.StopJSON)
	cmd.Run()
	os.WriteFile(release, nil, 0o600)
	if code := ls.Wait(20 * time.Second); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if len(s.Verdicts()) < 4 {
		t.Fatalf("verdicts %s", e2e.Decisions(s.Verdicts()))
	}
	written := map[string]string{
		"the injected settings": filepath.Join(ls.Rec, "settings.json"), // copied while claude ran
		"hooksup's stderr":      ls.Stderr,
	}
	filepath.Walk(s.StateDir(), func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			written[p] = p
		}
		return nil
	})
	if len(written) < 4 {
		t.Fatalf("too few files to look at: %v", written)
	}
	for what, p := range written {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for name, secret := range map[string]string{"session token": token, "ANTHROPIC_API_KEY": apiKey, "key's tail": apiKey[len(apiKey)-12:]} {
			if bytes.Contains(b, []byte(secret)) {
				t.Errorf("the %s is in %s", name, what)
			}
		}
	}
}
