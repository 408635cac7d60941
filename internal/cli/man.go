package cli

import (
	"fmt"
	"strings"
)

// Man is the program's man page (section 1, man(7) macros), drawn from the same description as
// Help: the intro, every visible command with its synopsis and help, the global flags, and the
// sections after them.
func (p Program) Man() string {
	var b strings.Builder
	up := strings.ToUpper(p.Name)
	fmt.Fprintf(&b, ".TH %s 1 \"\" \"%s\" \"User Commands\"\n", up, roff(p.Name))
	// No hyphenation and a ragged right margin: flags and paths stay whole.
	b.WriteString(".nh\n.ad l\n")
	b.WriteString(".SH NAME\n")
	fmt.Fprintf(&b, "%s \\- %s\n", roff(p.Name), roff(p.Summary))
	b.WriteString(".SH SYNOPSIS\n")
	fmt.Fprintf(&b, ".B %s\n%s\n", roff(p.Name), roff(p.Usage))
	b.WriteString(".SH DESCRIPTION\n")
	b.WriteString(roff(p.Intro) + "\n")
	b.WriteString(".SH COMMANDS\n")
	for _, c := range p.Visible() {
		fmt.Fprintf(&b, ".TP\n.B %s\n%s\n", roffArg(p.Synopsis(c)), roff(c.Help))
	}
	b.WriteString(".SH OPTIONS\n")
	b.WriteString(roff(p.FlagsTitle) + ":\n")
	for _, f := range p.Flags {
		fmt.Fprintf(&b, ".TP\n.B %s\n%s\n", roffArg(f.Synopsis()), roff(f.Help))
	}
	for _, s := range p.Sections {
		fmt.Fprintf(&b, ".SH %s\n", roff(strings.ToUpper(s.Title)))
		if s.Text != "" {
			b.WriteString(roff(s.Text) + "\n")
		}
		for _, it := range s.Items {
			fmt.Fprintf(&b, ".TP\n.B %s\n%s\n", roffArg(it.Term), roff(it.Text))
		}
	}
	return b.String()
}

// roff escapes text for a man page line: backslashes, hyphens (so options copy as the ASCII
// hyphen-minus), and a leading dot or quote, which would start a request. Whitespace, newlines
// included, becomes single spaces: the formatter fills the lines itself.
func roff(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	s = strings.NewReplacer(`\`, `\e`, "-", `\-`).Replace(s)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}

// roffArg escapes text for the arguments of a macro (.B): as roff, and a double quote, which
// would otherwise delimit the arguments and vanish.
func roffArg(s string) string {
	return strings.ReplaceAll(roff(s), `"`, `\(dq`)
}
