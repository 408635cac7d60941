package main

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"

	"github.com/hooksup/hooksup/agent/agents"
)

// hooksup --help is one screen, as git's and gh's are: one line per command, grouped, the global
// flags a line each, and man named as the whole manual; a command's detail is help COMMAND's.
func TestHelpIsOneScreen(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	help := e2e.HooksupHelp(t, s)
	lines := strings.Split(strings.TrimSuffix(help, "\n"), "\n")
	if len(lines) > 60 {
		t.Errorf("hooksup --help is %d lines, more than 60:\n%s", len(lines), help)
	}
	for _, c := range program().Visible() {
		line := regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(c.Name) + `  +(\S.*)$`)
		m := line.FindAllStringSubmatch(help, -1)
		if len(m) != 1 {
			t.Errorf("hooksup --help has %d lines for %s, want one", len(m), c.Name)
			continue
		}
		if i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "  "+c.Name+" ") }); i+1 < len(lines) &&
			strings.HasPrefix(lines[i+1], "      ") {
			t.Errorf("%s's line goes on to a second: %q", c.Name, lines[i+1])
		}
	}
	if !regexp.MustCompile(`(?m)^  man  +the whole manual`).MatchString(help) {
		t.Errorf("hooksup --help does not name man as the whole manual:\n%s", help)
	}
	for _, l := range lines {
		if n := len([]rune(l)); n > 80 {
			t.Errorf("a line of %d columns: %q", n, l)
		}
	}
	code, out := s.Hooksup(t, "help", "man")
	if code != 0 || !regexp.MustCompile(`^usage: hooksup man\n\s*the whole manual`).MatchString(out) {
		t.Errorf("hooksup help man: exit %d:\n%s", code, out)
	}
}

// The completion menus describe each command, subcommand and flag with a whole short phrase,
// never one cut off mid-sentence, and each agent of --agent by its product's name.
func TestCompletionDescriptionsAreWholePhrases(t *testing.T) {
	t.Parallel()
	s, env, _ := e2e.CompletionSandbox(t)
	lines := []string{"hooksup ", "hooksup -", "hooksup web ", "hooksup install --agent "}
	for _, c := range program().Visible() {
		lines = append(lines, "hooksup "+c.Name+" -")
		for _, sc := range c.Subcommands {
			lines = append(lines, "hooksup "+c.Name+" "+sc.Name+" -")
		}
	}
	descs := map[string]string{} // description → where it was offered
	offered := fishCompleteDescribed(t, env, s.Project, lines)
	// A command's description is written for the menu, not its help cut short.
	for _, c := range program().Visible() {
		code, help := s.Hooksup(t, "help", c.Name)
		_, text, _ := strings.Cut(help, "\n")
		text, _, _ = strings.Cut(text, "\n\n")
		text = strings.Join(strings.Fields(text), " ")
		d := offered[0][c.Name]
		if code != 0 || d == "" || d != text && strings.HasPrefix(text, d) {
			t.Errorf("fish describes %s as %q, the start of its help %q", c.Name, d, text)
		}
	}
	for i, got := range offered {
		for value, d := range got {
			if d == "" && !strings.HasPrefix(lines[i], "hooksup install --agent") {
				t.Errorf("fish: %q offers %s without a description", lines[i], value)
			}
			descs[d] = "fish: " + lines[i] + value
		}
		if lines[i] == "hooksup install --agent " {
			for _, a := range agents.All() {
				if got[a.Name()] != a.Product() {
					t.Errorf("fish describes --agent %s as %q, want %q", a.Name(), got[a.Name()], a.Product())
				}
			}
		}
	}
	out, err := e2e.ExecHooksup(s, "completion", "zsh").Output()
	if err != nil {
		t.Fatal(err)
	}
	zsh := string(out)
	for _, re := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^\s+'[a-z-]+:(.*)'$`),            // the command menu
		regexp.MustCompile(`'--?[a-z-]+=?\[((?:\\.|[^]\\])*)\]`), // a flag's explanation
		regexp.MustCompile(`[a-z-]+\\:"((?:\\.|[^"\\])*)"`),      // a subcommand's or a value's
	} {
		for _, m := range re.FindAllStringSubmatch(zsh, -1) {
			d := strings.NewReplacer(`\[`, "[", `\]`, "]", `\:`, ":", `\\`, `\`, `'\''`, "'").Replace(m[1])
			descs[d] = "zsh: " + m[0]
		}
	}
	if len(descs) < 40 {
		t.Fatalf("found only %d descriptions", len(descs))
	}
	for d, where := range descs {
		if d == "" {
			continue
		}
		if why := notAPhrase(d); why != "" {
			t.Errorf("%s: %q %s", where, d, why)
		}
	}
}

// notAPhrase says why d is not a whole short phrase for a completion menu, "" when it is.
func notAPhrase(d string) string {
	words := strings.Fields(d)
	last := strings.ToLower(words[len(words)-1])
	switch {
	case len([]rune(d)) > 60:
		return "is longer than 60 columns"
	case strings.Count(d, "(") != strings.Count(d, ")") || strings.Count(d, "[") != strings.Count(d, "]"):
		return "leaves a bracket open"
	case strings.HasSuffix(last, "'s") || strings.HasSuffix(last, "s'"):
		return "ends on a possessive"
	case strings.ContainsAny(d[len(d)-1:], ",:;-"):
		return "ends on a punctuation mark that leads on"
	case slices.Contains([]string{"a", "an", "the", "of", "to", "in", "on", "for", "with", "by", "so", "and", "or", "as",
		"at", "from", "its", "their", "this", "that", "than", "what", "which", "when", "where", "if", "but"}, last):
		return "ends mid-sentence, on " + last
	}
	return ""
}

// fishCompleteDescribed is what fish's own `complete -C` offers for each line: each value with
// its description.
func fishCompleteDescribed(t *testing.T, env []string, dir string, lines []string) []map[string]string {
	t.Helper()
	fish := e2e.RequireShell(t, "fish")
	script := "hooksup completion fish | source\n"
	for _, l := range lines {
		script += "complete -C" + quoteFish(l) + "; echo '-- end --'\n"
	}
	var out []map[string]string
	cur := map[string]string{}
	for _, l := range strings.Split(e2e.RunShell(t, env, dir, fish, "--no-config", "-c", script), "\n") {
		if l == "-- end --" {
			out, cur = append(out, cur), map[string]string{}
			continue
		}
		if v, d, _ := strings.Cut(l, "\t"); v != "" {
			cur[v] = d
		}
	}
	if len(out) != len(lines) {
		t.Fatalf("fish answered %d of %d lines", len(out), len(lines))
	}
	return out
}

// quoteFish quotes s for fish in single quotes.
func quoteFish(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(s) + "'"
}
