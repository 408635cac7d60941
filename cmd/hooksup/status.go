package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/hooksup/hooksup/hub"
	"github.com/hooksup/hooksup/internal/cli"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/session"
)

// statusCounts sorts the live sessions for `hooksup status`.
type statusCounts struct {
	sessions, working, waiting, idle, pending int
	goals                                     int // goals under way (goal mode, not ended)
}

func countSessions(live []hub.Live) statusCounts {
	var c statusCounts
	for _, l := range live {
		if l.Err != nil { // another protocol: nothing is known of it
			continue
		}
		s := l.Snapshot
		c.sessions++
		c.pending += len(s.Pending)
		if s.Goal != nil && s.Goal.End == "" {
			c.goals++
		}
		switch {
		case len(s.Pending) > 0 || s.State == string(session.StatePermission) || s.State == string(session.StateQuestion):
			c.waiting++
		case s.State == string(session.StateWorking) || s.State == string(session.StateStopping) || s.State == string(session.StateStarting):
			c.working++
		default:
			c.idle++
		}
	}
	return c
}

// statusFields are the {fields} of status --format, in the order the help names them.
var statusFields = []string{"sessions", "working", "waiting", "idle", "pending", "goals"}

// values are c's counts by field.
func (c statusCounts) values() []int {
	return []int{c.sessions, c.working, c.waiting, c.idle, c.pending, c.goals}
}

// formatField is a {field} of a format: a word in braces (other braces are the format's text).
var formatField = regexp.MustCompile(`\{[A-Za-z0-9_]+\}`)

// checkStatusFormat refuses a format naming a field status does not know, naming those it does.
func checkStatusFormat(format string) error {
	for _, f := range formatField.FindAllString(format, -1) {
		if !slices.Contains(statusFields, strings.Trim(f, "{}")) {
			return fmt.Errorf("status --format: no field %s: the fields are %s", termsafe.String(f), statusFieldList())
		}
	}
	return nil
}

// statusFieldList is "{sessions}, {working}, {waiting}, {idle}, {pending} and {goals}".
func statusFieldList() string {
	braced := make([]string, len(statusFields))
	for i, f := range statusFields {
		braced[i] = "{" + f + "}"
	}
	return andList(braced)
}

// statusLine words c: format's {sessions}, {working}, {waiting}, {idle}, {pending} and {goals} replaced
// by their counts, or, without a format, "2 working · 1 waiting on you" (the parts that are
// not 0; nothing at all when no session runs).
func statusLine(c statusCounts, format string) string {
	if format != "" {
		var pairs []string
		for i, n := range c.values() {
			pairs = append(pairs, "{"+statusFields[i]+"}", fmt.Sprint(n))
		}
		return strings.NewReplacer(pairs...).Replace(format)
	}
	var parts []string
	if c.working > 0 {
		parts = append(parts, fmt.Sprintf("%d working", c.working))
	}
	if c.waiting > 0 {
		parts = append(parts, fmt.Sprintf("%d waiting on you", c.waiting))
	}
	if c.idle > 0 {
		parts = append(parts, fmt.Sprintf("%d idle", c.idle))
	}
	switch {
	case c.goals == 1:
		parts = append(parts, "1 goal under way")
	case c.goals > 1:
		parts = append(parts, fmt.Sprintf("%d goals under way", c.goals))
	}
	return strings.Join(parts, " · ")
}

func statusFlagSet(format *string, hf *hostFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("status", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(format, "format", "", "")
	hostFlagsOn(fs, hf)
	return fs
}

// runStatus is `hooksup status [--format FORMAT] [--host DEST]... [--local]`: one short line
// for a status bar or a prompt, counting the sessions of every host; a host that cannot be
// reached is a line on stderr.
func runStatus(ctx context.Context, g globalFlags, args []string, stdout, stderr io.Writer) (int, error) {
	const usage = "usage: hooksup status [--format FORMAT] [--host DEST]... [--local]"
	format := new(string)
	var hf hostFlags
	fs := statusFlagSet(format, &hf)
	if err := parseFlags(fs, args); err != nil {
		return 2, fmt.Errorf("status: %v (%s)", err, usage)
	}
	if fs.NArg() > 0 {
		return 2, fmt.Errorf("status takes no arguments, got %q (%s)", fs.Args(), usage)
	}
	if err := checkStatusFormat(*format); err != nil {
		return 2, err
	}
	live, scope, err := hubSessions(ctx, g, "status", hf, stderr)
	if err != nil {
		return 1, err
	}
	defer scope.close()
	all := make([]hub.Live, len(live))
	for i, l := range live {
		all[i] = l.Live
	}
	line := statusLine(countSessions(all), *format)
	if line != "" {
		fmt.Fprintln(stdout, line)
	}
	return 0, nil
}

func statusCommand(s shared) command {
	return command{
		Command: cli.Command{Name: "status", Group: groupSessions,
			Flags: append([]cli.Flag{{Name: "format", Arg: "FORMAT", Help: "with " + statusFieldList() + " replaced by their counts (another\n{field} is refused)",
				Summary: "the line, its {fields} replaced by their counts"}}, s.hostFlags...),
			Summary: "count the sessions for a status bar or a prompt",
			Help:    "one line for a status bar or a prompt: how many sessions work, wait on you, are idle, and the goals under way"},
		flagSet: func() *flag.FlagSet { var v string; return statusFlagSet(&v, &hostFlags{}) },
		run: func(ctx context.Context, g globalFlags, args []string, std stdio) (int, error) {
			return runStatus(ctx, g, args, std.out, std.err)
		},
	}
}
