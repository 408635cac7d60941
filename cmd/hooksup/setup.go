package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/checks"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/notify"
	"github.com/hooksup/hooksup/internal/present"
	"github.com/hooksup/hooksup/internal/runtimedir"
	"github.com/hooksup/hooksup/project"
)

// installFlagSet parses install's and uninstall's flags.
func installFlagSet(name string, scope, agentName *string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(scope, "scope", "", "")
	fs.StringVar(agentName, "agent", "claude", "")
	return fs
}

// claudeHookTimeout is Claude Code's default timeout for a command hook.
const claudeHookTimeout = 10 * time.Minute

func runInstall(g globalFlags, args []string, stdout, stderr io.Writer, uninstall bool) (int, error) {
	name := "install"
	if uninstall {
		name = "uninstall"
	}
	var scope, agentName string
	fs := installFlagSet(name, &scope, &agentName)
	if err := fs.Parse(args); err != nil {
		return 2, fmt.Errorf("%v (usage: hooksup %s [--agent claude|codex|gemini] [--scope local|project|user])", err, name)
	}
	env, err := loadEnvironment()
	if err != nil {
		return 1, err
	}
	switch agentName {
	case agent.Codex{}.Name():
		return runInstallCodex(g, env, scope, stdout, uninstall)
	case agent.Gemini{}.Name():
		return runInstallGemini(g, env, scope, stdout, uninstall)
	case agent.Claude{}.Name():
	default:
		return 2, fmt.Errorf("--agent %q: hooksup installs for claude, codex or gemini", agentName)
	}
	if scope == "" {
		scope = "local"
	}
	home, _ := os.UserHomeDir()
	path, err := hooks.SettingsPath(scope, env.cwd, home)
	if err != nil {
		return 2, err
	}
	if uninstall {
		if err := removeHooks(path, stdout); err != nil {
			return 1, err
		}
		return 0, nil
	}
	bin, err := hookBin()
	if err != nil {
		return 1, err
	}
	// The timeout hooksup injects under a supervisor, for the checks configured now; never
	// below claude's own default, since the checks may grow after this install.
	timeout := claudeHookTimeout
	if cfg, err := loadConfig(g, env, io.Discard); err == nil {
		timeout = max(timeout, cfg.StopHookTimeout())
	}
	changed, err := hooks.EditSettingsFile(path, func(b []byte) ([]byte, error) { return hooks.MergeInstall(b, bin, timeout.Seconds()) })
	if err != nil {
		return 1, err
	}
	if changed {
		fmt.Fprintf(stdout, "installed hooksup's Stop and SubagentStop hooks in %s\n", path)
	} else {
		fmt.Fprintf(stdout, "hooksup's hooks are already installed in %s\n", path)
	}
	fmt.Fprintln(stdout, "plain `claude` in this project now runs your checks when it wants to stop (see .hooksup.toml; `hooksup init` writes one)")
	return 0, nil
}

// hookBin is the binary the installed hooks run: the small hook client when it is installed
// beside hooksup (it starts in a fraction of hooksup's time, and the hook runs at every stop),
// else hooksup itself.
func hookBin() (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("find hooksup's own binary: %w", err)
	}
	if c := hookClient(self); c != "" {
		return c, nil
	}
	return self, nil
}

// removeHooks removes hooksup's installed hooks from the settings file at path, and says so.
func removeHooks(path string, stdout io.Writer) error {
	changed, err := hooks.EditSettingsFile(path, hooks.MergeUninstall)
	if err != nil {
		return err
	}
	if changed {
		fmt.Fprintf(stdout, "removed hooksup's hooks from %s\n", path)
	} else {
		fmt.Fprintf(stdout, "hooksup's hooks were not in %s\n", path)
	}
	return nil
}

