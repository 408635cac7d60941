package project

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/internal/tomltext"
)

// Template is what `hooksup init` writes to .hooksup.toml: every key, commented, with examples.
// InitFile puts the checks it detected in place of checksMarker.
const Template = `# hooksup configuration for this project.
# hooksup runs these commands, so it uses this file only after you trust its exact content:
#   hooksup trust        (again after every change)
# Personal overrides go in .hooksup.local.toml (keep it out of git); your defaults for every
# project in ~/.config/hooksup/config.toml. Later files win; --config and flags win over all.
# The same file serves hooksup claude, codex, gemini, copilot and qwen: "the agent" below is any of them.

# When the agent wants to stop, who decides whether it may?
#   auto     the checks decide
#   ask      the checks propose; you confirm every forced continuation (headless: the proposal applies)
#   manual   you decide every stop
#   observe  never block, only record verdicts
mode = "ask"

theme = "auto"            # auto, dark, light, high-contrast, mono, … (hooksup themes)
decision_timeout = "5m"   # how long ask/manual wait for you
on_timeout = "proposal"   # when nobody answers: "proposal" (what the checks said) or "allow"
reason_lines = 40         # a failed check's last lines the agent reads (the verdict log keeps its last MiB)

[stop]
# Forced continuations per turn (a turn ends at your next prompt). Some agents end a turn
# themselves: Claude Code and Copilot CLI after 8 blocks in a row, Qwen Code at the 8th block.
max_continuations = 3
strict = false                  # true: a headless run (-p, CI) exits 3 when the agent stops with a check failing

# {checks}

[subagent_stop]
max_steers = 3                  # forced continuations per subagent

# Checks for subagents (same keys, plus agent_types to pick which subagents they apply to).
# [[subagent_stop.checks]]
# name = "build"
# command = "go build ./..."    # Node: "npx tsc --noEmit"   Python: "python -m compileall -q ."
# agent_types = ["general-purpose"]

[notifications]
on_idle = "none"                # none, bell, notify (desktop notification), nudge (type nudge_text)
on_permission = "bell"
nudge_text = "continue"
notifier = "auto"               # how notify reaches you: auto (your terminal's own notifications in iTerm2,
                                # Ghostty, WezTerm, kitty, foot; else osascript on macOS, notify-send on
                                # Linux), osc9, osc777, osc99 or system

[keys]
prefix = "ctrl+]"               # the key that reaches hooksup instead of the agent
# Each binding replaces the action's default key. After the prefix: approve, deny, always (watch),
# edit, halt, focus, focus_previous, zoom, help, quit; in a focused pane: up, down, page_up, page_down, open;
# in the reason editor: send, newline, clear, cancel. Keys: "y", "?", "enter", "pgdown", "ctrl+g", "alt+enter".
# bindings = { approve = "a", deny = "d", edit = "e", halt = "x", zoom = "z", quit = "q" }

[ui]
hold_on_exit = true             # keep the agent's last screen after it exits, until a key

# Other machines' sessions, reached over ssh: read from your own config.toml
# ($XDG_CONFIG_HOME/hooksup) or --config, never from a project's file.
# [hub]
# hosts = ["devbox"]            # listed and answered by ls, status, approve, deny, halt, watch besides this machine
# ssh = ["ssh"]                 # the command line before the host, e.g. ["ssh", "-F", "~/.ssh/hooksup"]
# remote_command = "hooksup"    # the hooksup the remote runs (its PATH's)
# timeout = "10s"               # bound on connecting to a host and on each of its answers

# Goal mode's defaults, used only with hooksup --goal TEXT (docs/goal.md): the agent works until
# the checks pass and the done command exits 0, within the budgets.
# [goal]
# done = "make e2e"             # run in the project's root once the checks pass; exit 0: the goal is reached
# done_timeout = "2m"           # the done command is killed, with everything it started, when it runs longer
# max_turns = 20                # continuations the goal may force (--max-turns)
# max_time = "0s"               # ends the goal at the first stop past it (--max-time); 0 is no limit
# max_tokens = 0                # ends the goal at the first stop past this many tokens (--max-tokens); 0 is no limit
# no_progress = 3               # ends the goal when the same failure comes this many stops in a row; 0 is never
# protect = ["*_test.go"]       # a change to matching files pauses the goal (--protect); the config files always do
`

// checksMarker is the line of Template that InitFile replaces with the checks.
const checksMarker = "# {checks}\n"

// checkKeys documents every key of a check, whatever was detected.
const checkKeys = `# Checks run in order when the agent wants to stop; the first failing check that may retry makes
# it continue, with the check's name, its exit code and the end of its output (plain text)
# as the reason. A check's keys
# (name and command are required):
#   name = "tests"                  shown in the verdicts; unique
#   command = "go test ./..."       run with sh -c
#   timeout = "2m"                  killed with everything it started when it runs longer
#   cwd = "."                       relative to the project directory
#   env = { CI = "true" }           added to the environment hooksup runs it in
#   retry_on_failure = true         false: a failure only warns and the agent may stop
#   max_retries = 10                how often this check may block in a session; 0 = no limit
#   required = false                true: alert you when the command cannot start at all
`

