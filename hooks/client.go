package hooks

import (
	"bufio"
	"fmt"
	"github.com/hooksup/hooksup/internal/userdirs"
	"io"
	"net"
	"os"
	"path/filepath"
	"time"
)

// DefaultDialTimeout bounds the connect to the supervisor. A live supervisor accepts at once; a
// wedged or missing one must not hold claude up.
const DefaultDialTimeout = 2 * time.Second

// Client is `hooksup hook EVENT`: it relays claude's hook input to the supervisor and prints
// the answer. It fails open: whatever goes wrong on hooksup's side, claude gets exit 0 and no
// output (it may stop), and the failure goes to hooksup's log. It does nothing at start-up that
// the allow path does not need: no config, no logger.
type Client struct {
	// Getenv reads the environment (os.Getenv when nil).
	Getenv func(string) string
	// Dial connects to the socket (a unix dial with DialTimeout when nil).
	Dial func(path string) (net.Conn, error)
	// Standalone answers when no supervisor is set in the environment (allow when nil).
	Standalone func(event string, payload []byte, stdout, stderr io.Writer) int
	// Now is the clock for log lines (time.Now when nil).
	Now func() time.Time
	// Installed: this hook was registered by `hooksup install`. Under a supervisor it steps
	// aside (exit 0 at once): the supervisor's injected hook decides.
	Installed bool
}

// Run handles one hook call and returns the exit code for claude. Even a panic answers exit 0:
// Go's exit status 2 for a panic would block claude's stop with the stack trace as the reason.
func (c Client) Run(event string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	getenv := c.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	defer func() {
		if r := recover(); r != nil {
			c.logf(getenv, "hook %s: panic: %v (allowed)", event, r)
			code = 0
		}
	}()
	payload, err := io.ReadAll(io.LimitReader(stdin, MaxPayload+1))
	if err != nil {
		c.logf(getenv, "hook %s: reading stdin: %v (allowed)", event, err)
		return 0
	}
	if len(payload) > MaxPayload {
		c.logf(getenv, "hook %s: input over %d bytes (allowed)", event, MaxPayload)
		return 0
	}
	sock := getenv(EnvSocket)
	if sock != "" && c.Installed {
		return 0
	}
	if sock == "" {
		if c.Standalone != nil {
			// It finds its directories itself: a relative XDG variable it ignores is logged,
			// never printed, for the agent reads what the hook prints.
			for _, v := range userdirs.IgnoredVars(getenv) {
				c.logf(getenv, "hook %s: %s", event, v)
			}
			return c.Standalone(event, payload, stdout, stderr)
		}
		return 0
	}
	dial := c.Dial
	if dial == nil {
		dial = func(path string) (net.Conn, error) {
			return net.DialTimeout("unix", path, DefaultDialTimeout)
		}
	}
	conn, err := dial(sock)
	if err != nil {
		c.logf(getenv, "hook %s: supervisor unreachable at %s: %v (allowed)", event, sock, err)
		return 0
	}
	defer conn.Close()
	if err := WriteRequest(conn, Request{Token: getenv(EnvToken), Event: event, Payload: payload}); err != nil {
		c.logf(getenv, "hook %s: sending to supervisor: %v (allowed)", event, err)
		return 0
	}
	resp, err := ReadResponse(bufio.NewReader(conn))
	if err != nil {
		c.logf(getenv, "hook %s: supervisor gave no answer: %v (allowed)", event, err)
		return 0
	}
	if resp.Status != "ok" {
		c.logf(getenv, "hook %s: supervisor refused the call (%s) (allowed)", event, resp.Status)
		return 0
	}
	if len(resp.Stdout) > 0 {
		if _, err := stdout.Write(resp.Stdout); err != nil {
			c.logf(getenv, "hook %s: writing the answer: %v", event, err)
			return 0
		}
	}
	return resp.Exit
}

// logf appends one line to hooksup's log. Errors here have nowhere to go: claude must not see
// them, so they are dropped.
// Logf writes one line to hooksup's log, as the client's own failures are written there.
func (c Client) Logf(format string, args ...any) {
	getenv := c.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	c.logf(getenv, format, args...)
}

func (c Client) logf(getenv func(string) string, format string, args ...any) {
	path := getenv(EnvLog)
	if path == "" {
		dir, err := StateDir(getenv)
		if err != nil {
			return // no absolute home: nowhere to log, and never under the current directory
		}
		path = filepath.Join(dir, "hooksup.log")
	}
	now := time.Now
	if c.Now != nil {
		now = c.Now
	}
	_ = os.MkdirAll(filepath.Dir(path), 0o700)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "time=%s level=WARN src=hook msg=%q\n", now().Format(time.RFC3339Nano), fmt.Sprintf(format, args...))
}

// StateDir is hooksup's state directory: $XDG_STATE_HOME/hooksup, else ~/.local/state/hooksup;
// userdirs.ErrNoHome when neither is an absolute path.
func StateDir(getenv func(string) string) (string, error) { return userdirs.State(getenv) }
