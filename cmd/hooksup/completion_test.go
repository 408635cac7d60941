package main

import (
	"bytes"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/hub"
	"github.com/hooksup/hooksup/internal/agentsim"
	"github.com/hooksup/hooksup/internal/cli"
	"github.com/hooksup/hooksup/internal/keymap"
	"github.com/hooksup/hooksup/web"
)

// Each script loads in its shell and registers itself for hooksup, as docs/usage.md tells
// people to load it.
func TestCompletionScriptsLoad(t *testing.T) {
	t.Parallel()
	s, env, _ := e2e.CompletionSandbox(t)
	t.Run("bash", func(t *testing.T) {
		bash := e2e.RequireShell(t, "bash")
		out := e2e.RunShell(t, env, s.Project, bash, "-c", "source <(hooksup completion bash); complete -p hooksup")
		if strings.TrimSpace(out) != "complete -F _hooksup hooksup" {
			t.Fatalf("complete -p hooksup: %q", out)
		}
	})
	t.Run("zsh", func(t *testing.T) {
		script, err := e2e.ExecHooksup(s, "completion", "zsh").Output()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(script), "#compdef hooksup\n") {
			t.Fatalf("the zsh script does not start with #compdef hooksup:\n%.200s", script)
		}
		zsh := e2e.RequireShell(t, "zsh")
		path := filepath.Join(s.Project, "_hooksup")
		os.WriteFile(path, script, 0o600)
		e2e.RunShell(t, env, s.Project, zsh, "-n", path)
		out := e2e.RunShell(t, env, s.Project, zsh, "-f", "-c",
			"autoload -U compinit && compinit -u -D && source <(hooksup completion zsh) && print -r -- $_comps[hooksup]")
		if strings.TrimSpace(out) != "_hooksup" {
			t.Fatalf("sourced, the script registered %q for hooksup", out)
		}
		// Saved as _hooksup in $fpath, compinit finds it by its #compdef line.
		out = e2e.RunShell(t, env, s.Project, zsh, "-f", "-c",
			"fpath=("+e2e.ShellQuote(s.Project)+" $fpath) && autoload -U compinit && compinit -u -D && print -r -- $_comps[hooksup]")
		if strings.TrimSpace(out) != "_hooksup" {
			t.Fatalf("from $fpath, compinit registered %q for hooksup", out)
		}
	})
	t.Run("fish", func(t *testing.T) {
		fish := e2e.RequireShell(t, "fish")
		script, err := e2e.ExecHooksup(s, "completion", "fish").Output()
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(s.Project, "hooksup.fish")
		os.WriteFile(path, script, 0o600)
		e2e.RunShell(t, env, s.Project, fish, "-n", path)
		out := e2e.RunShell(t, env, s.Project, fish, "--no-config", "-c", "hooksup completion fish | source; complete -c hooksup")
		if !strings.Contains(string(script), "\ncomplete -c hooksup ") || !strings.Contains(out, "complete --exclusive hooksup -l mode") {
			t.Fatalf("fish has no completions for hooksup:\n%s", out)
		}
	})
	if out, err := e2e.ExecHooksup(s, "completion", "tcsh").CombinedOutput(); err == nil || !strings.Contains(string(out), "bash, zsh, fish") {
		t.Fatalf("an unknown shell: %v %s", err, out)
	}
}

// completionCase is a command line typed so far and what completing it must and must not offer.
type completionCase struct {
	line     string
	want     []string
	wantNot  []string
	onlyWant bool // nothing but want
}

