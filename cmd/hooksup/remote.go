package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/hub"
	"github.com/hooksup/hooksup/internal/present"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/session"
)

// hostFlags are the flags that choose the machines a hub command reaches.
type hostFlags struct {
	hosts []string
	local bool
}

// hostList is a repeatable --host.
type hostList struct{ hosts *[]string }

func (h hostList) String() string { return "" }
func (h hostList) Set(v string) error {
	if v == "" || strings.HasPrefix(v, "-") {
		return errors.New("--host takes a host ssh accepts") // parseFlags names the value
	}
	*h.hosts = append(*h.hosts, v)
	return nil
}

// hubConfig is the [hub] table of the user's configuration (and --config's): the project's
// files have no say in which machines hooksup logs in to.
func hubConfig(g globalFlags) (config.HubConfig, error) {
	dir, err := config.UserConfigDir(os.Getenv)
	if err != nil {
		return config.HubConfig{}, err
	}
	cfg, _, err := config.Load(config.LoadOptions{UserConfigDir: dir, ExplicitFile: g.config})
	if err != nil {
		return config.HubConfig{}, err
	}
	return cfg.Hub, nil
}

// hosts are the machines to reach besides this one: [hub] hosts and every --host, in that
// order, each once; none with --local.
func (f hostFlags) list(hc config.HubConfig) ([]string, error) {
	if f.local {
		if len(f.hosts) > 0 {
			return nil, errors.New("--local lists this machine only: it takes no --host")
		}
		return nil, nil
	}
	var out []string
	for _, h := range append(slices.Clone(hc.Hosts), f.hosts...) {
		if !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	return out, nil
}

// hostLive is a session on this machine (host "") or on another one, with the connection that
// reaches it.
type hostLive struct {
	hub.Live
	remote *hub.Remote
}

// resolve answers question q of the session, where it runs.
func (l hostLive) resolve(q int, decision, reason, by string) error {
	if l.remote == nil {
		return hub.Client{Path: l.Entry.Control}.Resolve(q, decision, reason, by)
	}
	return l.remote.Resolve(l.Entry.ID, q, decision, reason, by)
}

// resumeGoal resumes the session's goal with budget b, where it runs.
func (l hostLive) resumeGoal(b session.GoalBudget) error {
	if l.remote == nil {
		return hub.Client{Path: l.Entry.Control}.ResumeGoal(b)
	}
	return l.remote.ResumeGoal(l.Entry.ID, b)
}

// name is how the session is named to people: its short id, HOST:ID for another machine's;
// shown visibly.
func (l hostLive) name() string {
	if l.Host == "" {
		return termsafe.String(l.Snapshot.ShortID())
	}
	return termsafe.String(l.Host + ":" + l.Snapshot.ShortID())
}

// cwd is the session's project directory for people: ~ for this machine's home; shown visibly.
func (l hostLive) cwd() string {
	if l.Host == "" {
		return present.HomeTilde(l.Snapshot.Cwd)
	}
	return termsafe.String(l.Snapshot.Cwd)
}

// hubScope is the machines one hub command reaches, with their connections.
type hubScope struct {
	remotes []*hub.Remote
	// failed are the hosts that could not be reached or listed, each a *hub.HostError, in the
	// order of the hosts.
	failed []error
}

func (s *hubScope) close() {
	var wg sync.WaitGroup
	for _, r := range s.remotes {
		wg.Go(r.Close)
	}
	wg.Wait()
}

// transport is how hc's [hub] says other machines are reached.
func transport(hc config.HubConfig) hub.Transport {
	return hub.Transport{SSH: hc.SSH, RemoteCommand: hc.RemoteCommand, Timeout: hc.Timeout.D}
}

// gatherSessions lists the sessions of this machine and of each host, all at once, each host
// within the transport's bound. A host that fails is in the scope's failed, never hiding the
// others. The caller closes the scope.
func gatherSessions(ctx context.Context, hc config.HubConfig, hosts []string) ([]hostLive, *hubScope, error) {
	t := transport(hc)
	scope := &hubScope{}
	type result struct {
		remote *hub.Remote
		live   []hub.Live
		err    error
	}
	results := make([]result, len(hosts))
	var wg sync.WaitGroup
	for i, h := range hosts {
		wg.Go(func() {
			r, err := hub.Dial(ctx, t, h)
			if err != nil {
				results[i].err = err
				return
			}
			results[i].remote = r
			results[i].live, results[i].err = r.List()
		})
	}
	local, lerr := liveSessions()
	wg.Wait()
	var out []hostLive
	for _, l := range local {
		out = append(out, hostLive{Live: l})
	}
	for i, res := range results {
		if res.remote != nil {
			scope.remotes = append(scope.remotes, res.remote)
		}
		if res.err != nil {
			if _, ok := errors.AsType[*hub.HostError](res.err); !ok {
				res.err = fmt.Errorf("host %s: %w", hosts[i], res.err)
			}
			scope.failed = append(scope.failed, res.err)
			continue
		}
		for _, l := range res.live {
			out = append(out, hostLive{Live: l, remote: res.remote})
		}
	}
	return out, scope, lerr
}

// printFailed writes each host's failure on stderr, one line each: what ssh or the host said
// shown visibly.
func (s *hubScope) printFailed(cmd string, stderr io.Writer) {
	for _, err := range s.failed {
		fmt.Fprintf(stderr, "hooksup %s: %s\n", cmd, termsafe.String(err.Error()))
	}
}
