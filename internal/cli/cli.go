// Package cli describes a command line once — its commands, flags and what their values are —
// and draws from that one description the --help text, the man page and the bash, zsh and fish
// completion scripts, so none of them can drift from the others.
package cli

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Program is a command and its subcommands.
type Program struct {
	Name    string    // "hooksup"
	Summary string    // the man page's NAME line: what it is, in a phrase
	Intro   string    // the first paragraph of --help and the man page's DESCRIPTION
	Usage   string    // the synopsis line of the man page: "[flags] command [args...]"
	Command []Command // in the order --help lists them; Hidden ones are left out of it
	Flags   []Flag    // the global flags, given before the command
	// FlagsTitle heads the global flags in --help: "Flags (before the command)".
	FlagsTitle string
	Sections   []Section // paragraphs after the flags: "Configuration: …"
	// Complete is the hidden command the completion scripts run to ask the program for values
	// that change (themes, sessions): `NAME Complete KIND` prints one value a line, optionally
	// followed by a tab and a description.
	Complete string
}

// Command is a subcommand.
type Command struct {
	Name string
	// GlobalsFirst shows "[flags] " before the name in --help, for the command people most often
	// give global flags to.
	GlobalsFirst bool
	Flags        []Flag
	Args         string // the positional arguments as --help shows them: "[FILE]", "[NAME...]"
	ArgValues    Values // what those arguments complete to
	// Passthrough: every argument after the command belongs to another program (claude's own
	// flags): the completions offer files there, and nothing of this program's.
	Passthrough bool
	// Summary is the command's line in --help and its description in the completion menus: a
	// whole phrase of at most 60 columns, written for that purpose.
	Summary string
	// Group titles the commands --help lists together ("Sessions"), in the order each group
	// first appears.
	Group  string
	Help   string // what it does, whole: help COMMAND and the man page
	Hidden bool   // left out of --help, the man page and the completions
	// Subcommands are the words the command's first argument may be, each with its own flags
	// and arguments (hooksup web revoke ID|--all); the completions offer them, and after one,
	// what it takes. Args says them in --help.
	Subcommands []Command
}

// Flag is a flag: Name "config" is --config (and -config), a one-letter Name "v" is -v.
type Flag struct {
	Name   string
	Arg    string // the value's name in --help ("FILE"); "" for a flag without a value unless Values.Words is set
	Values Values
	Help   string
	// Summary is the flag's description in the completion menus, and a global flag's in --help
	// when Help does not fit its line: a whole phrase; "" when Help's first clause (up to " (",
	// ": " or "; ") is one.
	Summary string
}

// summary is the flag's description for a completion menu or --help's one line.
func (f Flag) summary() string {
	if f.Summary != "" {
		return f.Summary
	}
	return short(f.Help)
}

// Values says what a flag's value or a command's arguments complete to.
type Values struct {
	Words   []string // a fixed set: auto ask manual observe
	Dynamic string   // a kind asked of the program itself at completion time (see Program.Complete)
	Files   bool     // file names
	// Notes describe Words in the zsh and fish menus: "claude" is "Claude Code".
	Notes map[string]string
}

func (v Values) none() bool { return len(v.Words) == 0 && v.Dynamic == "" && !v.Files }

// TakesValue reports whether the flag is followed by a value.
func (f Flag) TakesValue() bool { return f.Arg != "" || !f.Values.none() }

// Spelling is how --help writes the flag: "--config", or "-v" for a one-letter flag.
func (f Flag) Spelling() string {
	if len(f.Name) == 1 {
		return "-" + f.Name
	}
	return "--" + f.Name
}

// spellings are every way the flag package accepts the flag's name.
func (f Flag) spellings() []string { return []string{"-" + f.Name, "--" + f.Name} }

// argText is the value as --help shows it: "FILE", or "local|project|user".
func (f Flag) argText() string {
	if f.Arg != "" {
		return f.Arg
	}
	return strings.Join(f.Values.Words, "|")
}

// Synopsis is the flag with its value: "--config FILE", "--scope local|project|user", "-v".
func (f Flag) Synopsis() string {
	if !f.TakesValue() {
		return f.Spelling()
	}
	return f.Spelling() + " " + f.argText()
}

// Synopsis is the command as --help shows it: "hooksup log [--session ID] [--json] [-f]".
func (p Program) Synopsis(c Command) string {
	parts := []string{p.Name}
	if c.GlobalsFirst {
		parts = append(parts, "[flags]")
	}
	parts = append(parts, c.Name)
	for _, f := range c.Flags {
		parts = append(parts, "["+f.Synopsis()+"]")
	}
	if c.Args != "" {
		parts = append(parts, c.Args)
	}
	return strings.Join(parts, " ")
}

// Visible are the commands --help lists.
func (p Program) Visible() []Command {
	var out []Command
	for _, c := range p.Command {
		if !c.Hidden {
			out = append(out, c)
		}
	}
	return out
}

// Lookup returns the command called name.
func (p Program) Lookup(name string) (Command, bool) {
	for _, c := range p.Command {
		if c.Name == name {
			return c, true
		}
	}
	return Command{}, false
}

// Section is a titled paragraph of --help (and a section of the man page). Items follow the
// text as a list of terms and what they mean; a section that is ManOnly is the manual's alone
// (--help stays a screen long).
type Section struct {
	Title   string
	Text    string
	Items   []Item
	ManOnly bool
}