// completionCases are what the scripts must complete; device is a paired browser's id.
func completionCases(device string) []completionCase {
	modes := []string{"auto", "ask", "manual", "observe"}
	var commands []string
	for _, c := range program().Visible() {
		commands = append(commands, c.Name)
	}
	return []completionCase{
		{line: "hooksup ma", want: []string{"man"}, onlyWant: true},
		{line: "hooksup help ", want: commands, onlyWant: true},
		{line: "hooksup help uni", want: []string{"uninstall"}, onlyWant: true},
		{line: "hooksup --mode ", want: modes, onlyWant: true},
		{line: "hooksup --mode=", want: modes, onlyWant: true},
		{line: "hooksup --mode a", want: []string{"auto", "ask"}, onlyWant: true},
		{line: "hooksup --theme ", want: []string{"dark", "gruvbox-dark", "my-ocean"}},
		{line: "hooksup --config x.toml --theme my", want: []string{"my-ocean"}, onlyWant: true},
		{line: "hooksup --mode auto cl", want: []string{"claude"}, onlyWant: true},
		{line: "hooksup install --scope ", want: []string{"local", "project", "user"}, onlyWant: true},
		{line: "hooksup uninstall --scope p", want: []string{"project"}, onlyWant: true},
		{line: "hooksup log --session ", want: []string{e2e.CompletionSession}, onlyWant: true},
		{line: "hooksup log -", want: []string{"--session", "--list", "--json", "-f"}, onlyWant: true},
		{line: "hooksup check -", want: []string{"--subagent", "-v"}, onlyWant: true},
		{line: "hooksup completion ", want: []string{"bash", "zsh", "fish"}, onlyWant: true},
		{line: "hooksup web ", want: []string{"pair", "devices", "revoke", "token"}, onlyWant: true},
		{line: "hooksup web --listen 127.0.0.1:9 re", want: []string{"revoke"}, onlyWant: true},
		{line: "hooksup web revoke ", want: []string{device}, onlyWant: true},
		{line: "hooksup web revoke -", want: []string{"--all"}, onlyWant: true},
		{line: "hooksup web token ", onlyWant: true},
		{line: "hooksup themes my", want: []string{"my-ocean"}, onlyWant: true},
		// After claude every argument is claude's: nothing of hooksup's is offered.
		{line: "hooksup claude --", wantNot: []string{"--mode", "--config", "--theme"}},
		{line: "hooksup --debug claude -", wantNot: []string{"--mode", "--debug"}},
	}
}

func checkCompletion(t *testing.T, c completionCase, got []string) {
	t.Helper()
	for _, w := range c.want {
		if !slices.Contains(got, w) {
			t.Errorf("%q offers %q, not %q", c.line, got, w)
		}
	}
	for _, w := range c.wantNot {
		if slices.Contains(got, w) {
			t.Errorf("%q offers %q, which it must not", c.line, w)
		}
	}
	if c.onlyWant && len(got) != len(c.want) {
		t.Errorf("%q offers %q, want exactly %q", c.line, got, c.want)
	}
}

// bashWords splits a command line as bash's completion does: at spaces, and around "=".
func bashWords(line string) []string {
	var words []string
	for _, w := range strings.Split(line, " ") {
		if before, after, ok := strings.Cut(w, "="); ok && strings.HasPrefix(w, "-") {
			words = append(words, before, "=")
			if after != "" {
				words = append(words, after)
			}
			continue
		}
		words = append(words, w)
	}
	return words
}

// The bash script completes each case: its function is called as bash calls it, with the words
// and the cursor's word, and what it leaves in COMPREPLY is read back.
func TestCompletionBash(t *testing.T) {
	t.Parallel()
	bash := e2e.RequireShell(t, "bash")
	s, env, device := e2e.CompletionSandbox(t)
	var script strings.Builder
	script.WriteString("source <(hooksup completion bash)\n")
	script.WriteString("t() { COMP_WORDS=(\"$@\"); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMPREPLY=(); _hooksup; printf '%s\\n' \"${COMPREPLY[*]}\"; }\n")
	cases := completionCases(device)
	for _, c := range cases {
		script.WriteString("t")
		for _, w := range bashWords(c.line) {
			script.WriteString(" " + e2e.ShellQuote(w))
		}
		script.WriteString("\n")
	}
	lines := strings.Split(e2e.RunShell(t, env, s.Project, bash, "-c", script.String()), "\n")
	for i, c := range cases {
		checkCompletion(t, c, strings.Fields(lines[i]))
	}
}

