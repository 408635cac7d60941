package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/hooksup/hooksup/hub"
	"github.com/hooksup/hooksup/internal/present"
	"github.com/hooksup/hooksup/internal/runtimedir"
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

func lsFlagSet(asJSON *bool) *flag.FlagSet {
	fs := flag.NewFlagSet("ls", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(asJSON, "json", false, "")
	return fs
}

// runLs is `hooksup ls [--json]`: every live session of this user. One that speaks another
// version of the hub protocol is named on stderr instead.
func runLs(args []string, stdout, stderr io.Writer) (int, error) {
	var asJSON bool
	fs := lsFlagSet(&asJSON)
	if err := fs.Parse(args); err != nil {
		return 2, fmt.Errorf("ls: %v (usage: hooksup ls [--json])", err)
	}
	if fs.NArg() > 0 {
		return 2, fmt.Errorf("ls takes no arguments, got %q (usage: hooksup ls [--json])", fs.Args())
	}
	all, err := liveSessions()
	if err != nil {
		return 1, err
	}
	var live []hub.Live
	for _, l := range all {
		if l.Err != nil {
			fmt.Fprintf(stderr, "hooksup ls: session %s (%s): %v\n", l.Snapshot.ShortID(), homeTilde(l.Snapshot.Cwd), l.Err)
			continue
		}
		live = append(live, l)
	}
	if asJSON {
		out := web.Sessions(live)
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
	now := time.Now()
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SESSION\tAGENT\tSTATE\tFOR\tPENDING\tCONTINUED\tTOKENS\tPROJECT")
	for _, l := range live {
		s := l.Snapshot
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%s\t%s\n", s.ShortID(), s.Agent, s.State,
			since(now, s.StateSince), len(s.Pending), s.Continuations, present.Count(s.Tokens), homeTilde(s.Cwd))
	}
	return 0, tw.Flush()
}

// since words how long ago t was (present.Age); "-" when unknown.
func since(now, t time.Time) string {
	if t.IsZero() || t.After(now) {
		return "-"
	}
	return present.Age(now.Sub(t))
}

func homeTilde(p string) string {
	if home, err := os.UserHomeDir(); err == nil && home != "/" {
		if rest, ok := strings.CutPrefix(p, home); ok && (rest == "" || rest[0] == '/') {
			return "~" + rest
		}
	}
	return p
}

func answerFlagSet(cmd string, reason *string) *flag.FlagSet {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(reason, "reason", "", "")
	return fs
}

// runAnswer is `hooksup approve|deny|halt [SESSION] [--reason TEXT]`: it answers the oldest
// pending question of SESSION (a unique prefix of a session id or of a project directory's
// name), or, without SESSION, the one question pending on the machine.
func runAnswer(cmd string, args []string, stdout io.Writer) (int, error) {
	usage := fmt.Sprintf("usage: hooksup %s [SESSION] [--reason TEXT]", cmd)
	reason := new(string)
	fs := answerFlagSet(cmd, reason)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
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
	if cmd == "deny" && *reason != "" {
		return 2, errors.New("deny takes no --reason: the agent is let stop (approve --reason replaces the continuation's reason, halt --reason says why the turn ends)")
	}
	live, err := liveSessions()
	if err != nil {
		return 1, err
	}
	var target hub.Live
	if len(pos) == 0 {
		var waiting []hub.Live
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
		prefix := pos[0]
		var matches []hub.Live
		for _, l := range live {
			s := l.Snapshot
			if prefix != "" && (strings.HasPrefix(s.SessionID, prefix) || strings.HasPrefix(s.ID, prefix) ||
				strings.HasPrefix(filepath.Base(s.Cwd), prefix)) {
				matches = append(matches, l)
			}
		}
		switch len(matches) {
		case 0:
			return 1, fmt.Errorf("no session matches %q (hooksup ls lists them)", prefix)
		case 1:
			target = matches[0]
		default:
			return 1, fmt.Errorf("%q matches %d sessions: %s; give more of the session id", prefix, len(matches), names(matches))
		}
	}
	s := target.Snapshot
	if target.Err != nil {
		return 1, fmt.Errorf("session %s (%s): %w", s.ShortID(), homeTilde(s.Cwd), target.Err)
	}
	if len(s.Pending) == 0 {
		return 1, fmt.Errorf("session %s (%s) has no pending question", s.ShortID(), homeTilde(s.Cwd))
	}
	q := s.Pending[0]
	decision, _, _ := present.Answer(cmd)
	err = hub.Client{Path: target.Entry.Control}.Resolve(q.ID, string(decision), *reason, "hooksup "+cmd)
	if errors.Is(err, hub.ErrAnswered) {
		return 1, fmt.Errorf("the question in session %s (%s) was already answered", s.ShortID(), homeTilde(s.Cwd))
	}
	if err != nil {
		return 1, fmt.Errorf("session %s (%s): %w", s.ShortID(), homeTilde(s.Cwd), err)
	}
	line := present.Answered(cmd, q.Event, q.AgentID, fmt.Sprintf("session %s (%s)", s.ShortID(), homeTilde(s.Cwd)), *reason, q.Reason)
	fmt.Fprintln(stdout, line)
	return 0, nil
}

// names lists sessions for an error: "1a2b3c4d (~/src/a), 5e6f7a8b (~/src/b)".
func names(ls []hub.Live) string {
	var out []string
	for _, l := range ls {
		out = append(out, fmt.Sprintf("%s (%s)", l.Snapshot.ShortID(), homeTilde(l.Snapshot.Cwd)))
	}
	return strings.Join(out, ", ")
}
