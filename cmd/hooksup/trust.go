package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hooksup/hooksup/checks"
	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/session"
)

// runTrust is `hooksup trust [FILE…]`: it shows what each file would run, exactly as the first
// run's question does, and trusts that content. Without FILE, the project's files (the nearest
// .hooksup.toml and .hooksup.local.toml from here up). A file with a problem that a session or
// `hooksup check` would refuse is refused here, with the same messages.
func runTrust(args []string, stdout io.Writer) (int, error) {
	env, err := loadEnvironment()
	if err != nil {
		return 1, err
	}
	files := args
	if len(files) == 0 {
		for _, name := range config.ProjectFiles {
			if p := filepath.Join(env.projectDir, name); exists(p) {
				files = append(files, p)
			}
		}
		if len(files) == 0 {
			return 1, fmt.Errorf("no .hooksup.toml in %s or above it (up to the repository's root): hooksup init writes one", termsafe.String(env.cwd))
		}
	}
	store := trustStore(env)
	for _, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			return 1, err
		}
		content, err := config.ReadFile(abs)
		var fe *config.FileError
		switch {
		case errors.As(err, &fe):
			return 1, fmt.Errorf("not trusted: %s: %s", termsafe.String(abs), fe.Problem())
		case err != nil:
			return 1, fmt.Errorf("not trusted: %s: %w", termsafe.String(abs), err)
		}
		if err := config.ValidateFile(abs, content); err != nil {
			return 1, fmt.Errorf("not trusted: %s", termsafe.Text(err.Error()))
		}
		c := config.Defaults()
		_ = config.Decode(abs, content, &c) // no problem: ValidateFile said so
		describeProjectFile(stdout, abs, c)
		if err := store.TrustContent(abs, content); err != nil {
			return 1, err
		}
		fmt.Fprintf(stdout, "trusted %s (this exact content; a change needs trusting again)\n", termsafe.String(abs))
	}
	return 0, nil
}

// exists reports whether there is anything at p: a project's file that is not a regular file
// is refused by name (config.ReadFile), never taken for no file.
func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// askTrust shows the person what each untrusted project file would run and asks, once, whether
// to trust that exact content. It returns whether anything was trusted.
func askTrust(layers []config.Layer, env environment, in io.Reader, out io.Writer) bool {
	trusted := false
	br := bufio.NewReader(in)
	for _, l := range layers {
		if l.Note == "" {
			continue
		}
		path := termsafe.String(l.Path)
		content, err := config.ReadFile(l.Path)
		if err != nil {
			fmt.Fprintf(out, "hooksup: ignoring %s: %v\n", path, termsafe.String(err.Error()))
			continue
		}
		// What a session would refuse is never offered for trust.
		if err := config.ValidateFile(l.Path, content); err != nil {
			fmt.Fprintf(out, "hooksup: ignoring %s: %s\n", path, termsafe.Text(err.Error()))
			continue
		}
		c := config.Defaults()
		_ = config.Decode(l.Path, content, &c)
		fmt.Fprintf(out, "hooksup: %s is not trusted.\n", path)
		describeProjectFile(out, l.Path, c)
		fmt.Fprint(out, "Trust this exact content? [y/N] ")
		line, _ := br.ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
			fmt.Fprintf(out, "hooksup: ignoring %s (hooksup trust trusts it later)\n", path)
			continue
		}
		if err := trustStore(env).TrustContent(l.Path, content); err != nil {
			fmt.Fprintf(out, "hooksup: %s\n", termsafe.String(err.Error()))
			continue
		}
		trusted = true
	}
	return trusted
}

// describeProjectFile says exactly what trusting the file at path (decoded as c) lets it do:
// each check's name, command, directory and environment, with every control character shown
// visibly (termsafe) and said plainly when there is one, so that nothing a terminal would hide
// or redraw is trusted unseen; and the settings that act on the agent or switch the gate off.
func describeProjectFile(w io.Writer, path string, c config.Config) {
	dir := filepath.Dir(path)
	all := slices.Concat(c.Stop.Checks, c.SubagentStop.Checks)
	if len(all) == 0 {
		fmt.Fprintln(w, "  It runs no command.")
	} else {
		fmt.Fprintln(w, "  When the agent stops, hooksup would run:")
	}
	var hidden []string
	for i, ch := range all {
		when := "Stop"
		if i >= len(c.Stop.Checks) {
			when = "SubagentStop"
		}
		fmt.Fprintf(w, "  %s check %s\n", when, termsafe.String(ch.Name))
		fmt.Fprintf(w, "      command: %s\n", termsafe.String(ch.Command))
		fmt.Fprintf(w, "      in:      %s\n", termsafe.String(checks.WorkDir(ch, dir)))
		keys := make([]string, 0, len(ch.Env))
		for k := range ch.Env {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			fmt.Fprintf(w, "      env:     %s=%s\n", termsafe.String(k), termsafe.String(ch.Env[k]))
		}
		for _, f := range []struct{ what, v string }{{"name", ch.Name}, {"command", ch.Command}, {"cwd", ch.Cwd}} {
			if termsafe.HasControl(f.v) {
				hidden = append(hidden, fmt.Sprintf("the %s of check %s", f.what, termsafe.String(ch.Name)))
			}
		}
		for _, k := range keys {
			if termsafe.HasControl(k) || termsafe.HasControl(ch.Env[k]) {
				hidden = append(hidden, fmt.Sprintf("the env %s of check %s", termsafe.String(k), termsafe.String(ch.Name)))
			}
		}
	}
	if c.Notifications.OnIdle == session.ActionNudge || c.Notifications.OnPermission == session.ActionNudge {
		fmt.Fprintf(w, "  It types into the agent when it waits: %s\n", termsafe.String(c.Notifications.NudgeText))
		if termsafe.HasControl(c.Notifications.NudgeText) {
			hidden = append(hidden, "notifications.nudge_text")
		}
	}
	if c.Mode == config.ModeObserve {
		fmt.Fprintln(w, "  It sets mode = \"observe\": no stop is ever blocked.")
	}
	if len(hidden) > 0 {
		fmt.Fprintf(w, "  ⚠ Control characters or line breaks in %s: shown above as \\e, \\r, \\n, <U+…>. A terminal would have hidden or redrawn them; they are part of what would run.\n",
			strings.Join(hidden, ", "))
	}
}