func runInit(stdout io.Writer) (int, error) {
	env, err := loadEnvironment()
	if err != nil {
		return 1, err
	}
	path := filepath.Join(env.cwd, ".hooksup.toml")
	if _, err := os.Lstat(path); err == nil {
		return 1, fmt.Errorf("%s already exists: hooksup init never overwrites (edit it, or remove it first)", path)
	}
	det := project.Detect(os.DirFS(env.cwd))
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		return 1, fmt.Errorf("%s already exists: hooksup init never overwrites (edit it, or remove it first)", path)
	}
	if err != nil {
		return 1, err
	}
	if _, err := f.WriteString(project.InitFile(det)); err != nil {
		f.Close()
		return 1, err
	}
	if err := f.Close(); err != nil {
		return 1, err
	}
	printDetection(stdout, det, path)
	return 0, nil
}

// printDetection tells the person what init recognised and which checks it wrote.
func printDetection(w io.Writer, det project.Detection, path string) {
	checks := det.Checks()
	if len(det.Projects) == 0 {
		fmt.Fprintf(w, "hooksup init %s", det.Summary())
		fmt.Fprintf(w, "wrote %s with no checks: add yours there, then run `hooksup trust` so hooksup may run them\n", path)
		return
	}
	fmt.Fprintln(w, "found:")
	for _, p := range det.Projects {
		fmt.Fprintf(w, "  %s\n", p.Line())
	}
	if len(checks) == 0 {
		fmt.Fprintf(w, "wrote %s, but recognised no checks: add yours there, then run `hooksup trust` so hooksup may run them\n", path)
		return
	}
	plural := "s"
	if len(checks) == 1 {
		plural = ""
	}
	fmt.Fprintf(w, "wrote %s with %d check%s, run in this order:\n", path, len(checks), plural)
	nameW, cmdW := 0, 0
	for _, c := range checks {
		nameW, cmdW = max(nameW, len(c.Name)), max(cmdW, len(c.Command))
	}
	for _, c := range checks {
		line := fmt.Sprintf("  %-*s  %-*s", nameW, c.Name, cmdW, c.Command)
		if c.Cwd != "" {
			line += "  (in " + c.Cwd + ")"
		}
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
	fmt.Fprintln(w, "look them over, then run `hooksup trust` so hooksup may run them (and `hooksup check` to run them now)")
}

type checkArgs struct{ subagent, verbose bool }

// checkFlagSet parses check's flags.
func checkFlagSet(a *checkArgs) *flag.FlagSet {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&a.subagent, "subagent", false, "")
	fs.BoolVar(&a.verbose, "v", false, "")
	return fs
}

func runCheck(ctx context.Context, g globalFlags, args []string, stdout, stderr io.Writer) (int, error) {
	var a checkArgs
	fs := checkFlagSet(&a)
	if err := fs.Parse(args); err != nil {
		return 2, fmt.Errorf("%v (usage: hooksup check [--subagent] [-v])", err)
	}
	env, err := loadEnvironment()
	if err != nil {
		return 1, err
	}
	cfg, err := loadConfig(g, env, stderr)
	if err != nil {
		return 1, err
	}
	configured, table := cfg.Stop.Checks, "[[stop.checks]]"
	if a.subagent {
		configured, table = cfg.SubagentStop.Checks, "[[subagent_stop.checks]]"
	}
	if len(configured) == 0 {
		fmt.Fprintf(stdout, "no %s configured (hooksup init writes a template)\n", table)
		return 0, nil
	}
	var onOut func(string, []byte)
	if a.verbose {
		onOut = func(_ string, b []byte) { stdout.Write(b) }
	}
	failed := 0
	for _, r := range checks.RunAll(ctx, configured, env.cwd, onOut) {
		if r.Passed() {
			fmt.Fprintf(stdout, "✓ %s (%s)\n", r.Name, r.Duration.Round(time.Millisecond))
			continue
		}
		failed++
		fmt.Fprintf(stdout, "✗ %s: %s (%s)\n", r.Name, present.CheckFailure(r), r.Duration.Round(time.Millisecond))
		if !a.verbose {
			out := strings.TrimRight(string(r.Output), "\n")
			lines := strings.Split(out, "\n")
			if len(lines) > 20 {
				lines = append([]string{"…"}, lines[len(lines)-20:]...)
			}
			for _, l := range lines {
				if l != "" {
					fmt.Fprintf(stdout, "    %s\n", l)
				}
			}
		}
	}
	if failed > 0 {
		fmt.Fprintf(stdout, "%d of %d checks failed\n", failed, len(configured))
		return 1, nil
	}
	fmt.Fprintf(stdout, "all %d checks passed\n", len(configured))
	return 0, nil
}