// fishComplete returns what fish's own `complete -C` offers for each line, from one fish.
func fishComplete(t *testing.T, env []string, dir string, lines []string) [][]string {
	t.Helper()
	fish := e2e.RequireShell(t, "fish")
	script := "hooksup completion fish | source\n"
	for _, l := range lines {
		script += "complete -C" + e2e.ShellQuote(l) + "; echo '-- end --'\n"
	}
	var out [][]string
	var cur []string
	for _, l := range strings.Split(e2e.RunShell(t, env, dir, fish, "--no-config", "-c", script), "\n") {
		if l == "-- end --" {
			out, cur = append(out, cur), nil
			continue
		}
		if v, _, _ := strings.Cut(l, "\t"); v != "" {
			cur = append(cur, strings.TrimPrefix(v, "--mode=")) // fish offers the whole word after "="
		}
	}
	if len(out) != len(lines) {
		t.Fatalf("fish answered %d of %d lines", len(out), len(lines))
	}
	return out
}

// The fish script completes each case, as fish's own `complete -C` reports (after claude, fish
// offers the project's files, not hooksup's flags).
func TestCompletionFish(t *testing.T) {
	t.Parallel()
	s, env, device := e2e.CompletionSandbox(t)
	cases := completionCases(device)
	var lines []string
	for _, c := range cases {
		lines = append(lines, c.line)
	}
	for i, got := range fishComplete(t, env, s.Project, lines) {
		checkCompletion(t, cases[i], got)
	}
}

// A person at an interactive bash, zsh and fish presses Tab: flag values, the sessions, the
// custom themes and the paired browsers come up, the last three asked of hooksup itself.
func TestCompletionInteractive(t *testing.T) {
	t.Parallel()
	s, env, device := e2e.CompletionSandbox(t)
	env = append(env, "TERM=xterm-256color", "PS1=$ ")
	for _, sh := range []struct {
		name  string
		argv  []string
		setup string
	}{
		{"bash", []string{"bash", "--norc", "--noprofile", "-i"}, "source <(hooksup completion bash)"},
		{"zsh", []string{"zsh", "-f", "-i"}, "PS1='$ '; autoload -U compinit && compinit -u -D && source <(hooksup completion zsh)"},
		{"fish", []string{"fish", "--no-config", "-i"}, "hooksup completion fish | source"},
	} {
		t.Run(sh.name, func(t *testing.T) {
			shell := e2e.RequireShell(t, sh.name)
			tm := e2e.StartTmux(t, 120, 30, env, s.Project, append([]string{shell}, sh.argv[1:]...)...)
			// Typed once the shell's line editor is up: it draws the prompt then.
			tm.WaitFor("the shell's prompt", 10*time.Second, func(screen string) bool { return strings.TrimSpace(screen) != "" })
			tm.Text(sh.setup + "; echo ready-$((6*7))")
			if sh.name == "fish" {
				tm.Keys("C-u")
				tm.Text(sh.setup + "; echo ready-(math 6 '*' 7)")
			}
			tm.Keys("Enter")
			tm.WaitText(10*time.Second, "ready-42")
			for _, step := range []struct{ typed, want string }{
				{"hooksup log --session ", "hooksup log --session " + e2e.CompletionSession},
				{"hooksup --theme my-", "hooksup --theme my-ocean"},
				{"hooksup install --scope pr", "hooksup install --scope project"},
				{"hooksup --mode ob", "hooksup --mode observe"},
				{"hooksup web rev", "hooksup web revoke"},
				{"hooksup web revoke ", "hooksup web revoke " + device},
				{"hooksup ma", "hooksup man"},
				{"hooksup help unin", "hooksup help uninstall"},
			} {
				tm.Keys("C-u")
				tm.Text(step.typed)
				tm.Keys("Tab")
				tm.WaitText(10*time.Second, step.want)
			}
			tm.Keys("C-u")
		})
	}
}

