package main

import (
	"flag"
	"slices"
	"testing"

	"github.com/hooksup/hooksup/internal/cli"
)

// The command line that --help, the man page and the completions are drawn from names exactly
// the flags the commands parse, each taking a value exactly when the parser expects one: each
// command's description against the flag set declared beside it.
func TestCommandLineMatchesFlagSets(t *testing.T) {
	t.Parallel()
	parsers := map[string]*flag.FlagSet{"": globalFlagSet(&globalFlags{})}
	for _, c := range commands() {
		if c.flagSet != nil {
			parsers[c.Name] = c.flagSet()
		}
	}
	p := program()
	described := map[string][]cli.Flag{"": p.Flags}
	for _, c := range p.Command {
		if len(c.Flags) > 0 {
			described[c.Name] = c.Flags
		}
	}
	for name, flags := range described {
		fs, ok := parsers[name]
		if !ok {
			t.Errorf("command %q describes flags but parses none here", name)
			continue
		}
		var parsed []string
		fs.VisitAll(func(f *flag.Flag) { parsed = append(parsed, f.Name) })
		for _, f := range flags {
			if f.Name == "help" {
				continue // the flag package answers -h and --help itself
			}
			pf := fs.Lookup(f.Name)
			if pf == nil {
				t.Errorf("%q: --help shows %s, which is not parsed", name, f.Spelling())
				continue
			}
			isBool := false
			if b, ok := pf.Value.(interface{ IsBoolFlag() bool }); ok {
				isBool = b.IsBoolFlag()
			}
			if f.TakesValue() == isBool {
				t.Errorf("%q: %s takes a value: described %v, parsed %v", name, f.Spelling(), f.TakesValue(), !isBool)
			}
		}
		for _, n := range parsed {
			if !slices.ContainsFunc(flags, func(f cli.Flag) bool { return f.Name == n }) {
				t.Errorf("%q parses -%s, which --help does not show", name, n)
			}
		}
	}
	for name := range parsers {
		if _, ok := described[name]; !ok {
			t.Errorf("%q parses flags the command line does not describe", name)
		}
	}
}
