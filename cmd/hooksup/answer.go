package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hooksup/hooksup/hub"
	"github.com/hooksup/hooksup/internal/keymap"
	"github.com/hooksup/hooksup/internal/present"
	"github.com/hooksup/hooksup/internal/termsafe"
)

func answerFlagSet(cmd string, reason *string, always *bool, hf *hostFlags) *flag.FlagSet {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(reason, "reason", "", "")
	if cmd == "approve" {
		fs.BoolVar(always, "always", false, "")
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
	if cmd == "approve" {
		usage = "usage: hooksup approve [SESSION] [--reason TEXT | --always] [--host DEST]..."
	}
	reason, always := new(string), new(bool)
	var hf hostFlags
	fs := answerFlagSet(cmd, reason, always, &hf)
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
	if q.Permission != nil {
		return answerPermission(target, q, cmd, *reason, *always, where, stdout)
	}
	switch {
	case cmd == "deny" && *reason != "":
		return 2, errors.New("deny of a stop takes no --reason: the agent is let stop (approve --reason replaces the continuation's reason, halt --reason says why the turn ends)")
	case *always:
		return 2, fmt.Errorf("--always answers a permission, and %s waits on a stop", where)
	}
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

// answerPermission answers the agent's permission dialog q: approve allows it once (--always:
// and from now on, by the rule it shows first), deny refuses it (--reason: what the agent is
// told).
func answerPermission(target hostLive, q hub.Question, cmd, reason string, always bool, where string, stdout io.Writer) (int, error) {
	p := q.Permission
	d, ok := present.PermissionDecision(cmd, always)
	switch {
	case !ok:
		return 2, fmt.Errorf("%s waits on a permission: hooksup approve allows it, hooksup deny refuses it", where)
	case cmd == "approve" && reason != "":
		return 2, errors.New("approve of a permission takes no --reason: the agent is told nothing when its tool runs (deny --reason tells it why not)")
	case always && p.Always == "":
		return 1, fmt.Errorf("%s offers no rule to allow %s always: hooksup approve allows it once", where, termsafe.String(p.Tool))
	case always:
		fmt.Fprintf(stdout, "always: %s\n", p.Always)
	}
	err := target.resolve(q.ID, string(d), reason, "hooksup "+cmd)
	if errors.Is(err, hub.ErrAnswered) {
		return 1, fmt.Errorf("the permission in %s was already answered", where)
	}
	if err != nil {
		return 1, fmt.Errorf("%s: %w", where, err)
	}
	fmt.Fprintln(stdout, cmd+": "+present.PermissionAnswered(d, p.Tool, p.Command, p.Always, where, reason))
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

// answerHelp is what answering a question does, with the hint of the TUI's key for it and how
// hooksup log says the verdict: "approve the forced continuation: the agent continues (the
// TUI's "continue"; hooksup log says "block: continued")", so that approve, deny and halt are
// known by the words of the keys they stand for, and the log's block and allow by theirs.
func answerHelp(action, does string) string {
	k, _ := keymap.Lookup(action)
	d, _, _ := present.Answer(action)
	return does + " (the TUI's \"" + k.Hint + "\"; hooksup log says \"" + present.Decision(d) + ": " + present.Did(d) + "\")"
}
