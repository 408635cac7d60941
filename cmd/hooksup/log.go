package main

import (
	"bufio"
	"context"
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

	"github.com/fsnotify/fsnotify"

	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/cli"
	"github.com/hooksup/hooksup/internal/hangup"
	"github.com/hooksup/hooksup/internal/present"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/verdictlog"
)

type logArgs struct {
	session              string
	asJSON, follow, list bool
}

// logFlagSet parses log's flags.
func logFlagSet(a *logArgs) *flag.FlagSet {
	fs := flag.NewFlagSet("log", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&a.session, "session", "", "")
	fs.BoolVar(&a.asJSON, "json", false, "")
	fs.BoolVar(&a.follow, "f", false, "")
	fs.BoolVar(&a.list, "list", false, "")
	return fs
}

func runLog(ctx context.Context, args []string, stdout io.Writer) (int, error) {
	var a logArgs
	fs := logFlagSet(&a)
	if err := parseFlags(fs, args); err != nil {
		return 2, fmt.Errorf("%v (usage: hooksup log [--session ID | --list] [--json] [-f])", err)
	}
	if a.list && (a.session != "" || a.follow) {
		return 2, errors.New("--list goes with --json alone (usage: hooksup log --list [--json])")
	}
	env, err := loadEnvironment()
	if err != nil {
		return 1, err
	}
	dir := verdictlog.SessionsDir(env.stateDir)
	if a.list {
		return listSessions(dir, a.asJSON, stdout)
	}
	latest := a.session == "" // -f then moves on to each newer session of the project
	var id, project, header string
	if latest {
		id, project, header, err = latestSession(dir, env)
	} else {
		id, err = verdictlog.FindSession(dir, a.session)
	}
	if err != nil {
		return 1, err
	}
	var w *fsnotify.Watcher
	if a.follow {
		// Watch before reading, so a line appended in between is not missed.
		if w, err = fsnotify.NewWatcher(); err != nil {
			return 1, fmt.Errorf("follow: %w", err)
		}
		defer w.Close()
		if latest {
			if err := w.Add(dir); err != nil {
				return 1, fmt.Errorf("follow: %w", err)
			}
		}
	}
	t := &logTail{out: stdout, asJSON: a.asJSON, header: header}
	if err := t.open(dir, id, w); err != nil {
		return 1, err
	}
	defer t.close()
	if err := t.print(); err != nil {
		return 1, err
	}
	if !a.follow {
		return 0, nil
	}
	// newer is the latest session when it is another than the one followed, once its verdict
	// log exists.
	newer := func() string {
		if !latest {
			return ""
		}
		if next, err := latestOf(dir, project); err == nil && next != t.id {
			return next
		}
		return ""
	}
	for {
		select {
		case <-ctx.Done():
			return 0, nil
		case ev := <-w.Events:
			switch {
			case ev.Name == t.path && ev.Has(fsnotify.Write):
				if err := t.print(); err != nil {
					return 1, err
				}
			case latest && filepath.Dir(ev.Name) == dir && ev.Has(fsnotify.Create):
				_ = w.Add(ev.Name) // a new session's directory: its log may come next, or be there
			}
			if next := newer(); next != "" {
				if err := t.print(); err != nil { // what the last one wrote before it
					return 1, err
				}
				t.close()
				if err := t.open(dir, next, w); err != nil {
					return 1, err
				}
				if err := t.print(); err != nil {
					return 1, err
				}
			}
		case err := <-w.Errors:
			return 1, fmt.Errorf("follow: %w", err)
		}
	}
}

// logTail prints one session's verdict log from where it last read.
type logTail struct {
	out    io.Writer
	asJSON bool
	header string // what the first heading adds after the session's project

	id      string
	path    string
	f       *os.File
	br      *bufio.Reader
	partial []byte
}

// open starts on session id's log, with its heading, watching it with w when w is not nil.
func (t *logTail) open(dir, id string, w *fsnotify.Watcher) error {
	path := verdictlog.Path(dir, id)
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("no verdicts for session \"%s\" (looked in %s)", termsafe.String(id), termsafe.String(path))
	}
	if err != nil {
		return err
	}
	if w != nil {
		if err := w.Add(path); err != nil {
			f.Close()
			return fmt.Errorf("follow: %w", err)
		}
	}
	t.id, t.path, t.f, t.br, t.partial = id, path, f, bufio.NewReader(f), nil
	if !t.asJSON {
		head := "session " + termsafe.String(id) + agentOf(path)
		if m, err := verdictlog.ReadMeta(dir, id); err == nil && m.Project != "" {
			head += " · project " + present.HomeTilde(m.Project)
		}
		fmt.Fprintf(t.out, "%s%s\n", head, t.header)
		t.header = "" // -f's next session is the project's next
	}
	return nil
}

