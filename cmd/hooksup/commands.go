package main

import (
	"context"
	"flag"
	"os"
	"slices"
	"strings"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/agent/agents"
	"github.com/hooksup/hooksup/internal/cli"
)

// command is one of hooksup's commands, declared once in the file named for it: how --help, help
// COMMAND, the man page and the completions describe it (cli.Command: its summary, its whole
// help, its flags and arguments), the flag set that parses those flags, and what runs it.
type command struct {
	cli.Command
	// run runs the command with the arguments after its name.
	run func(ctx context.Context, g globalFlags, args []string, std stdio) (int, error)
	// flagSet is a flag set parsing the command's flags, for TestCommandLineMatchesFlagSets to
	// hold to Command.Flags; nil when it has none.
	flagSet func() *flag.FlagSet
	// ownHelp: --help after the command is not hooksup's to answer (an agent's arguments are the
	// agent's, the hook's are its call) or the command answers it itself (watch lists its keys).
	ownHelp bool
	// noDirs: the command reads none of hooksup's directories, or its output is another
	// program's (a completion script's values, hub-stdio's wire): hooksup does not tell of the
	// XDG variables it ignores before it runs.
	noDirs bool
}

// stdio is a command's standard input, output and error.
type stdio struct{ in, out, err *os.File }

// Groups of --help, in its order.
const (
	groupAgents   = "Supervise an agent"
	groupProject  = "Set up a project"
	groupSessions = "Answer and follow sessions"
	groupMore     = "More"
)

// commands are hooksup's commands.
func commands() []command { return commandsOf(agents.All()) }

// commandsOf are the commands of hooksup supervising the agents of list, in the order --help
// lists them: one per agent, then the rest.
func commandsOf(list []agent.Agent) []command {
	s := sharedOf(list)
	var cs []command
	for _, a := range list {
		cs = append(cs, agentCommand(a))
	}
	cs = append(cs,
		demoCommand(),
		initCommand(), trustCommand(), checkCommand(), installCommand(s), uninstallCommand(s), doctorCommand(s),
		logCommand(), lsCommand(s), approveCommand(s), denyCommand(s), haltCommand(s), watchCommand(s), webCommand(s), statusCommand(s), goalCommand(s),
		themesCommand(), completionCommand(), versionCommand(), manCommand(), helpCommand(),
		hookCommand(), hubStdioCommand(), completeHiddenCommand(),
	)
	// help COMMAND completes to the commands there are, each described as --help lists it.
	i := slices.IndexFunc(cs, func(c command) bool { return c.Name == "help" })
	notes := map[string]string{}
	for _, c := range cs {
		if !c.Hidden {
			cs[i].ArgValues.Words = append(cs[i].ArgValues.Words, c.Name)
			notes[c.Name] = c.Summary
		}
	}
	cs[i].ArgValues.Notes = notes
	return cs
}

// lookup is the command called name.
func lookup(name string) (command, bool) {
	cs := commands()
	i := slices.IndexFunc(cs, func(c command) bool { return c.Name == name })
	if i < 0 {
		return command{}, false
	}
	return cs[i], true
}

// shared are the parts of several commands' descriptions drawn from the agents' list: their
// names, install's --agent and --scope, and the hub commands' --host and --local.
type shared struct {
	names     []string
	agentFlag cli.Flag
	scope     cli.Flag
	hostFlags []cli.Flag
}

func sharedOf(list []agent.Agent) shared {
	var s shared
	var scopes, scopeHelp, installHelp []string
	notes := map[string]string{}
	for i, a := range list {
		s.names = append(s.names, a.Name())
		notes[a.Name()] = a.Product()
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
	s.scope = cli.Flag{Name: "scope", Values: cli.Values{Words: scopes},
		Help: "which settings file, by agent: " + strings.Join(scopeHelp, "; ")}
	s.agentFlag = cli.Flag{Name: "agent", Arg: "NAME", Values: cli.Values{Words: s.names, Notes: notes}, Help: orList(installHelp),
		Summary: "the agent, by its command (default " + s.names[0] + ")"}
	s.hostFlags = []cli.Flag{
		{Name: "host", Arg: "DEST", Values: cli.Values{Dynamic: completeHosts}, Help: "also the sessions on DEST, over ssh (repeatable; DEST is anything ssh accepts)"},
		{Name: "local", Help: "this machine only, not the [hub] hosts of your config"},
	}
	return s
}
