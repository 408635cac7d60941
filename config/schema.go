package config

import (
	"fmt"
	"reflect"
	"strings"
	"time"
)

// keyDocs says what each key of the configuration does, for the manual and docs/configuration.md:
// one place, checked against Config's fields (TestEveryKeyIsDocumented), so neither can drift.
var keyDocs = map[string]string{
	"mode":             "who decides whether the agent may stop: auto (the checks), ask (the checks propose, you confirm every forced continuation), manual (you decide every stop), observe (never block, only record)",
	"theme":            "the colour theme: auto, or a name `hooksup themes` lists",
	"decision_timeout": "how long ask and manual wait for you",
	"on_timeout":       "when nobody answers: proposal (what the checks said) or allow",
	"reason_lines":     "how many lines of a failed check's output the agent reads (the verdict log keeps its last MiB)",

	"stop":                   "what happens when the agent wants to stop",
	"stop.max_continuations": "forced continuations per turn (a turn ends at your next prompt); 0 is no limit",
	"stop.strict":            "true: a headless run exits 3 when the agent stopped for the last time with a check failing (let go by max_continuations, or by you), unless the agent itself failed (as --strict)",
	"stop.checks":            "the checks run, in order, when the agent wants to stop ([[stop.checks]])",

	"subagent_stop":            "what happens when a subagent wants to stop",
	"subagent_stop.max_steers": "forced continuations per subagent",
	"subagent_stop.checks":     "the checks run when a subagent wants to stop ([[subagent_stop.checks]])",

	"checks.name":             "the check's name, shown in the verdicts; unique (required)",
	"checks.command":          "what it runs, with sh -c (required)",
	"checks.timeout":          "killed, with everything it started, when it runs longer",
	"checks.cwd":              "where it runs, relative to the directory of the file that names it",
	"checks.env":              "variables added to the environment it runs in",
	"checks.retry_on_failure": "false: a failure only warns, and the agent may stop (default true)",
	"checks.max_retries":      "how often this check may block in a session; 0 is no limit",
	"checks.required":         "true: alert you when the command cannot start at all",
	"checks.agent_types":      "the subagent types a subagent check applies to (all when empty)",

	"notifications":               "how hooksup tells you the agent needs you",
	"notifications.on_idle":       "when the agent waits for your prompt: none, bell, notify (a desktop notification) or nudge (type nudge_text)",
	"notifications.on_permission": "when the agent asks a permission or a question: none, bell, notify",
	"notifications.nudge_text":    "what nudge types into the agent",
	"notifications.notifier":      "how notify reaches you: auto (your terminal's own notifications, else the system's), osc9, osc777, osc99 or system",

	"keys":          "the keys of the TUI (see KEYS)",
	"keys.prefix":   "the key that reaches hooksup instead of the agent",
	"keys.bindings": "per action, the key that replaces its default, e.g. { approve = \"y\", deny = \"n\" }",

	"ui":              "the TUI",
	"ui.hold_on_exit": "keep the agent's last screen after it exits, until a key",

	"hub":                "other machines' sessions, reached over ssh (read from your own config.toml or --config, never from a project's file)",
	"hub.hosts":          "hosts whose sessions ls, status, approve, deny, halt, watch and web reach besides this machine",
	"hub.ssh":            "the command line before the host, e.g. [\"ssh\", \"-F\", \"~/.ssh/hooksup\"]",
	"hub.remote_command": "the hooksup the remote runs",
	"hub.timeout":        "bound on connecting to a host and on each of its answers",

	"goal":              "goal mode's defaults (docs/goal.md): with --goal TEXT the agent works until the checks pass and the done command says the goal is reached, within the budgets",
	"goal.done":         "the shell command, run in the project's root once the checks pass, whose exit 0 says the goal is reached (--done; none: the checks alone)",
	"goal.done_timeout": "the done command is killed, with everything it started, when it runs longer",
	"goal.max_turns":    "how many continuations the goal may force (--max-turns); 1 or more",
	"goal.max_time":     "the goal ends at the first stop past this time from the session's start (--max-time); 0 is no limit",
	"goal.max_tokens":   "the goal ends at the first stop past this many of the session's tokens (--max-tokens); 0 is no limit",
	"goal.no_progress":  "the goal ends when the same failure (times and counts aside) comes this many stops in a row; 0 is never",
	"goal.protect":      "globs of files the agent must not change while the goal goes on (--protect): a change pauses the goal; '*_test.go' names a base name at any depth, 'tests/*.py' a path from the project's root",
}

// KeyDoc is one key of the configuration, as the manual lists it.
type KeyDoc struct {
	Key     string // "stop.max_continuations"; a check's keys as "stop.checks[].name"
	Default string // the built-in value, in TOML ("" when it has none)
	Help    string
}

// Schema lists every key hooksup reads, with its default and what it does, in the order of
// Config's fields. A check's keys are listed once, under stop.checks.
func Schema() []KeyDoc {
	var out []KeyDoc
	for _, k := range schemaKeys(reflect.TypeOf(Config{}), "") {
		if strings.HasPrefix(k, "subagent_stop.checks.") {
			continue // the same keys as a stop check's
		}
		doc := KeyDoc{Key: k, Help: keyDocs[k]}
		if rest, ok := strings.CutPrefix(k, "stop.checks."); ok {
			doc.Key, doc.Help = "stop.checks[]."+rest, keyDocs["checks."+rest]
		} else if v, ok := defaultOf(k); ok {
			doc.Default = v
		}
		out = append(out, doc)
	}
	return out
}

// defaultOf is the built-in value of key as TOML, for a key that holds a value (not a table).
func defaultOf(key string) (string, bool) {
	v := reflect.ValueOf(Defaults())
	for _, name := range strings.Split(key, ".") {
		i, ok := tomlFields(v.Type())[name]
		if !ok {
			return "", false
		}
		v = v.Field(i)
	}
	switch v.Kind() {
	case reflect.Struct:
		if d, ok := v.Interface().(Duration); ok {
			return fmt.Sprintf("%q", shortDuration(d.D)), true
		}
		if m, ok := v.Interface().(interface{ MarshalText() ([]byte, error) }); ok {
			b, _ := m.MarshalText()
			return fmt.Sprintf("%q", b), true
		}
		return "", false
	case reflect.String:
		return fmt.Sprintf("%q", v.String()), true
	case reflect.Slice:
		if v.Len() == 0 || v.Type().Elem().Kind() != reflect.String {
			return "", false
		}
		items := make([]string, v.Len())
		for i := range items {
			items[i] = fmt.Sprintf("%q", v.Index(i).String())
		}
		return "[" + strings.Join(items, ", ") + "]", true
	case reflect.Map, reflect.Pointer:
		return "", false
	}
	return fmt.Sprint(v.Interface()), true
}

// shortDuration writes d as a person would: "5m", not "5m0s".
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
