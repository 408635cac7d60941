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

	"github.com/fsnotify/fsnotify"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/present"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/verdictlog"
)

type logArgs struct {
	session        string
	asJSON, follow bool
}

// logFlagSet parses log's flags.
func logFlagSet(a *logArgs) *flag.FlagSet {
	fs := flag.NewFlagSet("log", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&a.session, "session", "", "")
	fs.BoolVar(&a.asJSON, "json", false, "")
	fs.BoolVar(&a.follow, "f", false, "")
	return fs
}

func runLog(ctx context.Context, args []string, stdout io.Writer) (int, error) {
	var a logArgs
	fs := logFlagSet(&a)
	if err := parseFlags(fs, args); err != nil {
		return 2, fmt.Errorf("%v (usage: hooksup log [--session ID] [--json] [-f])", err)
	}
	env, err := loadEnvironment()
	if err != nil {
		return 1, err
	}
	dir := verdictlog.SessionsDir(env.stateDir)
	latest := a.session == "" // -f then moves on to each newer session
	var id string
	if latest {
		id, err = verdictlog.LatestSession(dir)
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
	t := &logTail{out: stdout, asJSON: a.asJSON}
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
		if next, err := verdictlog.LatestSession(dir); err == nil && next != t.id {
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
	out     io.Writer
	asJSON  bool
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
		fmt.Fprintf(t.out, "session %s%s\n", termsafe.String(id), agentOf(path))
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
