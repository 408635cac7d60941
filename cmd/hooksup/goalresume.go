package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/hooksup/hooksup/hub"
	"github.com/hooksup/hooksup/internal/cli"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/session"
)

const goalUsage = "usage: hooksup goal resume SESSION [--max-turns N] [--max-time TIME] [--max-tokens N]"

func goalFlagSet(g *goalFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("goal", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	g.defineBudget(fs)
	return fs
}

func goalCommand() command {
	return command{
		Command: cli.Command{Name: "goal", Group: groupSessions, Args: "resume SESSION", ArgValues: cli.Values{Dynamic: completeLive},
			Flags: []cli.Flag{
				{Name: "max-turns", Arg: "N", Help: "the goal's new budget of turns, more than it has had"},
				{Name: "max-time", Arg: "TIME", Help: "its new budget of time, from the session's start"},
				{Name: "max-tokens", Arg: "N", Help: "its new budget of the session's tokens"},
			},
			Summary: "resume a goal out of budget or paused, with a larger budget",
			Help: "resume SESSION's goal, ended out of budget, paused or for no progress, with a larger budget: hooksup\n" +
				"types the goal's next turn into the agent's prompt (a session in hooksup's TUI on this machine)"},
		flagSet: func() *flag.FlagSet { return goalFlagSet(&goalFlags{}) },
		run: func(ctx context.Context, g globalFlags, args []string, std stdio) (int, error) {
			return runGoal(ctx, g, args, std.out, std.err)
		},
	}
}

// runGoal is `hooksup goal resume SESSION [--max-turns N] [--max-time D] [--max-tokens N]`.
func runGoal(ctx context.Context, g globalFlags, args []string, stdout, stderr io.Writer) (int, error) {
	var gf goalFlags
	fs := goalFlagSet(&gf)
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
	live, scope, err := hubSessions(ctx, g, "goal", hostFlags{local: true}, stderr)
	if err != nil {
		return 1, err
	}
	defer scope.close()
	prefix := pos[1]
	var matches []hostLive
	for _, l := range live {
		s := l.Snapshot
		if strings.HasPrefix(s.SessionID, prefix) || strings.HasPrefix(s.ID, prefix) || strings.HasPrefix(filepath.Base(s.Cwd), prefix) {
			matches = append(matches, l)
		}
	}
	switch len(matches) {
	case 0:
		return 1, fmt.Errorf("no session matches \"%s\" (hooksup ls lists them)", termsafe.String(prefix))
	case 1:
	default:
		return 1, fmt.Errorf("\"%s\" matches %d sessions: %s; give more of the session id", termsafe.String(prefix), len(matches), names(matches))
	}
	target := matches[0]
	where := fmt.Sprintf("session %s (%s)", target.name(), target.cwd())
	if target.Err != nil {
		return 1, fmt.Errorf("%s: %w", where, target.Err)
	}
	if err := (hub.Client{Path: target.Entry.Control}).ResumeGoal(b); err != nil {
		return 1, fmt.Errorf("%s: %w", where, err)
	}
	fmt.Fprintf(stdout, "resumed the goal of %s: its next turn is typed into the agent's prompt\n", where)
	return 0, nil
}