func (t *logTail) close() {
	if t.f != nil {
		t.f.Close()
		t.f = nil
	}
}

// print prints the whole lines written since the last call.
func (t *logTail) print() error {
	for {
		line, err := t.br.ReadBytes('\n')
		t.partial = append(t.partial, line...)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		printVerdictLine(t.out, t.partial, t.asJSON)
		t.partial = t.partial[:0]
	}
}

func printVerdictLine(w io.Writer, line []byte, asJSON bool) {
	line = []byte(strings.TrimRight(string(line), "\n"))
	if len(line) == 0 {
		return
	}
	if asJSON {
		fmt.Fprintf(w, "%s\n", line)
		return
	}
	v, err := verdictlog.Parse(line)
	if err != nil {
		fmt.Fprintf(w, "(unreadable line: %s)\n", termsafe.String(err.Error()))
		return
	}
	if v.Event == verdictlog.EventPermission && v.Permission != nil {
		p := v.Permission
		line := present.PermissionAnswered(v.Decision, p.Tool, p.Command, p.Rule, "", "")
		_, by := present.OutcomeParts(v) // " by you (hooksup deny)"
		fmt.Fprintf(w, "%s  permission  %s%s\n", v.Time.Local().Format("15:04:05"), line, by)
		if v.Reason != "" {
			fmt.Fprintf(w, "          told %s: %s\n", present.AgentName(v.Agent), present.Lines(v.Reason, "                  "))
		}
		return
	}
	if v.Event == verdictlog.EventOtherHooks {
		for _, l := range otherHooksLines(v, false) {
			fmt.Fprintf(w, "%s  turn %d  %s\n", v.Time.Local().Format("15:04:05"), v.Turn, l)
		}
		return
	}
	fmt.Fprintf(w, "%s  turn %d  %s\n", v.Time.Local().Format("15:04:05"), v.Turn, verdictSummary(v))
	// The whole reason, as the agent read it (a block's, cut as the answer cut it), each line
	// under the first: what the TUI's verdicts pane cuts short, "hooksup log shows it all".
	const indent = "                  "
	if v.Reason != "" {
		reason := v.Reason
		if v.Decision == hooks.Block {
			reason = hooks.Answer{Decision: hooks.Block, Reason: v.Reason}.SentReason()
		}
		head := "reason"
		if by := present.ReasonBy(v); by != "" {
			head += " (" + by + ")"
		}
		fmt.Fprintf(w, "          %s: %s\n", head, present.Lines(reason, indent))
	}
	if p := v.Proposal; p != nil {
		line := fmt.Sprintf("          proposed: %s (%s)", present.Decision(p.Decision), present.Source(p.Source))
		switch {
		case p.Reason == "":
		case v.Reason == "":
			// A continuation the person, the timeout or Escape turned down: what it would have
			// told the agent, whole.
			line += ": " + present.Lines(p.Reason, indent)
		default:
			line += ": " + present.FirstLine(p.Reason)
		}
		fmt.Fprintln(w, line)
	}
	for _, c := range v.Checks {
		fmt.Fprintf(w, "          check %s: exit %d in %.0f ms%s\n", termsafe.String(c.Name), c.ExitCode, c.DurationMS, present.CheckLeftRunning(c.LeftRunning))
	}
}

// agentOf names the agent of a verdict log, as " (codex)", from its first entry; "" when the
// log names none (written before hooksup supervised more than one agent).
func agentOf(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	line, _ := bufio.NewReader(f).ReadBytes('\n')
	var v struct{ Agent string }
	if json.Unmarshal(line, &v) != nil || v.Agent == "" {
		return ""
	}
	return " (" + termsafe.String(v.Agent) + ")"
}

// latestSession is the session hooksup log shows without --session: the latest of the project
// here — the deepest directory, from here up, that a session ran in (its .hooksup.toml's, else
// its own), or that holds the .hooksup.toml found from here — else, outside any project, the
// latest of all, which header says.
func latestSession(dir string, env environment) (id, project, header string, err error) {
	if p, found := config.FindProject(env.cwd); found {
		project = p
	}
	ss, err := verdictlog.Sessions(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", "", "", err
	}
	metas := make([]verdictlog.Meta, len(ss))
	for i, s := range ss {
		metas[i], _ = verdictlog.ReadMeta(dir, s.ID) // none: an older hooksup's, of no project
		if p := metas[i].Project; len(p) > len(project) && verdictlog.Within(env.cwd, p) {
			project = p
		}
	}
	if project == "" {
		id, err := verdictlog.LatestSession(dir)
		return id, "", " (the latest session of all: none ran in " + present.HomeTilde(env.cwd) + " or above it)", err
	}
	for i, s := range ss {
		if metas[i].Project == project {
			return s.ID, project, "", nil
		}
	}
	return "", "", "", fmt.Errorf("no session in project %s has verdicts yet: hooksup log --list lists every session, --session ID shows one",
		present.HomeTilde(project))
}