// helpSurface is what `hooksup --help` offers: its commands, each with its flags, and the global
// flags.
type helpSurface struct {
	commands    []string
	flags       map[string][]string // command → its flags
	globalFlags []string
}

func parseHelp(t *testing.T, s *e2e.Sandbox) helpSurface {
	t.Helper()
	h := helpSurface{flags: map[string][]string{}}
	help := e2e.HooksupHelp(t, s)
	cmdLine := regexp.MustCompile(`^  ([a-z]+)  +\S`)
	globalFlag := regexp.MustCompile(`^  (--[a-z-]+)`)
	section := ""
	for _, l := range strings.Split(help, "\n") {
		switch {
		case strings.HasPrefix(l, "Flags"):
			section = "flags"
		case l != "" && !strings.HasPrefix(l, " ") && section != "flags":
			section = "commands"
		case section == "commands":
			if m := cmdLine.FindStringSubmatch(l); m != nil {
				h.commands = append(h.commands, m[1])
			}
		case section == "flags":
			if m := globalFlag.FindStringSubmatch(l); m != nil {
				h.globalFlags = append(h.globalFlags, m[1])
			}
		}
	}
	// Each command's flags are its help's.
	flagLine := regexp.MustCompile(`^  (--?[a-z-]+)`)
	for _, c := range h.commands {
		code, out := s.Hooksup(t, "help", c)
		if code != 0 {
			t.Fatalf("hooksup help %s: exit %d\n%s", c, code, out)
		}
		_, flags, ok := strings.Cut(out, "\nFlags:\n")
		if !ok {
			continue
		}
		flags, _, _ = strings.Cut(flags, "\n\n")
		for _, l := range strings.Split(flags, "\n") {
			if m := flagLine.FindStringSubmatch(l); m != nil {
				h.flags[c] = append(h.flags[c], m[1])
			}
		}
	}
	if len(h.commands) < 10 || len(h.globalFlags) < 5 || len(h.flags["log"]) != 4 {
		t.Fatalf("could not read the commands and flags of --help: %+v\n%s", h, help)
	}
	return h
}

// Every command and flag --help shows is completed by each shell's script, and named in the
// README or the docs.
func TestHelpCompletionsAndDocsAgree(t *testing.T) {
	t.Parallel()
	s, env, _ := e2e.CompletionSandbox(t)
	h := parseHelp(t, s)
	commandCase := completionCase{line: "hooksup ", want: h.commands, onlyWant: true}
	cases := []completionCase{commandCase, {line: "hooksup -", want: h.globalFlags, onlyWant: true}}
	for _, c := range h.commands {
		if fl := h.flags[c]; len(fl) > 0 {
			cases = append(cases, completionCase{line: "hooksup " + c + " -", want: fl, onlyWant: true})
		}
	}
	t.Run("bash", func(t *testing.T) {
		bash := e2e.RequireShell(t, "bash")
		var script strings.Builder
		script.WriteString("source <(hooksup completion bash)\n")
		script.WriteString("t() { COMP_WORDS=(\"$@\"); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMPREPLY=(); _hooksup; printf '%s\\n' \"${COMPREPLY[*]}\"; }\n")
		for _, c := range cases {
			script.WriteString("t")
			for _, w := range bashWords(c.line) {
				script.WriteString(" " + e2e.ShellQuote(w))
			}
			script.WriteString("\n")
		}
		lines := strings.Split(e2e.RunShell(t, env, s.Project, bash, "-c", script.String()), "\n")
		for i, c := range cases {
			checkCompletion(t, c, strings.Fields(lines[i]))
		}
	})
	t.Run("fish", func(t *testing.T) {
		var lines []string
		for _, c := range cases {
			lines = append(lines, c.line)
		}
		for i, got := range fishComplete(t, env, s.Project, lines) {
			checkCompletion(t, cases[i], got)
		}
	})
	t.Run("zsh", func(t *testing.T) {
		// The zsh script read as text: each command in the command menu, each flag in an
		// _arguments spec (TestCompletionInteractive presses Tab in a real zsh).
		out, err := e2e.ExecHooksup(s, "completion", "zsh").Output()
		if err != nil {
			t.Fatal(err)
		}
		script := string(out)
		for _, c := range h.commands {
			if !strings.Contains(script, "'"+c+":") {
				t.Errorf("the zsh script's command menu lacks %s", c)
			}
			for _, f := range h.flags[c] {
				if !regexp.MustCompile(`(?s)\n\s+` + c + `\)\n[^;]*'` + f + `[=\[]`).MatchString(script) {
					t.Errorf("the zsh script does not complete %s for %s", f, c)
				}
			}
		}
		for _, f := range h.globalFlags {
			if !strings.Contains(script, "'"+f+"[") && !strings.Contains(script, "'"+f+"=[") {
				t.Errorf("the zsh script lacks the global flag %s", f)
			}
		}
	})
	t.Run("docs", func(t *testing.T) {
		pages, err := filepath.Glob("../../docs/*.md")
		if err != nil || len(pages) == 0 {
			t.Fatalf("no pages in docs/: %v", err)
		}
		var docs []byte
		for _, p := range append([]string{"../../README.md"}, pages...) {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			docs = append(docs, b...)
		}
		for _, c := range h.commands {
			if !strings.Contains(string(docs), "hooksup "+c) {
				t.Errorf("neither README.md nor docs/ shows hooksup %s", c)
			}
		}
		for _, f := range h.globalFlags {
			if !regexp.MustCompile(regexp.QuoteMeta(f) + `\b`).Match(docs) {
				t.Errorf("neither README.md nor docs/ mentions %s", f)
			}
		}
	})
}

