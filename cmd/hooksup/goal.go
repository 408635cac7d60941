package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/engine"
	"github.com/hooksup/hooksup/supervisor"
	"github.com/hooksup/hooksup/verdictlog"
)

// goalFlags are --goal TEXT and the flags that bound it (--done, --max-turns, --max-time,
// --max-tokens), each nil when not given: the [goal] table's value stands then.
type goalFlags struct {
	text      *string
	done      *string
	maxTurns  *int
	maxTime   *time.Duration
	maxTokens *int
	protect   []string // --protect GLOB, each time it is given
}

// define adds the goal's flags to fs.
func (g *goalFlags) define(fs *flag.FlagSet) {
	str := func(p **string) func(string) error {
		return func(v string) error { *p = &v; return nil }
	}
	fs.Func("goal", "", str(&g.text))
	fs.Func("done", "", str(&g.done))
	g.defineBudget(fs)
	fs.Func("protect", "", func(v string) error { g.protect = append(g.protect, v); return nil })
}

// defineBudget adds the flags of the goal's budget to fs: --max-turns, --max-time, --max-tokens.
func (g *goalFlags) defineBudget(fs *flag.FlagSet) {
	count := func(p **int) func(string) error {
		return func(v string) error {
			n, err := strconv.Atoi(v)
			if err != nil {
				return errors.New("not a whole number")
			}
			*p = &n
			return nil
		}
	}
	fs.Func("max-turns", "", count(&g.maxTurns))
	fs.Func("max-time", "", func(v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return errors.New(`not a duration like "90m" or "2h"`)
		}
		g.maxTime = &d
		return nil
	})
	fs.Func("max-tokens", "", count(&g.maxTokens))
}

// apply sets the goal's limits given on the command line over the [goal] table's.
func (g goalFlags) apply(c *config.GoalConfig) {
	if g.done != nil {
		c.Done = *g.done
	}
	if g.maxTurns != nil {
		c.MaxTurns = *g.maxTurns
	}
	if g.maxTime != nil {
		c.MaxTime = config.Duration{D: *g.maxTime}
	}
	if g.maxTokens != nil {
		c.MaxTokens = *g.maxTokens
	}
	c.Protect = append(c.Protect, g.protect...)
}

// check refuses a goal's limit without a goal, and a goal without its text.
func (g goalFlags) check() error {
	if g.text == nil {
		var set []string
		for _, f := range []struct {
			name string
			set  bool
		}{{"--done", g.done != nil}, {"--max-turns", g.maxTurns != nil}, {"--max-time", g.maxTime != nil}, {"--max-tokens", g.maxTokens != nil}, {"--protect", g.protect != nil}} {
			if f.set {
				set = append(set, f.name)
			}
		}
		if len(set) > 0 {
			return fmt.Errorf("%s bound a goal: give its text with --goal TEXT (docs/goal.md)", andList(set))
		}
		return nil
	}
	if strings.TrimSpace(*g.text) == "" {
		return errors.New("--goal needs the goal's text, e.g. --goal 'make the e2e suite pass'")
	}
	return nil
}

// goal is the session's goal (nil without --goal), its limits from cfg's [goal] and the flags;
// a change to one of the project's configuration files (files) pauses it.
func (g goalFlags) goal(cfg config.Config, files []string) (*engine.Goal, error) {
	if g.text == nil {
		return nil, nil
	}
	if cfg.Mode == config.ModeObserve {
		return nil, errors.New("--goal needs a mode that can make the agent continue (auto, ask or manual): observe never does")
	}
	return &engine.Goal{Text: *g.text, GoalConfig: cfg.Goal, Files: files}, nil
}

// flagOfKey is the flag that sets a configuration key: --max-turns for goal.max_turns.
func flagOfKey(key string) string {
	if rest, ok := strings.CutPrefix(key, "goal."); ok {
		return strings.ReplaceAll(rest, "_", "-")
	}
	return key
}

// goalExitStatus is a goal session's exit status when its goal was not reached and the agent
// exited 0: a script or CI learns the work is not done.
const goalExitStatus = 3

// goalExit is a session's exit status in goal mode, told on w in one line: the agent's when the
// goal was reached; else goalExitStatus, unless the agent (or hooksup) failed, whose status
// comes first. Outside goal mode it is code.
func goalExit(w io.Writer, sup *supervisor.Supervisor, code int, err error) int {
	rec, ok := sup.Goal()
	if !ok {
		return code
	}
	switch rec.End {
	case verdictlog.GoalReached:
		fmt.Fprintf(w, "hooksup: the goal is %s\n", engine.GoalWhy(&rec, rec.End))
		return code
	case "":
		fmt.Fprintln(w, "hooksup: the goal was not reached: the agent exited before it was")
	default:
		fmt.Fprintf(w, "hooksup: the goal was not reached: %s\n", engine.GoalWhy(&rec, rec.End))
	}
	if code != 0 || err != nil {
		return code
	}
	return goalExitStatus
}
