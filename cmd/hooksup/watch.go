package main

import (
	"fmt"
	"io"
	"os"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/hub"
	"github.com/hooksup/hooksup/supervisor"
	"github.com/hooksup/hooksup/tui"
)

// watchHub is the machine's sessions for `hooksup watch`, through the runtime directory and
// their control sockets.
type watchHub struct{ dir string }

func (h watchHub) List() ([]hub.Live, error) { return hub.List(h.dir) }

func (watchHub) Snapshot(l hub.Live) (hub.Snapshot, error) {
	return hub.Client{Path: l.Entry.Control}.Snapshot()
}

func (watchHub) Resolve(l hub.Live, id int, d hooks.Decision, reason string) error {
	return hub.Client{Path: l.Entry.Control}.Resolve(id, string(d), reason, tui.WatchBy)
}

func (watchHub) Events(l hub.Live, f func(hub.Event) bool) error {
	return hub.Client{Path: l.Entry.Control}.Events(f)
}

// runWatch is `hooksup watch`: every live session of this user, live, answered from here with
// the session TUI's keys and theme.
func runWatch(g globalFlags, args []string, stderr io.Writer) (int, error) {
	if len(args) > 0 {
		return 2, fmt.Errorf("watch takes no arguments, got %q (usage: hooksup watch)", args)
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
	dir, err := supervisor.RuntimeDir(os.Getenv)
	if err != nil {
		return 1, err
	}
	if err := tui.RunWatch(watchHub{dir}, theme, cfg.Keys.Prefix, cfg.Keys.Bindings); err != nil {
		return 1, err
	}
	return 0, nil
}