// The man page says what --help and help COMMAND say: rendered by groff, it holds every command
// with its synopsis and whole help, and every global flag with its help (but where --help gives
// its summary), word for word; groff has nothing to warn about.
func TestManPageMatchesHelp(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("groff"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("groff is not installed (CI must install it)")
		}
		t.Skip("groff is not installed")
	}
	s := e2e.NewSandbox(t)
	page, err := e2e.ExecHooksup(s, "man").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(page), ".TH HOOKSUP 1 ") {
		t.Fatalf("not a man page:\n%.300s", page)
	}
	lint := exec.Command("groff", "-man", "-Tascii", "-ww", "-z")
	lint.Stdin = bytes.NewReader(page)
	if out, err := lint.CombinedOutput(); err != nil || len(out) > 0 {
		t.Fatalf("groff warns: %v\n%s", err, out)
	}
	render := exec.Command("groff", "-man", "-Tascii", "-P-cbou")
	render.Stdin = bytes.NewReader(page)
	text, err := render.Output()
	if err != nil {
		t.Fatal(err)
	}
	norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	man := norm(string(text))
	h := parseHelp(t, s)
	if intro, _, _ := strings.Cut(e2e.HooksupHelp(t, s), "\n\n"); !strings.Contains(man, norm(intro)) {
		t.Errorf("the man page lacks the intro %q", norm(intro))
	}
	// Each command's synopsis and whole help, as help COMMAND gives them.
	for _, c := range h.commands {
		_, out := s.Hooksup(t, "help", c)
		usage, rest, _ := strings.Cut(out, "\n\n")
		help, _, _ := strings.Cut(rest, "\n\n")
		for _, it := range []string{norm(strings.TrimPrefix(usage, "usage: ")), norm(help)} {
			if !strings.Contains(man, it) {
				t.Errorf("the man page lacks %s's %q", c, it)
			}
		}
	}
	// Each global flag --help lists, with its value, and the whole help where --help shows it.
	for _, l := range strings.Split(e2e.HooksupHelp(t, s), "\n") {
		if !strings.HasPrefix(l, "  --") {
			continue
		}
		synopsis, help, _ := strings.Cut(strings.TrimSpace(l), "  ")
		if !strings.Contains(man, synopsis+" ") {
			t.Errorf("the man page lacks %q", synopsis)
		}
		if f := strings.Fields(synopsis)[0]; !strings.Contains(man, strings.TrimSpace(help)) && !slices.ContainsFunc(program().Flags, func(fl cli.Flag) bool {
			return fl.Spelling() == f && fl.Summary == strings.TrimSpace(help)
		}) {
			t.Errorf("the man page lacks %s's %q", f, strings.TrimSpace(help))
		}
	}
	if t.Failed() {
		t.Logf("the man page as groff renders it:\n%s", text)
	}
}