// Item is one term of a section's list and what it means.
type Item struct {
	Term, Text string
}

// Help is the --help text, one screen as git's and gh's: the intro, the usage, one line per
// command under its group's title, one line per global flag, and the sections that are not the
// manual's alone. A command's flags and whole help are CommandHelp's.
func (p Program) Help() string {
	const (
		width   = 80 // a terminal's default width
		flagCol = 22 // where a flag's help starts
	)
	var b strings.Builder
	b.WriteString(wrap(p.Intro, width, 0))
	b.WriteString("\nUsage: " + p.Name + " " + p.Usage + "\n")
	nameCol := 0
	for _, c := range p.Visible() {
		nameCol = max(nameCol, cols(c.Name)+5)
	}
	var groups []string
	for _, c := range p.Visible() {
		if !slices.Contains(groups, c.Group) {
			groups = append(groups, c.Group)
		}
	}
	for _, g := range groups {
		b.WriteString("\n")
		if g != "" {
			b.WriteString(g + ":\n")
		}
		for _, c := range p.Visible() {
			if c.Group == g {
				writeItem(&b, c.Name, c.Summary, nameCol, width)
			}
		}
	}
	b.WriteString("\n" + p.FlagsTitle + ":\n")
	for _, f := range p.Flags {
		// The whole help where it fits the line, else the summary.
		line := f.Help
		if strings.Contains(line, "\n") || max(flagCol, cols(f.Synopsis())+4)+cols(line) > width {
			line = f.summary()
		}
		writeItem(&b, f.Synopsis(), line, flagCol, width)
	}
	for _, s := range p.Sections {
		if s.ManOnly {
			continue
		}
		b.WriteString("\n" + wrap(s.Title+": "+s.Text, width, 0))
		for _, it := range s.Items {
			writeItem(&b, it.Term, it.Text, flagCol, width)
		}
	}
	return b.String()
}

// CommandHelp is a command's --help text: its synopsis, what it does, and its flags.
func (p Program) CommandHelp(c Command) string {
	const (
		width   = 80 // a terminal's default width
		flagCol = 22
	)
	var b strings.Builder
	b.WriteString(wrapSynopsis("usage: "+p.Synopsis(c), width, len("usage: hooksup ")) + "\n")
	b.WriteString(wrap(c.Help, width, 0))
	if len(c.Flags) > 0 {
		b.WriteString("\nFlags:\n")
		for _, f := range c.Flags {
			writeItem(&b, f.Synopsis(), f.Help, flagCol, width)
		}
	}
	if len(p.Flags) > 0 {
		b.WriteString("\n" + p.FlagsTitle + ": see " + p.Name + " --help.\n")
	}
	return b.String()
}

// WantsHelp reports whether args, a command's arguments, ask for its help: -h, -help or --help
// before any "--".
func WantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// writeItem writes "  term   help…" with the help wrapped at col, on the next line when the
// term is too long to leave room.
func writeItem(b *strings.Builder, term, help string, col, width int) {
	line := "  " + term
	if cols(line)+2 > col {
		b.WriteString(wrapSynopsis(line, width, 6))
		line = ""
	}
	b.WriteString(line + strings.Repeat(" ", col-cols(line)))
	b.WriteString(strings.TrimLeft(wrap(help, width, col), " "))
}

// wrapSynopsis breaks a synopsis into lines of at most width columns between its words and
// bracketed groups ("[--listen ADDR]" is never split), the lines after the first indented by
// indent spaces; it ends with a newline.
func wrapSynopsis(line string, width, indent int) string {
	var parts []string
	depth, start := 0, 0
	for i, r := range line {
		switch r {
		case '[':
			depth++
		case ']':
			depth--
		case ' ':
			if depth == 0 {
				parts = append(parts, line[start:i])
				start = i + 1
			}
		}
	}
	parts = append(parts, line[start:])
	var b strings.Builder
	n := 0
	for i, w := range parts {
		switch {
		case i == 0:
			b.WriteString(w)
			n = cols(w)
		case n+1+cols(w) > width:
			b.WriteString("\n" + strings.Repeat(" ", indent) + w)
			n = indent + cols(w)
		default:
			b.WriteString(" " + w)
			n += 1 + cols(w)
		}
	}
	b.WriteString("\n")
	return b.String()
}

// wrap fills text into lines of at most width columns, each indented by indent spaces, and
// ends it with a newline. A word longer than a line gets a line of its own.
func wrap(text string, width, indent int) string {
	var b strings.Builder
	pad := strings.Repeat(" ", indent)
	n := 0
	for _, w := range strings.Fields(text) {
		switch {
		case n == 0:
			b.WriteString(pad + w)
			n = indent + cols(w)
		case n+1+cols(w) > width:
			b.WriteString("\n" + pad + w)
			n = indent + cols(w)
		default:
			b.WriteString(" " + w)
			n += 1 + cols(w)
		}
	}
	b.WriteString("\n")
	return b.String()
}

// short is the first clause of a help text, for a completion menu: up to the first " (", ": "
// or "; ".
func short(help string) string {
	cut := len(help)
	for _, sep := range []string{" (", ": ", "; "} {
		if i := strings.Index(help, sep); i > 0 && i < cut {
			cut = i
		}
	}
	return strings.Join(strings.Fields(help[:cut]), " ")
}

// cols is how many columns s takes in a terminal (its help texts hold no wide characters).
func cols(s string) int { return utf8.RuneCountInString(s) }