func runDoctor(ctx context.Context, g globalFlags, stdout io.Writer) (int, error) {
	env, err := loadEnvironment()
	if err != nil {
		return 1, err
	}
	problems := 0
	bad := func(format string, a ...any) {
		problems++
		fmt.Fprintf(stdout, "  ✗ "+format+"\n", a...)
	}
	ok := func(format string, a ...any) { fmt.Fprintf(stdout, "  ✓ "+format+"\n", a...) }

	fmt.Fprintln(stdout, "claude")
	bin := claudeBin(g)
	var version hooks.Version
	if path, err := exec.LookPath(bin); err != nil {
		bad("%s not found on PATH: install Claude Code or set --claude-bin / HOOKSUP_CLAUDE_BIN", bin)
	} else {
		v, err := hooks.ClaudeVersion(ctx, path, os.Environ(), 10*time.Second)
		version = v
		switch {
		case err != nil:
			bad("%s: cannot tell its version (%v): hooksup claude injects every hook and says so if none arrives", path, err)
		case !v.Supported():
			bad("%v", &hooks.ErrTooOld{Version: v, Path: path})
		default:
			ok("%s: Claude Code %s (hooksup supports %s and newer; tested with %s)", path, v, hooks.MinVersion, hooks.TestedVersion)
		}
	}

	fmt.Fprintln(stdout, "hooks in Claude Code's settings")
	home, _ := os.UserHomeDir()
	rep := hooks.InspectSettings(hooks.ClaudeSettingsSources(env.cwd, home))
	for _, p := range rep.Problems {
		bad("%s", p)
	}
	for _, d := range rep.DisableAllHooks {
		bad("disableAllHooks is true in %s: plain claude runs no hooks (hooksup claude turns them back on for its session)", d)
	}
	if len(rep.Hooks) == 0 {
		ok("none (hooksup claude injects its own for its session)")
	}
	for _, h := range rep.Hooks {
		who := "other"
		if h.Ours {
			who = "hooksup install"
		}
		line := fmt.Sprintf("%-8s %-13s %s  [%s]", h.Source, h.Event, h.Command, who)
		if h.IgnoresActive {
			bad("%s\n      this Stop hook never mentions stop_hook_active: it may block claude again and again", line)
		} else {
			ok("%s", line)
		}
	}
	fmt.Fprintf(stdout, "  · hooksup claude adds its own hooks through --settings for its session: %s\n", strings.Join(hooks.EventsFor(version, false), ", "))

	doctorCodex(ctx, g, env, stdout, ok, bad)
	doctorGemini(ctx, g, env, stdout, ok, bad)

	fmt.Fprintln(stdout, "hooksup configuration")
	cfg, layers, err := loadLayers(g, env)
	if err != nil {
		bad("%v", err)
	}
	for _, l := range layers {
		switch {
		case l.Used:
			ok("%s (%s)", l.Path, l.Source)
		case l.Note != "":
			bad("%s (%s): %s", l.Path, l.Source, l.Note)
		}
	}

	fmt.Fprintln(stdout, "socket directory")
	if dir, err := runtimedir.Dir(os.Getenv); err != nil {
		bad("%v", err)
	} else {
		fi, _ := os.Stat(dir)
		ok("%s (mode %o, yours only)", dir, fi.Mode().Perm())
	}
	n := notify.New(cfg.Notifications.Notifier)
	fmt.Fprintf(stdout, "notifications\n  · notify reaches you here as %s: %s\n", n.Choice.Method, n.Choice.Why)
	fmt.Fprintf(stdout, "state: %s\n", env.stateDir)
	if problems > 0 {
		fmt.Fprintf(stdout, "%d problem(s) found\n", problems)
		return 1, nil
	}
	fmt.Fprintln(stdout, "no problems found")
	return 0, nil
}

