package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/hooksup/hooksup/hub"
	"github.com/hooksup/hooksup/internal/cli"
	"github.com/hooksup/hooksup/internal/present"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/web"
)

// lsJSON is one session in `hooksup ls --json`, as hooksup web's GET /api/sessions gives it.
type lsJSON = web.Session

func lsFlagSet(asJSON *bool, hf *hostFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("ls", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(asJSON, "json", false, "")
	hostFlagsOn(fs, hf)
	return fs
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

func lsCommand(s shared) command {
	return command{
		Command: cli.Command{Name: "ls", Group: groupSessions, Flags: append([]cli.Flag{{Name: "json", Help: "an array of objects, pending questions included"}}, s.hostFlags...),
			Summary: "every live session, here and on the [hub] hosts",
			Help:    "every live hooksup session of this user, here and on the [hub] hosts: state, pending questions,\ncontinuations, tokens (one of another hub protocol version, and a host that fails, is named on stderr)"},
		flagSet: func() *flag.FlagSet { return lsFlagSet(new(bool), &hostFlags{}) },
		run: func(ctx context.Context, g globalFlags, args []string, std stdio) (int, error) {
			return runLs(ctx, g, args, std.out, std.err)
		},
	}
}
