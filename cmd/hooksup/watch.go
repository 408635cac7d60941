package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/hooksup/hooksup/agent/agents"
	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/hub"
	"github.com/hooksup/hooksup/internal/hangup"
	"github.com/hooksup/hooksup/internal/keymap"
	"github.com/hooksup/hooksup/internal/runtimedir"
	"github.com/hooksup/hooksup/tui"
)

// watchHub is the sessions for `hooksup watch` and `hooksup web`: this machine's, through the
// runtime directory and their control sockets, and each host's through its connection
// (watchHost). Its answers say they come from by.
type watchHub struct {
	dir   string
	hosts []*watchHost
	by    string
}

func (h watchHub) List() ([]hub.Live, error) {
	lists := make([][]hub.Live, len(h.hosts))
	var wg sync.WaitGroup
	for i, c := range h.hosts {
		wg.Go(func() { lists[i] = c.list() })
	}
	out, err := hub.List(h.dir)
	wg.Wait()
	for _, l := range lists {
		out = append(out, l...)
	}
	return out, err
}

// ListHost is one host's sessions ("" for this machine's), its card when it cannot be reached.
func (h watchHub) ListHost(host string) ([]hub.Live, error) {
	if host == "" {
		return hub.List(h.dir)
	}
	for _, c := range h.hosts {
		if c.name == host {
			return c.list(), nil
		}
	}
	return nil, nil
}

// host is the connection of l's host; nil for this machine's.
func (h watchHub) host(l hub.Live) (*hub.Remote, error) {
	if l.Host == "" {
		return nil, nil
	}
	for _, c := range h.hosts {
		if c.name == l.Host {
			return c.remote()
		}
	}
	return nil, fmt.Errorf("no host %s", l.Host)
}

func (h watchHub) Snapshot(l hub.Live) (hub.Snapshot, error) {
	r, err := h.host(l)
	if err != nil {
		return hub.Snapshot{}, err
	}
	if r != nil {
		return r.Snapshot(l.Entry.ID)
	}
	return hub.Client{Path: l.Entry.Control}.Snapshot()
}

func (h watchHub) Resolve(l hub.Live, id int, d hooks.Decision, reason string) error {
	r, err := h.host(l)
	if err != nil {
		return err
	}
	if r != nil {
		return r.Resolve(l.Entry.ID, id, string(d), reason, h.by)
	}
	return hub.Client{Path: l.Entry.Control}.Resolve(id, string(d), reason, h.by)
}

func (h watchHub) Interrupt(l hub.Live) error {
	r, err := h.host(l)
	if err != nil {
		return err
	}
	if r != nil {
		return r.Interrupt(l.Entry.ID)
	}
	return hub.Client{Path: l.Entry.Control}.Interrupt()
}

func (h watchHub) Events(l hub.Live, f func(hub.Event) bool) error {
	r, err := h.host(l)
	if err != nil {
		return err
	}
	if r != nil {
		return r.Events(l.Entry.ID, f)
	}
	return hub.Client{Path: l.Entry.Control}.Events(f)
}

// newWatchHub is this machine's sessions in dir and those of hosts, reached as hc says,
// answered by by.
func newWatchHub(dir string, hc config.HubConfig, hosts []string, by string) watchHub {
	wh := watchHub{dir: dir, by: by}
	t := transport(hc)
	for _, h := range hosts {
		wh.hosts = append(wh.hosts, &watchHost{name: h, t: t})
	}
	return wh
}

func (h watchHub) close() {
	for _, c := range h.hosts {
		c.close()
	}
}

// Reconnection's backoff: the first wait after a host fails, doubled at each failure up to
// the last.
const (
	watchBackoffFirst = time.Second
	watchBackoffMax   = 30 * time.Second
)

// watchHost is one host's connection for the watch's life: made at the first list, and, once
// it fails or drops, made again at a list after a wait that doubles at each failure. Lists may
// come at once (hooksup web's): one dials while the others wait for it.
type watchHost struct {
	name string
	t    hub.Transport

	dial    sync.Mutex // held while dialling
	mu      sync.Mutex
	conn    *hub.Remote
	err     error     // why there is no connection
	retryAt time.Time // no connection is tried before
	wait    time.Duration
}

func (c *watchHost) remote() (*hub.Remote, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn == nil {
		return nil, &hub.HostError{Host: c.name, Err: hub.ErrDropped}
	}
	return c.conn, nil
}

