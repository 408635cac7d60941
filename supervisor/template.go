package supervisor

// Template is what `hooksup init` writes to .hooksup.toml: every key, commented, with examples.
const Template = `# hooksup configuration for this project.
# hooksup runs these commands, so it uses this file only after you trust its exact content:
#   hooksup trust        (again after every change)
# Personal overrides go in .hooksup.local.toml (keep it out of git); your defaults for every
# project in ~/.config/hooksup/config.toml. Later files win; --config and flags win over all.

# When claude wants to stop, who decides whether it may?
#   auto     the checks decide
#   ask      the checks propose; you confirm every forced continuation (headless: the proposal applies)
#   manual   you decide every stop
#   observe  never block, only record verdicts
mode = "ask"

theme = "auto"            # auto, dark, light, high-contrast, mono, … (hooksup themes)
decision_timeout = "5m"   # how long ask/manual wait for you
on_timeout = "proposal"   # when nobody answers: "proposal" (what the checks said) or "allow"

[stop]
# Forced continuations per turn (a turn ends at your next prompt). Claude Code itself ends a
# turn after 8 consecutive blocks.
max_continuations = 3

# Checks run in order when claude wants to stop; the first failing check that may retry makes
# claude continue, with the check's name and the end of its output as the reason.
[[stop.checks]]
name = "tests"
command = "go test ./..."       # Node: "npm test --silent"   Python: "pytest -q"
timeout = "2m"                  # killed with everything it started when it runs longer
cwd = "."                       # relative to the project directory
env = { CI = "true" }
retry_on_failure = true         # false: a failure only warns and claude may stop
max_retries = 10                # how often this check may block in a session; 0 = no limit
required = false                # true: alert you when the command cannot start at all

# [[stop.checks]]
# name = "lint"
# command = "go vet ./..."      # Node: "npx eslint ."   Python: "ruff check ."
# timeout = "1m"

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

[keys]
prefix = "ctrl+]"               # the key that reaches hooksup instead of claude
# bindings = { approve = "a", deny = "d", edit = "e", halt = "x", zoom = "z", quit = "q" }

[ui]
hold_on_exit = true             # keep claude's last screen after it exits, until a key
`
