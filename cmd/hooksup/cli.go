package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/agent/agents"
	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/internal/cli"
	"github.com/hooksup/hooksup/internal/keymap"
)

// program is hooksup's command line: --help, help COMMAND, `hooksup man` and `hooksup
// completion` are drawn from it. A command is declared in the file named for it and listed in
// commandsOf; its flags here are held to the flag set that parses them by
// TestCommandLineMatchesFlagSets.
func program() cli.Program { return programOf(agents.All()) }

// programOf is the command line of hooksup supervising the agents list (agents.All), the first
// the default: every agent's command, flags, help and variable come from the list alone.
func programOf(list []agent.Agent) cli.Program {
	var modes []string
	for _, m := range config.Modes() {
		modes = append(modes, string(m))
	}
	var names, products []string
	for _, a := range list {
		names = append(names, a.Name())
		products = append(products, a.Product())
	}
	var binFlags []cli.Flag
	for _, a := range list {
		binFlags = append(binFlags, cli.Flag{Name: a.Name() + "-bin", Arg: "PATH", Values: cli.Values{Files: true},
			Help:    fmt.Sprintf("the %s to run (default: $%s, else %s on PATH)", a.Name(), a.BinEnv(), a.Name()),
			Summary: fmt.Sprintf("the %s to run (default: $%s)", a.Name(), a.BinEnv())})
	}
	var cmds []cli.Command
	for _, c := range commandsOf(list) {
		cmds = append(cmds, c.Command)
	}
	return cli.Program{
		Name:    "hooksup",
		Summary: "supervise " + andList(products) + ": your checks and you decide every stop",
		Intro: "hooksup supervises " + andList(products) + `: it runs the agent with hooks that report to
it, decides every stop by your project's checks and by you, and shows verdicts, counts and agent
state live.`,
		Usage:      "[flags] command [args...]",
		Complete:   completeCommand,
		Command:    cmds,
		FlagsTitle: "Flags (before the command)",
		Flags: slices.Concat([]cli.Flag{
			{Name: "config", Arg: "FILE", Values: cli.Values{Files: true}, Help: "use this config file too (trusted; read last)"},
			{Name: "mode", Arg: "MODE", Values: cli.Values{Words: modes}, Help: "auto | ask | manual | observe"},
			{Name: "theme", Arg: "NAME", Values: cli.Values{Dynamic: completeThemes}, Help: "colour theme"},
			{Name: "no-tui", Help: "run headless even in a terminal"},
			{Name: "strict", Help: "headless: exit 3 when the agent stopped for the last time with a check failing\n(let go by the limit, or by you) and exited 0 itself ([stop] strict)",
				Summary: "headless: exit 3 if the agent stopped with a check failing"},
			{Name: "goal", Arg: "TEXT", Help: "goal mode: the agent works toward TEXT until the checks pass and the done command\nexits 0, within the budgets; exit 3 when it is not reached (docs/goal.md)",
				Summary: "goal mode: work toward TEXT until it is done"},
			{Name: "done", Arg: "CMD", Help: "the goal's done command, run in the project's root once the checks pass ([goal] done;\nnone: the checks alone)",
				Summary: "the goal's done command, run once the checks pass"},
			{Name: "max-turns", Arg: "N", Help: "the continuations a goal may force (default 20, [goal] max_turns)"},
			{Name: "max-time", Arg: "TIME", Help: "a goal ends at the first stop past this time, e.g. 2h ([goal] max_time)"},
			{Name: "max-tokens", Arg: "N", Help: "a goal ends at the first stop past this many tokens of the session ([goal] max_tokens)",
				Summary: "a goal ends past this many tokens"},
			{Name: "protect", Arg: "GLOB", Help: "a goal pauses when the agent changes files matching GLOB, e.g. '*_test.go'\n(repeatable; [goal] protect)",
				Summary: "a goal pauses when the agent changes these files"},
		}, binFlags, []cli.Flag{
			{Name: "debug", Help: "verbose log in the state directory"},
			{Name: "version", Help: "print the version and exit"},
			{Name: "help", Help: "print this help and exit"},
		}),
		Sections: []cli.Section{
			{Title: "Configuration", ManOnly: true, Text: `built-in defaults < $XDG_CONFIG_HOME/hooksup/config.toml < .hooksup.toml <
.hooksup.local.toml < --config < flags. Project files are used only once trusted, and are
found from a subdirectory too (the nearest from here up to the repository's root).`},
			{Title: "Files", ManOnly: true, Text: `the same on Linux and macOS. Configuration and custom themes in
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

// keysSection is the manual's list of the TUI's keys, from the keymap the TUI draws its hints
// from.
func keysSection() cli.Section {
	items := []cli.Item{{Term: keymap.Escape, Text: "always interrupts the agent: every waiting question is answered \"let it stop\", running checks are killed, and the rest of the turn may stop (the Escape that closes an open overlay stays hooksup's)"}}
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