// Both binaries print their version, and a release's -X main.version/commit/date reach them.
// hooksup-hook answers --version itself: it does not relay it to a supervisor as an event.
func TestVersion(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	srv := filepath.Join(s.Project, "sup.sock")
	ln, err := net.Listen("unix", srv)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	called := make(chan struct{}, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			called <- struct{}{}
			c.Close()
		}
	}()
	cmd := exec.Command(e2e.HookClientBin, "--version")
	cmd.Env = append(append([]string{}, s.Env...), "HOOKSUP_SOCKET="+srv, "HOOKSUP_TOKEN=t")
	out, err := cmd.Output()
	if err != nil || !regexp.MustCompile(`^hooksup-hook \S+ \(commit \S+.*, go1\.[0-9.]+\)\n$`).Match(out) {
		t.Fatalf("hooksup-hook --version: %v %q", err, out)
	}
	select {
	case <-called:
		t.Fatal("hooksup-hook relayed --version to the supervisor")
	case <-time.After(200 * time.Millisecond):
	}
	for _, args := range [][]string{{"version"}, {"--version"}} {
		out, err := e2e.ExecHooksup(s, args...).Output()
		if err != nil || !regexp.MustCompile(`^hooksup \S+ \(commit \S+.*, go1\.[0-9.]+\)\n$`).Match(out) {
			t.Fatalf("hooksup %s: %v %q", args[0], err, out)
		}
	}

	// A release build, as .goreleaser.yaml links it (.ci/run checks hooksup's in the snapshot).
	bin := filepath.Join(t.TempDir(), "hooksup-hook")
	ldflags := "-X main.version=9.8.7 -X main.commit=0123abc -X main.date=2026-11-23T12:00:00Z"
	if out, err := exec.Command("go", "build", "-ldflags", ldflags, "-o", bin, "../hooksup-hook").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	out, err = exec.Command(bin, "--version").Output()
	if want := "hooksup-hook 9.8.7 (commit 0123abc, 2026-11-23T12:00:00Z, "; err != nil || !strings.HasPrefix(string(out), want) {
		t.Errorf("hooksup-hook --version: %v %q, want %q…", err, out, want)
	}
}

// The man page is the whole reference: every key of the TUI with its action, every
// configuration key, and the sections a man page has (FILES, ENVIRONMENT, EXIT STATUS,
// EXAMPLES), drawn from the keymap and the configuration's schema, so that neither can drift.
func TestManPageListsEveryKeyAndSetting(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("groff"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("groff is not installed (CI must install it)")
		}
		t.Skip("groff is not installed")
	}
	s := e2e.NewSandbox(t)
	page, err := e2e.ExecHooksup(s, "man").Output()
	if err != nil {
		t.Fatal(err)
	}
	render := exec.Command("groff", "-man", "-Tascii", "-P-cbou")
	render.Stdin = bytes.NewReader(page)
	text, err := render.Output()
	if err != nil {
		t.Fatal(err)
	}
	man := strings.Join(strings.Fields(string(text)), " ")
	for _, h := range []string{"KEYS", "CONFIGURATION KEYS", "FILES", "ENVIRONMENT", "EXIT STATUS", "EXAMPLES"} {
		if !regexp.MustCompile(`\b` + h + ` `).MatchString(man) {
			t.Errorf("the man page has no %s section", h)
		}
	}
	for _, a := range keymap.Actions() {
		if !strings.Contains(man, strings.Join(a.Keys, ", ")) || !strings.Contains(man, "("+a.Name+", "+a.Scope.String()+")") {
			t.Errorf("the man page does not list the keys of %s (%s)", a.Name, strings.Join(a.Keys, ", "))
		}
	}
	for _, k := range config.Schema() {
		want := k.Key
		if k.Default != "" {
			want += " = " + k.Default
		}
		if !strings.Contains(man, want+" "+strings.Join(strings.Fields(k.Help), " ")) {
			t.Errorf("the man page does not list %q with what it does", want)
		}
	}
	for _, v := range []string{"HOOKSUP_CLAUDE_BIN", "XDG_RUNTIME_DIR", "NO_COLOR"} {
		if !strings.Contains(man, v) {
			t.Errorf("the man page's environment lacks %s", v)
		}
	}
	if t.Failed() {
		t.Logf("the man page as groff renders it:\n%s", text)
	}
}

