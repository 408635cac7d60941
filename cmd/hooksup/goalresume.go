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

	"github.com/hooksup/hooksup/internal/cli"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/session"
)

const goalUsage = "usage: hooksup goal resume SESSION [--max-turns N] [--max-time TIME] [--max-tokens N] [--host DEST]..."

func goalFlagSet(g *goalFlags, hf *hostFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("goal", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	g.defineBudget(fs)
	hostFlagsOn(fs, hf)
	return fs
}

func goalCommand(s shared) command {
	return command{
		Command: cli.Command{Name: "goal", Group: groupSessions, Args: "resume SESSION", ArgValues: cli.Values{Dynamic: completeLive},
			Flags: append([]cli.Flag{
				{Name: "max-turns", Arg: "N", Help: "the goal's new budget of turns, more than it has had"},
				{Name: "max-time", Arg: "TIME", Help: "its new budget of time, from the session's start"},
				{Name: "max-tokens", Arg: "N", Help: "its new budget of the session's tokens"},
			}, s.hostFlags...),
			Summary: "resume a goal out of budget or paused, with a larger budget",
			Help: "resume SESSION's goal (a prefix of its id or project, HOST:PREFIX on another machine), ended out of\n" +
				"budget, paused or for no progress, with a larger budget: hooksup types the goal's next turn into\n" +
				"the agent's prompt (a session in hooksup's TUI)"},
		flagSet: func() *flag.FlagSet { return goalFlagSet(&goalFlags{}, &hostFlags{}) },
		run: func(ctx context.Context, g globalFlags, args []string, std stdio) (int, error) {
			return runGoal(ctx, g, args, std.out, std.err)
		},
	}
}

// runGoal is `hooksup goal resume SESSION [--max-turns N] [--max-time D] [--max-tokens N]`.
func runGoal(ctx context.Context, g globalFlags, args []string, stdout, stderr io.Writer) (int, error) {
	var gf goalFlags
	var hf hostFlags
	fs := goalFlagSet(&gf, &hf)
	var pos []string
	for {
		if err := parseFlags(fs, args); err != nil {
			return 2, fmt.Errorf("goal: %v (%s)", err, goalUsage)
		}
		if fs.NArg() == 0 {
			break
		}
		pos, args = append(pos, fs.Arg(0)), fs.Args()[1:]
	}
	switch {
	case len(pos) == 0 || pos[0] != "resume":
		return 2, fmt.Errorf("goal: say what to do: %s", goalUsage)
	case len(pos) != 2:
		return 2, fmt.Errorf("goal resume takes one SESSION (%s)", goalUsage)
	case gf.maxTurns == nil && gf.maxTime == nil && gf.maxTokens == nil:
		return 2, fmt.Errorf("goal resume needs a larger budget (%s)", goalUsage)
	case gf.maxTurns != nil && *gf.maxTurns < 1, gf.maxTokens != nil && *gf.maxTokens < 1, gf.maxTime != nil && *gf.maxTime <= 0:
		return 2, errors.New("goal resume: a budget must be more than 0")
	}
	var b session.GoalBudget
	if gf.maxTurns != nil {
		b.MaxTurns = *gf.maxTurns
	}
	if gf.maxTime != nil {
		b.MaxTime = *gf.maxTime
	}
	if gf.maxTokens != nil {
		b.MaxTokens = *gf.maxTokens
	}
	var host string
	prefix := pos[1]
	if i := strings.LastIndex(prefix, ":"); i > 0 {
		host, prefix = prefix[:i], prefix[i+1:]
		if !hf.local && !slices.Contains(hf.hosts, host) {
			hf.hosts = append(hf.hosts, host)
		}
	}
	live, scope, err := hubSessions(ctx, g, "goal", hf, stderr)
	if err != nil {
		return 1, err
	}
	defer scope.close()
	var matches []hostLive
	for _, l := range live {
		s := l.Snapshot
		if host != "" && l.Host != host {
			continue
		}
		if prefix != "" && strings.HasPrefix(s.SessionID, prefix) || strings.HasPrefix(s.ID, prefix) || strings.HasPrefix(filepath.Base(s.Cwd), prefix) {
			matches = append(matches, l)
		}
	}
	switch len(matches) {
	case 0:
		return 1, fmt.Errorf("no session matches \"%s\" (hooksup ls lists them)", termsafe.String(pos[1]))
	case 1:
	default:
		return 1, fmt.Errorf("\"%s\" matches %d sessions: %s; give more of the session id", termsafe.String(pos[1]), len(matches), names(matches))
	}
	target := matches[0]
	where := fmt.Sprintf("session %s (%s)", target.name(), target.cwd())
	if target.Err != nil {
		return 1, fmt.Errorf("%s: %w", where, target.Err)
	}
	if err := target.resumeGoal(b); err != nil {
		return 1, fmt.Errorf("%s: %w", where, err)
	}
	fmt.Fprintf(stdout, "resumed the goal of %s: its next turn is typed into the agent's prompt\n", where)
	return 0, nil
}
