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
	"strings"

	"github.com/fsnotify/fsnotify"

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
	if err := fs.Parse(args); err != nil {
		return 2, fmt.Errorf("%v (usage: hooksup log [--session ID] [--json] [-f])", err)
	}
	env, err := loadEnvironment()
	if err != nil {
		return 1, err
	}
	dir := verdictlog.SessionsDir(env.stateDir)
	id := a.session
	if id == "" {
		if id, err = verdictlog.LatestSession(dir); err != nil {
			return 1, err
		}
	}
	path := verdictlog.Path(dir, id)
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return 1, fmt.Errorf("no verdicts for session %q (looked in %s)", id, termsafe.String(path))
	}
	if err != nil {
		return 1, err
	}
	defer f.Close()
	if !a.asJSON {
		fmt.Fprintf(stdout, "session %s%s\n", termsafe.String(id), agentOf(path))
	}
	br := bufio.NewReader(f)
	var partial []byte
	printLines := func() error {
		for {
			line, err := br.ReadBytes('\n')
			partial = append(partial, line...)
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			printVerdictLine(stdout, partial, a.asJSON)
			partial = partial[:0]
		}
	}
	if !a.follow {
		if err := printLines(); err != nil {
			return 1, err
		}
		return 0, nil
	}
	// Watch before reading, so a line appended in between is not missed.
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return 1, fmt.Errorf("follow: %w", err)
	}
	defer w.Close()
	if err := w.Add(path); err != nil {
		return 1, fmt.Errorf("follow: %w", err)
	}
	if err := printLines(); err != nil {
		return 1, err
	}
	for {
		select {
		case <-ctx.Done():
			return 0, nil
		case ev := <-w.Events:
			if ev.Has(fsnotify.Write) {
				if err := printLines(); err != nil {
					return 1, err
				}
			}
		case err := <-w.Errors:
			return 1, fmt.Errorf("follow: %w", err)
		}
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
	if v.Reason != "" {
		fmt.Fprintf(w, "          reason: %s\n", present.FirstLine(v.Reason))
	}
	if p := v.Proposal; p != nil {
		line := fmt.Sprintf("          proposed: %s (%s)", termsafe.String(string(p.Decision)), sourceText(p.Source))
		if p.Reason != "" {
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
