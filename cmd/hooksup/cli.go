package main

import (
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/agent/agents"
	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/hub"
	"github.com/hooksup/hooksup/internal/cli"
	"github.com/hooksup/hooksup/internal/keymap"
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

// program is hooksup's command line: --help, `hooksup man` and `hooksup completion` are drawn
// from it. A new command or flag goes here and in run's switch; TestCommandLineMatchesFlagSets
// holds the flags here to the flag sets that parse them.
func program() cli.Program { return programOf(agents.All()) }

// programOf is the command line of hooksup supervising the agents list (agents.All), the first
// the default: every agent's command, flags, help and variable come from the list alone.
func programOf(list []agent.Agent) cli.Program {
	var modes []string
	for _, m := range config.Modes() {
		modes = append(modes, string(m))
	}
	themeNames := cli.Values{Dynamic: completeThemes}
	var names, products, scopes, scopeHelp, installHelp []string
	var agentCommands []cli.Command
	for i, a := range list {
		names = append(names, a.Name())
		products = append(products, a.Product())
		agentCommands = append(agentCommands, cli.Command{Name: a.Name(), GlobalsFirst: true, Args: "[" + a.Name() + " args...]",
			Passthrough: true, Help: a.Help()})
		in, ok := a.(agent.Installer)
		if !ok {
			continue
		}
		for _, sc := range in.Scopes() {
			if !slices.Contains(scopes, sc) {
				scopes = append(scopes, sc)
			}
		}
		scopeHelp = append(scopeHelp, a.Name()+": "+in.ScopeHelp())
		if i == 0 {
			installHelp = append(installHelp, a.Name()+" (default, "+in.InstallHelp()+")")
		} else {
			installHelp = append(installHelp, a.Name()+" ("+in.InstallHelp()+")")
		}
	}
	scope := cli.Flag{Name: "scope", Values: cli.Values{Words: scopes},
		Help: "which settings file, by agent: " + strings.Join(scopeHelp, "; ")}
	hostFlags := []cli.Flag{
		{Name: "host", Arg: "DEST", Values: cli.Values{Dynamic: completeHosts}, Help: "also the sessions on DEST, over ssh (repeatable; DEST is anything ssh accepts)"},
		{Name: "local", Help: "this machine only, not the [hub] hosts of your config"},
	}
	agentFlag := cli.Flag{Name: "agent", Arg: "NAME", Values: cli.Values{Words: names}, Help: orList(installHelp)}
	var binFlags []cli.Flag
	for _, a := range list {
		binFlags = append(binFlags, cli.Flag{Name: a.Name() + "-bin", Arg: "PATH", Values: cli.Values{Files: true},
			Help: fmt.Sprintf("the %s to run (default: $%s, else %s on PATH)", a.Name(), a.BinEnv(), a.Name())})
	}
	return cli.Program{
		Name:    "hooksup",
		Summary: "supervise " + andList(products) + ": your checks and you decide every stop",
		Intro: "hooksup supervises " + andList(products) + `: it runs the agent with hooks that report to
it, decides every stop by your project's checks and by you, and shows verdicts, counts and agent
state live.`,
		Usage:    "[flags] command [args...]",
		Complete: completeCommand,
		Command: append(agentCommands, []cli.Command{
			{Name: "demo", Help: "the TUI against a built-in simulated agent (no API key)"},
			{Name: "check", Flags: []cli.Flag{
				{Name: "subagent", Help: "run the [[subagent_stop.checks]] instead"},
				{Name: "v", Help: "show the checks' output as they run"},
			}, Help: "run the configured checks now (exit 0 when all pass; 1 when one fails, or a project file\nis untrusted or broken, which runs none)"},
			{Name: "init", Flags: []cli.Flag{
				{Name: "no-run", Help: "write the checks without proving them on the untouched tree"},
				{Name: "run-timeout", Arg: "DURATION", Help: "how long each check may run when proven (default 2m)"},
			}, Help: `write a commented .hooksup.toml with the checks this project runs (its GitHub
Actions' steps, tox, nox, pre-commit, go, npm/pnpm/yarn/bun, pytest, ruff, cargo, make test),
each proven once on the untouched tree: it passes, changes no file, and a test check runs
tests; what is not, or whose program is missing, is written commented out, with why; never
overwrites`},
			{Name: "trust", Args: "[FILE...]", ArgValues: cli.Values{Files: true}, Flags: []cli.Flag{
				{Name: "show", Help: "only show it; trust nothing"},
				{Name: "yes", Help: "trust without asking (for scripts; on a terminal a file with control characters in\nwhat it runs is asked about all the same)"},
			}, Help: `show what a project's .hooksup.toml (and .hooksup.local.toml) runs and, once you answer y,
trust its exact content; without a terminal it trusts only with --yes, and otherwise exits 1
saying so`},
			{Name: "install", Flags: []cli.Flag{agentFlag, scope},
				Help: "register hooksup's Stop hooks so the plain agent (" + orList(names) + ") runs the checks"},
			{Name: "uninstall", Flags: []cli.Flag{agentFlag, scope}, Help: "remove them again, and nothing else"},
			{Name: "log", Flags: []cli.Flag{
				{Name: "session", Arg: "ID", Values: cli.Values{Dynamic: completeSessions}, Help: "this session's verdicts (its id, or the start of it: the 8 characters shown)"},
				{Name: "list", Help: "list the past sessions instead, the latest first: id, agent, start, what was decided\n(continued, let stop, …), project"},
				{Name: "json", Help: "the verdicts as JSON lines, as recorded (with --list: an array of sessions)"},
				{Name: "f", Help: "keep printing verdicts as they come (without --session, moving on to each newer\nsession of the project)"},
			}, Help: `the verdicts of a session, each with what it did to the agent and why: by default the
latest of the project here (a directory under its .hooksup.toml's, or where a session ran),
else, outside any project, the latest of all, its project named`},
			{Name: "ls", Flags: append([]cli.Flag{{Name: "json", Help: "an array of objects, pending questions included"}}, hostFlags...),
				Help: "every live hooksup session of this user, here and on the [hub] hosts: state, pending questions,\ncontinuations, tokens (one of another hub protocol version, and a host that fails, is named on stderr)"},
			{Name: "approve", Args: "[SESSION]", ArgValues: cli.Values{Dynamic: completeLive}, Flags: append([]cli.Flag{{Name: "reason", Arg: "TEXT", Help: "the continuation's reason instead of the checks'"}}, hostFlags...),
				Help: answerHelp(keymap.Approve, "approve the forced continuation: the agent continues") + ", at the oldest pending question of\nSESSION (a prefix of its id or project, HOST:PREFIX on another machine)"},
			{Name: "deny", Args: "[SESSION]", ArgValues: cli.Values{Dynamic: completeLive}, Flags: hostFlags,
				Help: answerHelp(keymap.Deny, "deny the forced continuation: the agent may stop") + ", at the oldest pending question of SESSION"},
			{Name: "halt", Args: "[SESSION]", ArgValues: cli.Values{Dynamic: completeLive}, Flags: append([]cli.Flag{{Name: "reason", Arg: "TEXT", Help: "why the turn ends"}}, hostFlags...),
				Help: answerHelp(keymap.Halt, "end the turn now") + ", at the oldest pending question of SESSION"},
			{Name: "watch", Flags: hostFlags, Help: `every live session in one live screen: their questions with the time left and the end
of the failed check's output, the latest verdicts; answer the selected session's question with
the session TUI's keys (Esc interrupts it); a card per host that is disconnected, tried again
with a growing wait`},
			{Name: "web", Args: "[pair | devices | revoke ID|--all | token]", Subcommands: []cli.Command{
				{Name: "pair", Flags: []cli.Flag{{Name: "listen", Arg: "ADDR", Values: cli.Values{Dynamic: completeServers},
					Help: "only the server listening on ADDR, when several run"}},
					Help: "a new pairing URL for each running server, naming its address"},
				{Name: "devices", Help: "the paired browsers"},
				{Name: "revoke", Args: "ID", ArgValues: cli.Values{Dynamic: completeDevices},
					Flags: []cli.Flag{{Name: "all", Help: "every paired browser"}}, Help: "end a paired browser's access, or every one's"},
				{Name: "token", Help: "the API token for scripts"},
			},
				Flags: append([]cli.Flag{
					{Name: "listen", Arg: "ADDR", Help: "the address to serve (default " + defaultWebListen + ", loopback only)"},
					{Name: "public-url", Arg: "URL", Help: "the URL the page is reached at (tailscale serve, a proxy): printed, in the QR code, and its host served"},
					{Name: web.AllowHostFlag, Arg: "HOST", Help: "also answer requests that name HOST, a name or an address (repeatable; loopback's\nnames always, and on every interface this machine's)"},
					{Name: "new-token", Help: "make a new API token (scripts' old token stops working)"},
					{Name: "tls-cert", Arg: "FILE", Values: cli.Values{Files: true}, Help: "serve HTTPS with this certificate"},
					{Name: "tls-key", Arg: "FILE", Values: cli.Values{Files: true}, Help: "and this key"},
					{Name: web.PlainHTTPFlag, Help: "accept plain HTTP beyond loopback"},
				}, hostFlags...), Help: `a page and a JSON API over every live session, here and on the [hub] hosts, to answer them
from a browser or a phone; a card per host that is disconnected, tried again with a growing
wait; it prints a URL that pairs one browser, once, within 10 minutes (docs/web.md). pair
prints another for each running server (--listen ADDR: that one's); devices lists the paired
browsers, where they were last seen from; revoke ends one, or --all; token prints the API token
for scripts`},
			{Name: "status", Flags: append([]cli.Flag{{Name: "format", Arg: "FORMAT", Help: "with " + statusFieldList() + " replaced by their counts (another\n{field} is refused)"}}, hostFlags...),
				Help: "one line for a status bar or a prompt: how many sessions work, wait on you, are idle"},
			{Name: "doctor", Help: "each agent's version and the hooks of its settings (" + names[0] + "'s by source: disableAllHooks, risky Stop\nhooks), trust, checks' missing programs"},
			{Name: "themes", Args: "[NAME...]", ArgValues: themeNames, Help: "list and preview the colour themes"},
			{Name: "completion", Args: "bash|zsh|fish", ArgValues: cli.Values{Words: cli.Shells()},
				Help: "the shell completion script (e.g. source <(hooksup completion bash))"},
			{Name: "version", Help: "version, commit, Go version"},
			{Name: "help", Hidden: true},
			{Name: "hook", Hidden: true},
			{Name: hub.StdioCommand, Hidden: true},
			{Name: "man", Hidden: true},
			{Name: completeCommand, Hidden: true},
		}...),
		FlagsTitle: "Flags (before the command)",
		Flags: slices.Concat([]cli.Flag{
			{Name: "config", Arg: "FILE", Values: cli.Values{Files: true}, Help: "use this config file too (trusted; read last)"},
			{Name: "mode", Arg: "MODE", Values: cli.Values{Words: modes}, Help: "auto | ask | manual | observe"},
			{Name: "theme", Arg: "NAME", Values: themeNames, Help: "colour theme"},
			{Name: "no-tui", Help: "run headless even in a terminal"},
			{Name: "strict", Help: "headless: exit 3 when the agent stopped for the last time with a check failing\n(let go by the limit, or by you) and exited 0 itself ([stop] strict)"},
			{Name: "goal", Arg: "TEXT", Help: "goal mode: the agent works toward TEXT until the checks pass and the done command\nexits 0, within the budgets; exit 3 when it is not reached (docs/goal.md)"},
			{Name: "done", Arg: "CMD", Help: "the goal's done command, run in the project's root once the checks pass ([goal] done;\nnone: the checks alone)"},
			{Name: "max-turns", Arg: "N", Help: "the continuations a goal may force (default 20, [goal] max_turns)"},
			{Name: "max-time", Arg: "DURATION", Help: "a goal ends at the first stop past this time, e.g. 2h ([goal] max_time)"},
			{Name: "max-tokens", Arg: "N", Help: "a goal ends at the first stop past this many tokens of the session ([goal] max_tokens)"},
		}, binFlags, []cli.Flag{
			{Name: "debug", Help: "verbose log in the state directory"},
			{Name: "version", Help: "print the version and exit"},
			{Name: "help", Help: "print this help and exit"},
		}),
		Sections: []cli.Section{
			{Title: "Configuration", Text: `built-in defaults < $XDG_CONFIG_HOME/hooksup/config.toml < .hooksup.toml <
.hooksup.local.toml < --config < flags. Project files are used only once trusted, and are
found from a subdirectory too (the nearest from here up to the repository's root).`},
			{Title: "Files", Text: `the same on Linux and macOS. Configuration and custom themes in
$XDG_CONFIG_HOME/hooksup (default ~/.config/hooksup); verdict logs, trust records and hooksup.log
in $XDG_STATE_HOME/hooksup (default ~/.local/state/hooksup); sockets in $XDG_RUNTIME_DIR/hooksup,
else hooksup-UID in $TMPDIR or /tmp. Never a relative directory: a relative XDG variable is
ignored (and said once on stderr), and with no absolute HOME a command that needs them exits 1.`},
			keysSection(),
			{Title: "Configuration keys", ManOnly: true, Text: `every key hooksup reads, with its default; hooksup init
writes them all, commented, in a new .hooksup.toml.`, Items: configItems()},
			{Title: "Environment", ManOnly: true, Items: environmentItems(list)},
			{Title: "Exit status", ManOnly: true, Items: []cli.Item{
				{Term: "the agent's", Text: "hooksup " + andList(names) + " exit with the agent's own status; when it is 0, a headless run with --strict (or [stop] strict) exits 3 if the agent stopped for the last time with a check failing"},
				{Term: "0", Text: "done; hooksup check: every check passed"},
				{Term: "1", Text: "an error, named on stderr with its fix; hooksup check: a check failed, or the project's file is not trusted"},
				{Term: "2", Text: "a command, flag or argument hooksup does not know (it says which, and what you may have meant)"},
				{Term: "3", Text: "--strict (or [stop] strict), headless: the agent exited 0, but stopped for the last time with a check failing, let go by max_continuations or by you (stderr names the checks); --goal: the agent exited 0 but the goal was not reached: a budget ran out, no progress, or it was halted (stderr says which)"},
			}},
			{Title: "Examples", ManOnly: true, Items: []cli.Item{
				{Term: "hooksup demo", Text: "a simulated session with a failing check, no API key needed"},
				{Term: "hooksup init && hooksup trust", Text: "propose checks from the project's CI, then let hooksup run them"},
				{Term: "hooksup " + names[0], Text: names[0] + " under the gate, in hooksup's TUI"},
				{Term: "hooksup --mode auto " + names[0], Text: "the checks alone decide every stop; you only watch"},
				{Term: "hooksup --goal 'make the e2e suite pass' --done 'make e2e' " + names[0] + " -p 'go'", Text: "work until the checks pass and make e2e exits 0, within 20 turns"},
				{Term: "hooksup watch", Text: "every session here and on the [hub] hosts, answered from one screen"},
				{Term: "hooksup approve --reason 'also run gofmt'", Text: "continue the waiting session with your reason"},
				{Term: "hooksup web --public-url https://box.tailnet.ts.net", Text: "a page to answer from a phone"},
				{Term: "hooksup log -f", Text: "follow the verdicts of the newest session"},
			}},
		},
	}
}

// answerHelp is what answering a question does, with the hint of the TUI's key for it:
// "approve the forced continuation: the agent continues (the TUI's "continue")", so that
// approve, deny and halt are known by the words of the keys they stand for.
func answerHelp(action, does string) string {
	k, _ := keymap.Lookup(action)
	return does + " (the TUI's \"" + k.Hint + "\")"
}

// keysSection is the manual's list of the TUI's keys, from the keymap the TUI draws its hints
// from.
func keysSection() cli.Section {
	items := []cli.Item{{Term: keymap.Escape, Text: "always interrupts the agent: every waiting question is answered allow, running checks are killed, and the rest of the turn may stop (the Escape that closes an open overlay stays hooksup's)"}}
	for _, a := range keymap.Actions() {
		term := strings.Join(a.Keys, ", ")
		if a.Scope == keymap.Command {
			term = keymap.DefaultPrefix + " then " + term
		}
		items = append(items, cli.Item{Term: term, Text: a.Help + " (" + a.Name + ", " + a.Scope.String() + ")"})
	}
	return cli.Section{Title: "Keys", ManOnly: true, Items: items, Text: `in the TUI every key goes to the agent but the prefix key, ` +
		keymap.DefaultPrefix + ` ([keys] prefix), after which a key reaches hooksup; the prefix twice sends it to the agent. [keys]
bindings gives an action, named in brackets below, another key.`}
}

// configItems lists every configuration key, from config.Schema.
func configItems() []cli.Item {
	var items []cli.Item
	for _, k := range config.Schema() {
		term := k.Key
		if k.Default != "" {
			term += " = " + k.Default
		}
		items = append(items, cli.Item{Term: term, Text: k.Help})
	}
	return items
}

// environmentItems are the variables hooksup reads, with those of the agents of list.
func environmentItems(list []agent.Agent) []cli.Item {
	var items []cli.Item
	for _, a := range list {
		items = append(items, cli.Item{Term: a.BinEnv(), Text: "the " + a.Name() + " to run (--" + a.Name() + "-bin wins), else " + a.Name() + " on PATH"})
	}
	return append(items,
		cli.Item{Term: "XDG_CONFIG_HOME", Text: "where config.toml and custom themes are (default ~/.config)"},
		cli.Item{Term: "XDG_STATE_HOME", Text: "where verdict logs, trust records and hooksup.log are (default ~/.local/state)"},
		cli.Item{Term: "XDG_RUNTIME_DIR, TMPDIR", Text: "where sessions' sockets are (else /tmp/hooksup-UID)"},
		cli.Item{Term: "HOME", Text: "must be absolute: hooksup never keeps state in a relative directory"},
		cli.Item{Term: "NO_COLOR", Text: "the mono theme, unless --theme or theme names another"},
	)
}

// andList is "a, b and c".
func andList(words []string) string { return joinLast(words, " and ") }

// orList is "a, b or c".
func orList(words []string) string { return joinLast(words, " or ") }

func joinLast(words []string, last string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + last + words[len(words)-1]
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

// runCompletion is `hooksup completion SHELL`.
func runCompletion(args []string, stdout io.Writer) (int, error) {
	if len(args) != 1 {
		return 2, fmt.Errorf("usage: hooksup completion bash|zsh|fish")
	}
	script, err := program().Completion(args[0])
	if err != nil {
		return 2, err
	}
	fmt.Fprint(stdout, script)
	return 0, nil
}

// runMan is `hooksup man`: the man page, in man(7) format (`hooksup man | man -l -`).
func runMan(stdout io.Writer) (int, error) {
	fmt.Fprint(stdout, program().Man())
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