// latestOf is the latest session of project, or of all when project is "".
func latestOf(dir, project string) (string, error) {
	if project == "" {
		return verdictlog.LatestSession(dir)
	}
	ss, err := verdictlog.Sessions(dir)
	if err != nil {
		return "", err
	}
	for _, s := range ss {
		if m, _ := verdictlog.ReadMeta(dir, s.ID); m.Project == project {
			return s.ID, nil
		}
	}
	return "", fmt.Errorf("no session in project %s has verdicts yet", present.HomeTilde(project))
}

// pastSession is a session as hooksup log --list shows it; --json writes it as it is.
type pastSession struct {
	ID          string    `json:"session_id"`
	Agent       string    `json:"agent,omitempty"`
	Project     string    `json:"project,omitempty"` // none for a session an older hooksup logged
	Cwd         string    `json:"cwd,omitempty"`
	Started     time.Time `json:"started"`
	LastVerdict time.Time `json:"last_verdict"`
	// Decisions counts its stops' verdicts by decision: block, allow, halt.
	Decisions   map[hooks.Decision]int `json:"decisions"`
	Interrupted int                    `json:"interrupted"` // Escapes
}

// listSessions is hooksup log --list: every session with a verdict log, the latest first.
func listSessions(dir string, asJSON bool, stdout io.Writer) (int, error) {
	ss, err := verdictlog.Sessions(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return 1, err
	}
	list := make([]pastSession, 0, len(ss))
	for _, s := range ss {
		p := pastSession{ID: s.ID, LastVerdict: s.LastVerdict, Decisions: map[hooks.Decision]int{}}
		if m, err := verdictlog.ReadMeta(dir, s.ID); err == nil {
			p.Project, p.Cwd, p.Agent, p.Started = m.Project, m.Cwd, m.Agent, m.Started
		}
		f, err := os.Open(verdictlog.Path(dir, s.ID))
		if err != nil {
			continue // gone since it was listed
		}
		vs, _ := verdictlog.Read(f)
		f.Close()
		for i, v := range vs {
			if i == 0 {
				if p.Agent == "" {
					p.Agent = v.Agent
				}
				if p.Started.IsZero() {
					p.Started = v.Asked
					if p.Started.IsZero() {
						p.Started = v.Time
					}
				}
			}
			switch v.Event {
			case verdictlog.EventOtherHooks, verdictlog.EventPermission:
			case verdictlog.EventInterrupted:
				p.Interrupted++
			default:
				p.Decisions[v.Decision]++
			}
		}
		list = append(list, p)
	}
	if asJSON {
		b, err := json.MarshalIndent(list, "", "  ")
		if err != nil {
			return 1, err
		}
		fmt.Fprintf(stdout, "%s\n", b)
		return 0, nil
	}
	if len(list) == 0 {
		fmt.Fprintf(stdout, "no session has verdicts yet (in %s)\n", termsafe.String(dir))
		return 0, nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SESSION\tAGENT\tSTARTED\tVERDICTS\tPROJECT")
	for _, p := range list {
		id := p.ID
		if len(id) > 8 {
			id = id[:8]
		}
		project := "(not recorded)"
		if p.Project != "" {
			project = present.HomeTilde(p.Project)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", termsafe.String(id), present.AgentName(p.Agent),
			p.Started.Local().Format("2006-01-02 15:04"), present.Counts(p.Decisions, p.Interrupted), project)
	}
	return 0, tw.Flush()
}

func logCommand() command {
	return command{
		Command: cli.Command{Name: "log", Group: groupSessions, Flags: []cli.Flag{
			{Name: "session", Arg: "ID", Values: cli.Values{Dynamic: completeSessions}, Help: "this session's verdicts (its id, or the start of it: the 8 characters shown)"},
			{Name: "list", Help: "list the past sessions instead, the latest first: id, agent, start, what was decided\n(continued, let stop, …), project"},
			{Name: "json", Help: "the verdicts as JSON lines, as recorded (with --list: an array of sessions)"},
			{Name: "f", Help: "keep printing verdicts as they come (without --session, moving on to each newer\nsession of the project)"},
		}, Summary: "the verdicts of a session, and why each was taken",
			Help: `the verdicts of a session, each with what it did to the agent and why: by default the
latest of the project here (a directory under its .hooksup.toml's, or where a session ran),
else, outside any project, the latest of all, its project named`},
		flagSet: func() *flag.FlagSet { return logFlagSet(&logArgs{}) },
		run: func(ctx context.Context, _ globalFlags, args []string, std stdio) (int, error) {
			// -f follows the log until it is interrupted or its terminal goes.
			ctx, stop := hangup.Context(ctx, std.in, std.out, std.err)
			defer stop()
			return runLog(ctx, args, std.out)
		},
	}
}