// doctorCodex reports the codex hooksup codex would run and where Codex would read hooks of
// its own. A codex that is not installed is no problem: only hooksup codex needs it.
func doctorCodex(ctx context.Context, g globalFlags, env environment, stdout io.Writer, ok, bad func(string, ...any)) {
	fmt.Fprintln(stdout, "codex")
	bin := agentBin(g, agent.Codex{})
	path, err := exec.LookPath(bin)
	if err != nil {
		fmt.Fprintf(stdout, "  · %s not found (only hooksup codex needs it: npm install -g @openai/codex, or --codex-bin / HOOKSUP_CODEX_BIN)\n", bin)
		return
	}
	v, err := agent.CodexVersion(ctx, path, os.Environ(), 10*time.Second)
	switch {
	case err != nil:
		bad("%s: cannot tell its version (%v): hooksup codex injects its hooks and says so if none arrives", path, err)
	case v.Less(agent.MinCodex):
		bad("%s: Codex %s, older than %s: hooksup codex refuses it (npm install -g @openai/codex@latest)", path, v, agent.MinCodex)
	default:
		ok("%s: Codex %s (hooksup supports %s and newer)", path, v, agent.MinCodex)
	}
	fmt.Fprintf(stdout, "  · hooksup codex defines its own hooks with -c for its session and trusts exactly those (nothing is written): %s\n",
		strings.Join(agent.CodexEvents(), ", "))
	for _, f := range agent.CodexHookFiles(os.Getenv, env.cwd) {
		fmt.Fprintf(stdout, "  · Codex reads hooks of its own from %s\n", f)
	}
}

// doctorGemini reports the gemini hooksup gemini would run and where gemini would read hooks of
// its own. A gemini that is not installed is no problem: only hooksup gemini needs it.
func doctorGemini(ctx context.Context, g globalFlags, env environment, stdout io.Writer, ok, bad func(string, ...any)) {
	fmt.Fprintln(stdout, "gemini")
	bin := agentBin(g, agent.Gemini{})
	path, err := exec.LookPath(bin)
	if err != nil {
		fmt.Fprintf(stdout, "  · %s not found (only hooksup gemini needs it: npm install -g @google/gemini-cli, or --gemini-bin / HOOKSUP_GEMINI_BIN)\n", bin)
		return
	}
	v, err := agent.GeminiVersion(ctx, path, os.Environ(), 20*time.Second)
	switch {
	case err != nil:
		bad("%s: cannot tell its version (%v): hooksup gemini gives it its hooks and says so if none arrives", path, err)
	case v.Less(agent.MinGemini):
		bad("%s: Gemini CLI %s, older than %s: hooksup gemini refuses it (npm install -g @google/gemini-cli@latest)", path, v, agent.MinGemini)
	default:
		ok("%s: Gemini CLI %s (hooksup supports %s and newer)", path, v, agent.MinGemini)
	}
	fmt.Fprintf(stdout, "  · hooksup gemini runs gemini with a home of its own for the session, mirroring yours, whose settings add its hooks (nothing of yours is written): %s\n",
		strings.Join(agent.GeminiEvents(), ", "))
	for _, f := range agent.GeminiHookFiles(os.Getenv, env.cwd) {
		fmt.Fprintf(stdout, "  · gemini reads hooks of its own from %s\n", f)
	}
}