// SESSION of approve, deny and halt completes to this machine's live sessions (their short
// ids, and the project of a session alone in it), and --host to the [hub] hosts of the person's
// configuration, in bash and in fish; a host no shell word can carry is left out.
func TestCompletionOffersLiveSessionsAndHosts(t *testing.T) {
	t.Parallel()
	s, env, _ := e2e.CompletionSandbox(t)
	cfgDir := filepath.Join(filepath.Dir(s.Home), "cfg", "hooksup")
	if err := os.WriteFile(filepath.Join(cfgDir, "config.toml"), []byte("[hub]\nhosts = [\"devbox\", \"build-01\", \"x;touch PWNED\"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ls := s.StartLive(s.Config(`mode = "auto"`), agentsim.Scenario{WorkDelay: agentsim.Duration{Duration: 10 * time.Minute}}, nil, "-p", "go")
	ls.WaitReady()
	var id string
	deadline := time.Now().Add(20 * time.Second)
	for id == "" && time.Now().Before(deadline) {
		out, _ := e2e.ExecHooksup(s, "ls", "--json", "--local").Output()
		var sessions []web.Session
		// Once claude's first hook has named its session: the id people see from then on.
		if json.Unmarshal(out, &sessions) == nil && len(sessions) == 1 && sessions[0].SessionID != "" {
			id = hub.Snapshot{SessionID: sessions[0].SessionID}.ShortID()
		} else {
			time.Sleep(50 * time.Millisecond)
		}
	}
	if id == "" {
		t.Fatal("hooksup ls never listed the session")
	}
	project := filepath.Base(s.Project)

	bash := e2e.RequireShell(t, "bash")
	script := "source <(hooksup completion bash)\n" +
		"t() { COMP_WORDS=(\"$@\"); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMPREPLY=(); _hooksup; printf '%s\\n' \"${COMPREPLY[*]}\"; }\n" +
		"t hooksup approve ''\nt hooksup deny " + id[:3] + "\nt hooksup halt --reason x ''\nt hooksup ls --host ''\nt hooksup approve --host d\n"
	got := strings.Split(e2e.RunShell(t, env, s.Project, bash, "-c", script), "\n")
	fish := fishComplete(t, env, s.Project, []string{"hooksup approve ", "hooksup deny " + id[:3], "hooksup halt --reason x ", "hooksup ls --host ", "hooksup approve --host d"})
	for i, want := range [][]string{{id, project}, {id}, {id, project}, {"devbox", "build-01"}, {"devbox"}} {
		for _, sh := range []struct {
			name string
			got  []string
		}{{"bash", strings.Fields(got[i])}, {"fish", fish[i]}} {
			for _, w := range want {
				if !slices.Contains(sh.got, w) {
					t.Errorf("%s: case %d offers %q, want %q among them", sh.name, i, sh.got, w)
				}
			}
			for _, g := range sh.got {
				if strings.Contains(g, "PWNED") {
					t.Errorf("%s: case %d offers the host %q", sh.name, i, g)
				}
			}
		}
	}
}