// nothingDetected is written when init recognised no project.
const nothingDetected = `#
# hooksup init recognised no project here: no go.mod, package.json, pyproject.toml, setup.py,
# setup.cfg, requirements*.txt, tox.ini, noxfile.py, pytest.ini, Cargo.toml, CMakeLists.txt,
# meson.build, Makefile with a test target or .pre-commit-config.yaml, here or one or two directories down. So there are no checks yet, and the agent may always stop.
# Add yours, for example:
# [[stop.checks]]
# name = "tests"
# command = "./run-tests.sh"
# timeout = "2m"
`

// InitFile is the .hooksup.toml that `hooksup init` writes for what it detected: Template with
// the detected checks, each under the project it came from.
func InitFile(d Detection) string {
	var b strings.Builder
	b.WriteString(checkKeys)
	if len(d.Projects) == 0 {
		b.WriteString(nothingDetected)
		return strings.Replace(Template, checksMarker, b.String(), 1)
	}
	var bare []string
	for _, p := range d.Projects {
		if len(p.Checks) == 0 && !p.covered {
			bare = append(bare, p.Line())
		}
	}
	if len(d.Proposals()) == 0 {
		b.WriteString("#\n# hooksup init found here, but wrote no checks for:\n")
		for _, l := range bare {
			fmt.Fprintf(&b, "#   %s\n", l)
		}
		b.WriteString("# Add yours, for example:\n# [[stop.checks]]\n# name = \"tests\"\n# command = \"./run-tests.sh\"\n# timeout = \"2m\"\n")
		return strings.Replace(Template, checksMarker, b.String(), 1)
	}
	b.WriteString("#\n# hooksup init wrote these checks for what it found in this project; edit them as you like.\n")
	if len(bare) > 0 {
		b.WriteString("# It also found, but wrote no checks for:\n")
		for _, l := range bare {
			fmt.Fprintf(&b, "#   %s\n", l)
		}
	}
	// Each directory's projects, then their checks in the order they run.
	for _, g := range d.dirs() {
		checks := runOrder(g)
		if len(checks) == 0 {
			continue
		}
		b.WriteByte('\n')
		for _, p := range g {
			if len(p.Checks) == 0 && !p.covered {
				continue
			}
			fmt.Fprintf(&b, "# %s\n", p.Line())
			for _, n := range p.Notes {
				fmt.Fprintf(&b, "# %s\n", n)
			}
		}
		for i, c := range checks {
			if i > 0 {
				b.WriteByte('\n')
			}
			if c.From != "" {
				fmt.Fprintf(&b, "# from %s\n", c.From)
			}
			for _, n := range c.Notes {
				fmt.Fprintf(&b, "# %s\n", n)
			}
			if c.Off == "" {
				writeCheck(&b, c.Check)
				continue
			}
			// Commented out, with why: the person decides.
			for _, l := range strings.Split(c.Off, "\n") {
				fmt.Fprintf(&b, "# %s\n", l)
			}
			var one strings.Builder
			writeCheck(&one, c.Check)
			for _, l := range strings.Split(strings.TrimSuffix(one.String(), "\n"), "\n") {
				fmt.Fprintf(&b, "# %s\n", l)
			}
		}
	}
	return strings.Replace(Template, checksMarker, b.String(), 1)
}

// writeCheck writes one [[stop.checks]] entry.
func writeCheck(b *strings.Builder, c config.Check) {
	b.WriteString("[[stop.checks]]\n")
	fmt.Fprintf(b, "name = %s\n", tomltext.Quote(c.Name))
	fmt.Fprintf(b, "command = %s\n", tomltext.Quote(c.Command))
	fmt.Fprintf(b, "timeout = %s\n", tomltext.Quote(shortDuration(c.TimeoutOrDefault())))
	if c.Cwd != "" {
		fmt.Fprintf(b, "cwd = %s\n", tomltext.Quote(c.Cwd))
	}
	if len(c.Env) > 0 {
		keys := make([]string, 0, len(c.Env))
		for k := range c.Env {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = tomltext.QuoteKey(k) + " = " + tomltext.Quote(c.Env[k])
		}
		fmt.Fprintf(b, "env = { %s }\n", strings.Join(parts, ", "))
	}
	fmt.Fprintf(b, "retry_on_failure = %t\n", c.Retries())
	fmt.Fprintf(b, "max_retries = %d\n", c.MaxRetries)
}

// shortDuration writes whole minutes as "5m" and whole seconds as "90s".
func shortDuration(d time.Duration) string {
	switch {
	case d%time.Minute == 0:
		return fmt.Sprintf("%dm", d/time.Minute)
	case d%time.Second == 0:
		return fmt.Sprintf("%ds", d/time.Second)
	}
	return d.String()
}
