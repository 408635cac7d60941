package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/hooksup/hooksup/internal/cli"
	"github.com/hooksup/hooksup/internal/present"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/themes"
	"github.com/hooksup/hooksup/verdictlog"
	"github.com/hooksup/hooksup/web"
)

// completeCommand is the hidden command the completion scripts run for values that change.
const completeCommand = "__complete"

// Values the completion scripts ask hooksup for.
const (
	completeThemes   = "themes"
	completeSessions = "sessions"
	completeLive     = "live"    // this machine's live sessions: SESSION of approve, deny, halt
	completeHosts    = "hosts"   // [hub] hosts of the person's configuration: --host
	completeDevices  = "devices" // the browsers paired with hooksup web: web revoke ID
	completeServers  = "servers" // the running hooksup webs' addresses: web pair --listen
)

func completeHiddenCommand() command {
	return command{
		Command: cli.Command{Name: completeCommand, Hidden: true},
		ownHelp: true,
		noDirs:  true,
		run: func(_ context.Context, _ globalFlags, args []string, std stdio) (int, error) {
			return runComplete(args, std.out)
		},
	}
}

// runComplete is `hooksup __complete KIND`: the values of KIND, one a line, a tab before a
// description. It prints nothing rather than an error: a completion menu has no room for one.
func runComplete(args []string, stdout io.Writer) (int, error) {
	if len(args) != 1 {
		return 0, nil
	}
	env, err := loadEnvironment()
	if err != nil {
		return 0, nil
	}
	switch args[0] {
	case completeThemes:
		for _, n := range themes.Names() {
			fmt.Fprintf(stdout, "%s\tbuilt-in\n", n)
		}
		custom, _ := customThemes(env) // the files that load; a broken one is hooksup themes' to report
		for _, t := range custom {
			if !slices.Contains(themes.Names(), t.Name) {
				fmt.Fprintf(stdout, "%s\tcustom\n", t.Name)
			}
		}
	case completeSessions:
		ss, _ := verdictlog.Sessions(verdictlog.SessionsDir(env.stateDir))
		for _, s := range ss {
			completion(stdout, s.ID, "last verdict "+s.LastVerdict.Local().Format(time.DateTime))
		}
	case completeLive:
		// This machine's only: asking the [hub] hosts over ssh would hold up the shell.
		live, _ := liveSessions()
		projects := map[string]int{}
		for _, l := range live {
			projects[filepath.Base(l.Snapshot.Cwd)]++
		}
		for _, l := range live {
			s := l.Snapshot
			what := s.Agent + " in " + present.HomeTilde(s.Cwd)
			if n := len(s.Pending); n > 0 {
				what += fmt.Sprintf(", %d waiting on you", n)
			}
			completion(stdout, s.ShortID(), what)
		}
		for p, n := range projects {
			if n == 1 { // a project of two sessions names neither
				completion(stdout, p, "the session in this project")
			}
		}
	case completeDevices:
		ds, _ := web.NewStore(env.stateDir).Devices()
		for _, d := range ds {
			completion(stdout, d.ID, d.Name+", last seen "+d.LastSeen.Local().Format(time.DateTime))
		}
	case completeServers:
		running, _, _ := web.Servers(env.stateDir)
		for _, r := range running {
			completion(stdout, r.Addr, fmt.Sprintf("hooksup web, pid %d: %s", r.PID, r.URL))
		}
	case completeHosts:
		hc, _ := hubConfig(globalFlags{})
		for _, h := range hc.Hosts {
			completion(stdout, h, "[hub] hosts")
		}
	}
	return 0, nil
}

// completionWord matches what a completion may offer: a word the shells take as it is. A
// session's project or a host with a space, a quote or a control in it is left out rather than
// breaking the person's command line.
var completionWord = regexp.MustCompile(`^[A-Za-z0-9._@:+,=/-]+$`)

// completion writes one value for the completion scripts: the value, a tab, its description.
func completion(w io.Writer, value, desc string) {
	if !completionWord.MatchString(value) {
		return
	}
	fmt.Fprintf(w, "%s\t%s\n", value, strings.ReplaceAll(termsafe.String(desc), "\t", " "))
}