// list is the host's sessions, or, without a connection, its card: the host and why.
func (c *watchHost) list() []hub.Live {
	c.dial.Lock()
	c.mu.Lock()
	conn, due := c.conn, time.Now().After(c.retryAt)
	c.mu.Unlock()
	if conn == nil && due {
		r, err := hub.Dial(context.Background(), c.t, c.name)
		c.mu.Lock()
		if err != nil {
			c.failed(err)
		} else {
			c.conn, c.err, c.wait = r, nil, 0
		}
		conn = c.conn
		c.mu.Unlock()
	}
	c.dial.Unlock()
	if conn != nil {
		lives, err := conn.List()
		if err == nil {
			return lives
		}
		c.mu.Lock()
		if c.conn == conn {
			c.conn = nil
			c.failed(err)
		}
		c.mu.Unlock()
		go conn.Close()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	err := c.err
	var msg string
	if herr, ok := errors.AsType[*hub.HostError](err); ok && herr.Host == c.name {
		msg = strings.TrimPrefix(herr.Error(), "host "+c.name+": ")
	} else {
		msg = err.Error()
	}
	wait := max(time.Until(c.retryAt), 0).Round(time.Second)
	card := fmt.Errorf("disconnected: %s; trying again in %v", msg, wait)
	return []hub.Live{{Entry: hub.Entry{ID: "host " + c.name}, Snapshot: hub.Snapshot{ID: "host " + c.name, Pending: []hub.Question{}},
		Err: card, Host: c.name}}
}

// failed records err and when to try again. c.mu is held.
func (c *watchHost) failed(err error) {
	c.err = err
	if c.wait == 0 {
		c.wait = watchBackoffFirst
	} else {
		c.wait = min(2*c.wait, watchBackoffMax)
	}
	c.retryAt = time.Now().Add(c.wait)
}

func (c *watchHost) close() {
	c.mu.Lock()
	conn := c.conn
	c.conn = nil
	c.mu.Unlock()
	if conn != nil {
		conn.Close()
	}
}

func watchFlagSet(hf *hostFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("watch", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	hostFlagsOn(fs, hf)
	return fs
}

// runWatch is `hooksup watch`: every live session of this user, live, answered from here with
// the session TUI's keys and theme, until the person quits or ctx ends.
func runWatch(ctx context.Context, g globalFlags, args []string, stdout, stderr io.Writer) (int, error) {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		fmt.Fprint(stdout, watchHelp())
		return 0, nil
	}
	const usage = "usage: hooksup watch [--host DEST]... [--local]"
	var hf hostFlags
	fs := watchFlagSet(&hf)
	if err := parseFlags(fs, args); err != nil {
		return 2, fmt.Errorf("watch: %v (%s)", err, usage)
	}
	if fs.NArg() > 0 {
		return 2, fmt.Errorf("watch takes no arguments, got %q (%s)", fs.Args(), usage)
	}
	hc, err := hubConfig(g)
	if err != nil {
		return 1, err
	}
	hosts, err := hf.list(hc)
	if err != nil {
		return 2, err
	}
	env, err := loadEnvironment()
	if err != nil {
		return 1, err
	}
	cfg, err := loadConfig(g, env, stderr)
	if err != nil {
		return 1, err
	}
	theme, err := resolveTheme(env, cfg.Theme)
	if err != nil {
		return 1, fmt.Errorf("%w (hooksup themes lists them)", err)
	}
	dir, err := runtimedir.Dir(os.Getenv)
	if err != nil {
		return 1, err
	}
	wh := newWatchHub(dir, hc, hosts, tui.WatchBy)
	defer wh.close()
	err = tui.RunWatch(ctx, wh, theme, cfg.Keys.Prefix, cfg.Keys.Bindings, "hooksup "+agents.Default().Name())
	if err != nil && !errors.Is(err, hangup.ErrHangup) { // a terminal gone hears nothing more
		return 1, err
	}
	return 0, nil
}

// watchHelp is `hooksup watch --help`: what the watch shows and its keys, as they are by default.
func watchHelp() string {
	p := program()
	c, _ := p.Lookup("watch")
	help := func(name string) string { a, _ := keymap.Lookup(name); return a.Help }
	keys := func(name string) string {
		a, _ := keymap.Lookup(name)
		shown := make([]string, len(a.Keys))
		for i, k := range a.Keys {
			shown[i] = keymap.Display(k)
		}
		return strings.Join(shown, "/")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "usage: %s\n\n%s.\n\n", p.Synopsis(c), c.Help)
	fmt.Fprintf(&b, "Flags:\n")
	for _, f := range c.Flags {
		fmt.Fprintf(&b, "  %-12s %s\n", f.Synopsis(), f.Help)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "Keys, the session TUI's (your [keys] bindings apply; the prefix %s before them is\naccepted, not needed):\n",
		keymap.Display(keymap.DefaultPrefix))
	for _, l := range [][2]string{
		{keys(keymap.Up) + "  " + keys(keymap.Down), "select the previous / the next session"},
		{keys(keymap.Approve), help(keymap.Approve)},
		{keys(keymap.Deny), help(keymap.Deny)},
		{keys(keymap.Edit), help(keymap.Edit) + " (" + keys(keymap.Send) + " sends it, " + keys(keymap.Clear) + " clears it, " + keys(keymap.Cancel) + " cancels)"},
		{keys(keymap.Halt), help(keymap.Halt)},
		{keymap.Escape, "interrupt, as Escape pressed in the session: its questions are let stop, its checks\n" +
			"             killed, its further stops allowed, and the agent at work is sent the key"},
		{keys(keymap.Quit), "quit the watch (the sessions run on)"},
	} {
		fmt.Fprintf(&b, "  %-10s %s\n", l[0], l[1])
	}
	b.WriteString("\nThe verdicts' source is manual (hooksup watch); Escape's is escape.\n")
	return b.String()
}
