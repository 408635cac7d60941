package main

import (
	"errors"
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/hooksup/hooksup/internal/suggest"
	"github.com/hooksup/hooksup/internal/termsafe"
)

// parseFlags is fs.Parse, with an unknown flag said as the person typed it and with the flag
// they most likely meant: "unknown flag --mdoe: did you mean --mode?".
func parseFlags(fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	if err == nil {
		return nil
	}
	if e, ok := invalidValue(err); ok {
		return e
	}
	name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -")
	if !ok {
		return err
	}
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	msg := "unknown flag " + dashes(name)
	if c := suggest.Closest(name, names); c != "" {
		msg += ": did you mean " + dashes(c) + "?"
	}
	return errors.New(msg)
}

// invalidValue rewords the flag package's "invalid value "x\x1b" for flag -host: …", which
// Go-quotes the value, as hooksup names what the person typed everywhere: `--host "x\e": …`
// (termsafe.String), the flag as --help writes it.
func invalidValue(err error) (error, bool) {
	rest, ok := strings.CutPrefix(err.Error(), "invalid value ")
	if !ok {
		return nil, false
	}
	q, qerr := strconv.QuotedPrefix(rest)
	v, verr := strconv.Unquote(q)
	after, ok := strings.CutPrefix(rest[len(q):], " for flag -")
	if qerr != nil || verr != nil || !ok {
		return nil, false
	}
	name, msg, _ := strings.Cut(after, ": ")
	return fmt.Errorf("%s \"%s\": %s", dashes(name), termsafe.String(v), msg), true
}

// dashes is a flag as --help writes it: -f, --mode.
func dashes(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// unknownCommand is the error of a command hooksup does not have, with the one most likely meant.
func unknownCommand(name string) error {
	var names []string
	for _, c := range program().Command {
		if !c.Hidden {
			names = append(names, c.Name)
		}
	}
	if c := suggest.Closest(name, names); c != "" {
		return fmt.Errorf("unknown command %q: did you mean %s? (see hooksup --help)", name, c)
	}
	return fmt.Errorf("unknown command %q (see hooksup --help)", name)
}

// hooksupOnlyFlags are hooksup's global flags that no agent has: given after the agent's name
// they would reach the agent, which refuses them ("unknown option '--mode'").
var hooksupOnlyFlags = []string{"mode", "theme", "no-tui", "strict", "goal", "done", "protect"}

// misplacedFlag says so when args, an agent's arguments, hold one of hooksup's own flags
// before a "--": hooksup's flags go before the agent's name.
func misplacedFlag(agentName string, args []string) error {
	for _, a := range args {
		if a == "--" {
			return nil
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && slices.Contains(hooksupOnlyFlags, name) {
			return fmt.Errorf("%s is hooksup's flag, not %s's: hooksup's flags go before the agent's name, e.g. hooksup %s %s … (hooksup's flags: --config, --mode, --theme, --no-tui, --strict, --debug)",
				dashes(name), agentName, a, agentName)
		}
	}
	return nil
}
