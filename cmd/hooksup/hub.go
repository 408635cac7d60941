package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/hooksup/hooksup/hub"
	"github.com/hooksup/hooksup/internal/present"
	"github.com/hooksup/hooksup/internal/runtimedir"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/web"
)

// liveSessions lists this user's live sessions, found through the runtime directory.
func liveSessions() ([]hub.Live, error) {
	dir, err := runtimedir.Dir(os.Getenv)
	if err != nil {
		return nil, err
	}
	return hub.List(dir)
}

// lsJSON is one session in `hooksup ls --json`, as hooksup web's GET /api/sessions gives it.
type lsJSON = web.Session

func lsFlagSet(asJSON *bool, hf *hostFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("ls", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(asJSON, "json", false, "")
	hostFlagsOn(fs, hf)
	return fs
}

// hostFlagsOn defines --host and --local on fs.
func hostFlagsOn(fs *flag.FlagSet, hf *hostFlags) {
	fs.Var(hostList{&hf.hosts}, "host", "")
	fs.BoolVar(&hf.local, "local", false, "")
}

// hubSessions lists the sessions of this machine and of the hosts hf and [hub] hosts name,
// each host's failure written on stderr under cmd's name. The caller closes the scope.
func hubSessions(ctx context.Context, g globalFlags, cmd string, hf hostFlags, stderr io.Writer) ([]hostLive, *hubScope, error) {
	hc, err := hubConfig(g)
	if err != nil {
		return nil, nil, err
	}
	hosts, err := hf.list(hc)
	if err != nil {
		return nil, nil, err
	}
	all, scope, err := gatherSessions(ctx, hc, hosts)
	if err != nil {
		scope.close()
		return nil, nil, err
	}
	scope.printFailed(cmd, stderr)
	return all, scope, nil
}

// runLs is `hooksup ls [--json] [--host DEST]... [--local]`: every live session of this user,
// here and on the hosts. One that speaks another version of the hub protocol, and a host that
// cannot be reached, is named on stderr instead.
func runLs(ctx context.Context, g globalFlags, args []string, stdout, stderr io.Writer) (int, error) {
	const usage = "usage: hooksup ls [--json] [--host DEST]... [--local]"
	var asJSON bool
	var hf hostFlags
	fs := lsFlagSet(&asJSON, &hf)
	if err := parseFlags(fs, args); err != nil {
		return 2, fmt.Errorf("ls: %v (%s)", err, usage)
	}
	if fs.NArg() > 0 {
		return 2, fmt.Errorf("ls takes no arguments, got %q (%s)", fs.Args(), usage)
	}
	all, scope, err := hubSessions(ctx, g, "ls", hf, stderr)
	if err != nil {
		return 1, err
	}
	defer scope.close()
	var live []hostLive
	for _, l := range all {
		if l.Err != nil {
			fmt.Fprintf(stderr, "hooksup ls: session %s (%s): %s\n", l.name(), l.cwd(), termsafe.String(l.Err.Error()))
			continue
		}
		live = append(live, l)
	}
	if asJSON {
		out := make([]lsJSON, 0, len(live))
		for _, l := range live {
			out = append(out, web.SessionOf(l.Live))
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return 0, enc.Encode(out)
	}
	if len(all) == 0 {
		fmt.Fprintln(stdout, "no hooksup sessions running")
	}
	if len(live) == 0 {
		return 0, nil
	}
	// The HOST column only when another machine was asked: this machine's is "-". Every field
	// comes from a session, maybe another machine's: each is shown visibly, on its row and in
	// its column (the tabwriter counts what shows).
	withHost := len(scope.remotes) > 0 || len(scope.failed) > 0
	now := time.Now()
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	if withHost {
		fmt.Fprint(tw, "HOST\t")
	}
	fmt.Fprintln(tw, "SESSION\tAGENT\tSTATE\tFOR\tPENDING\tCONTINUED\tTOKENS\tPROJECT")
	for _, l := range live {
		s := l.Snapshot
		if withHost {
			host := termsafe.String(l.Host)
			if host == "" {
				host = "-"
			}
			fmt.Fprintf(tw, "%s\t", host)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%s\t%s\n", termsafe.String(s.ShortID()), termsafe.String(s.Agent), termsafe.String(lsState(s)),
			since(now, s.StateSince), len(s.Pending), s.Continuations, present.Count(s.Tokens), l.cwd())
	}
	return 0, tw.Flush()
}

// lsState is a session's state as ls shows it: with whom its checks wait for, when they do
// ("stopping, waiting for session 1a2b3c4d (claude, pid 4242)").
func lsState(s hub.Snapshot) string {
	if w := s.Waiting; w != nil {
		return s.State + ", waiting for " + w.Holder().Name()
	}
	return s.State
}

// since words how long ago t was (present.Age); "-" when unknown.
func since(now, t time.Time) string {
	if t.IsZero() || t.After(now) {
		return "-"
	}
	return present.Age(now.Sub(t))
}

func answerFlagSet(cmd string, reason *string, hf *hostFlags) *flag.FlagSet {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if cmd != "deny" {
		fs.StringVar(reason, "reason", "", "")
	}
	hostFlagsOn(fs, hf)
	return fs
}

// runAnswer is `hooksup approve|deny|halt [SESSION] [--reason TEXT] [--host DEST]...`: it
// answers the oldest pending question of SESSION (a unique prefix of a session id or of a
// project directory's name, HOST:PREFIX for one on another machine, a bare prefix searched on
// every machine), or, without SESSION, the one question pending on all of them.
func runAnswer(ctx context.Context, g globalFlags, cmd string, args []string, stdout, stderr io.Writer) (int, error) {
	usage := fmt.Sprintf("usage: hooksup %s [SESSION] [--reason TEXT] [--host DEST]...", cmd)
	if cmd == "deny" {
		usage = "usage: hooksup deny [SESSION] [--host DEST]..."
		for _, a := range args {
			if n := strings.TrimLeft(a, "-"); a != n && (n == "reason" || strings.HasPrefix(n, "reason=")) {
				return 2, errors.New("deny takes no --reason: the agent is let stop (approve --reason replaces the continuation's reason, halt --reason says why the turn ends)")
			}
		}
	}
	reason := new(string)
	var hf hostFlags
	fs := answerFlagSet(cmd, reason, &hf)
	var pos []string
	for {
		if err := parseFlags(fs, args); err != nil {
			return 2, fmt.Errorf("%s: %v (%s)", cmd, err, usage)
		}
		if fs.NArg() == 0 {
			break
		}
		pos, args = append(pos, fs.Arg(0)), fs.Args()[1:]
	}
	if len(pos) > 1 {
		return 2, fmt.Errorf("%s takes one SESSION, got %q (%s)", cmd, pos, usage)
	}
	var host, prefix string
	named := len(pos) == 1
	if named {
		prefix = pos[0]
		if i := strings.LastIndex(prefix, ":"); i > 0 {
			host, prefix = prefix[:i], prefix[i+1:]
			if !hf.local && !slices.Contains(hf.hosts, host) {
				hf.hosts = append(hf.hosts, host)
			}
		}
	}
	live, scope, err := hubSessions(ctx, g, cmd, hf, stderr)
	if err != nil {
		return 1, err
	}
	defer scope.close()
	var target hostLive
	if !named {
		var waiting []hostLive
		n := 0
		for _, l := range live {
			if len(l.Snapshot.Pending) > 0 {
				waiting = append(waiting, l)
				n += len(l.Snapshot.Pending)
			}
		}
		switch {
		case n == 0:
			return 1, errors.New("no question is pending in any session (hooksup ls lists them)")
		case n > 1:
			return 1, fmt.Errorf("%d questions are pending; name the session: %s", n, names(waiting))
		}
		target = waiting[0]
	} else {
		var matches []hostLive
		for _, l := range live {
			s := l.Snapshot
			if host != "" && l.Host != host {
				continue
			}
			if prefix != "" && (strings.HasPrefix(s.SessionID, prefix) || strings.HasPrefix(s.ID, prefix) ||
				strings.HasPrefix(filepath.Base(s.Cwd), prefix)) {
				matches = append(matches, l)
			}
		}
		switch len(matches) {
		case 0:
			return 1, fmt.Errorf("no session matches \"%s\" (hooksup ls lists them)", termsafe.String(pos[0]))
		case 1:
			target = matches[0]
		default:
			return 1, fmt.Errorf("\"%s\" matches %d sessions: %s; give more of the session id", termsafe.String(pos[0]), len(matches), names(matches))
		}
	}
	s := target.Snapshot
	where := fmt.Sprintf("session %s (%s)", target.name(), target.cwd())
	if target.Err != nil {
		return 1, fmt.Errorf("%s: %w", where, target.Err)
	}
	if len(s.Pending) == 0 {
		return 1, fmt.Errorf("%s has no pending question", where)
	}
	q := s.Pending[0]
	decision, _, _ := present.Answer(cmd)
	err = target.resolve(q.ID, string(decision), *reason, "hooksup "+cmd)
	if errors.Is(err, hub.ErrAnswered) {
		return 1, fmt.Errorf("the question in %s was already answered", where)
	}
	if err != nil {
		return 1, fmt.Errorf("%s: %w", where, err)
	}
	line := present.Answered(cmd, q.Event, q.AgentID, where, *reason, q.Reason)
	fmt.Fprintln(stdout, line)
	return 0, nil
}

// names lists sessions for an error: "1a2b3c4d (~/src/a), devbox:5e6f7a8b (~/src/b)".
func names(ls []hostLive) string {
	var out []string
	for _, l := range ls {
		out = append(out, fmt.Sprintf("%s (%s)", l.name(), l.cwd()))
	}
	return strings.Join(out, ", ")
}
