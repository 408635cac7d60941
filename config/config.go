// Package config is hooksup's configuration: the layered TOML files (user, project, local, an
// explicit --config), decoded strictly with every error naming file, line and key, validated once,
// the [keys] bindings checked against the keymap, and the trust store that lets a project's file
// run its checks.
package config

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/hooksup/hooksup/internal/keymap"
	"github.com/hooksup/hooksup/internal/notify"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/internal/tomltext"
	"github.com/hooksup/hooksup/internal/userdirs"
	"github.com/hooksup/hooksup/session"
)

// Mode says who decides a stop: the checks, a person, or nobody. Its text is the config's
// value.
type Mode string

// Modes of the decision engine.
const (
	ModeAuto    Mode = "auto"    // the checks decide
	ModeAsk     Mode = "ask"     // a person confirms every forced continuation
	ModeManual  Mode = "manual"  // a person decides every stop
	ModeObserve Mode = "observe" // never block, only record
)

// Modes are the modes there are, in the order the help lists them.
func Modes() []Mode { return []Mode{ModeAuto, ModeAsk, ModeManual, ModeObserve} }

// OnTimeout is what an unanswered question resolves to.
type OnTimeout string

// on_timeout values.
const (
	TimeoutProposal OnTimeout = "proposal" // what the checks said
	TimeoutAllow    OnTimeout = "allow"    // let it stop
)

// Config is hooksup's configuration after all layers are merged.
type Config struct {
	Mode            Mode      `toml:"mode"`
	Theme           string    `toml:"theme"`
	DecisionTimeout Duration  `toml:"decision_timeout"`
	OnTimeout       OnTimeout `toml:"on_timeout"`
	// ReasonLines is how many lines of a failed check's output claude reads.
	ReasonLines int `toml:"reason_lines"`

	Stop          StopConfig          `toml:"stop"`
	SubagentStop  SubagentStopConfig  `toml:"subagent_stop"`
	Notifications NotificationsConfig `toml:"notifications"`
	Keys          KeysConfig          `toml:"keys"`
	UI            UIConfig            `toml:"ui"`
	Hub           HubConfig           `toml:"hub"`
	Goal          GoalConfig          `toml:"goal"`
}

// GoalConfig is the [goal] table: goal mode's defaults, which --done, --max-turns, --max-time
// and --max-tokens override. Goal mode itself is on only with --goal TEXT.
type GoalConfig struct {
	// Done is the shell command, run in the project's root once the checks pass, whose exit 0
	// says the goal is reached ("": the checks alone).
	Done string `toml:"done"`
	// DoneTimeout bounds one run of Done, as a check's timeout does.
	DoneTimeout Duration `toml:"done_timeout"`
	// MaxTurns is how many continuations the goal may force (at least 1).
	MaxTurns int `toml:"max_turns"`
	// MaxTime ends the goal at the first stop past it, from the session's start (0: no limit).
	MaxTime Duration `toml:"max_time"`
	// MaxTokens ends the goal at the first stop past it, the session's tokens as the agent's
	// transcript counts them (0: no limit).
	MaxTokens int `toml:"max_tokens"`
	// NoProgress ends the goal when the same failure (the same check's output, or the done
	// command's, times and counts aside) comes this many stops in a row (0: never).
	NoProgress int `toml:"no_progress"`
	// Protect are globs of files the agent must not change while the goal goes on ("*_test.go":
	// a base name at any depth; "tests/*.py": a path from the project's root): a change pauses
	// the goal (--protect adds to them).
	Protect []string `toml:"protect"`
}

// DefaultGoalTurns is the goal's budget of turns when neither --max-turns nor [goal] max_turns
// sets it.
const DefaultGoalTurns = 20

// DefaultNoProgress is how many stops in a row with the same failure end a goal.
const DefaultNoProgress = 3

// DoneCheck is the done command as the checks run it: in its own process group, to its timeout.
func (g GoalConfig) DoneCheck() Check {
	return Check{Name: "done", Command: g.Done, Timeout: g.DoneTimeout}
}

// HubConfig is the [hub] table: the other machines whose sessions hooksup ls, status, approve,
// deny, halt and watch reach over ssh.
type HubConfig struct {
	// Hosts are reached besides this machine, each a destination ssh accepts.
	Hosts []string `toml:"hosts"`
	// SSH is the command line before the host ("ssh" by default), e.g. ["ssh", "-F", "FILE"].
	SSH []string `toml:"ssh"`
	// RemoteCommand is the hooksup the remote runs ("hooksup", on the remote's PATH).
	RemoteCommand string `toml:"remote_command"`
	// Timeout bounds connecting to a host and each of its answers.
	Timeout Duration `toml:"timeout"`
}

// UIConfig is the [ui] table.
type UIConfig struct {
	// HoldOnExit keeps claude's last screen after it exits, until a key.
	HoldOnExit bool `toml:"hold_on_exit"`
}

// StopConfig is the [stop] table.
type StopConfig struct {
	MaxContinuations int `toml:"max_continuations"`
	// Strict: a headless run whose agent stopped for the last time with its checks failing (let
	// go by the limit, or by a person) exits 3 instead of the agent's 0, as --strict does.
	Strict bool    `toml:"strict"`
	Checks []Check `toml:"checks"`
}

// SubagentStopConfig is the [subagent_stop] table.
type SubagentStopConfig struct {
	MaxSteers int     `toml:"max_steers"`
	Checks    []Check `toml:"checks"`
}

// NotificationsConfig is the [notifications] table.
type NotificationsConfig struct {
	OnIdle       session.AlertAction `toml:"on_idle"`
	OnPermission session.AlertAction `toml:"on_permission"`
	NudgeText    string              `toml:"nudge_text"`
	// Notifier is how notify reaches the person: auto (by the terminal and the system), osc9,
	// osc777, osc99 (the terminal's sequence) or system (osascript, notify-send).
	Notifier notify.Method `toml:"notifier"`
}

// KeysConfig is the [keys] table: the prefix key and, per action, the key that replaces its
// default (internal/keymap lists the actions).
type KeysConfig struct {
	Prefix   string            `toml:"prefix"`
	Bindings map[string]string `toml:"bindings"`
}

// keysError turns a keymap error into a configuration error naming the key.
func keysError(err error) *ConfigError {
	var ke *keymap.Error
	if !errors.As(err, &ke) {
		return &ConfigError{File: "config", Key: "keys", Msg: err.Error(), err: err}
	}
	return &ConfigError{File: "config", Key: keysKey(ke.Name), Msg: ke.Msg, err: ke}
}

// keysKey is the config key of a binding.
func keysKey(name string) string {
	if name == "prefix" {
		return "keys.prefix"
	}
	return "keys.bindings." + name
}

// Check is one [[stop.checks]] or [[subagent_stop.checks]] entry.
type Check struct {
	Name           string            `toml:"name"`
	Command        string            `toml:"command"`
	Timeout        Duration          `toml:"timeout"`
	Cwd            string            `toml:"cwd"`
	Env            map[string]string `toml:"env"`
	RetryOnFailure *bool             `toml:"retry_on_failure"`
	MaxRetries     int               `toml:"max_retries"`
	Required       bool              `toml:"required"`
	AgentTypes     []string          `toml:"agent_types"`
}

// Retries reports whether a failure of the check makes the agent continue (default true).
func (c Check) Retries() bool { return c.RetryOnFailure == nil || *c.RetryOnFailure }

// DefaultReasonLines is how many lines of a failed check's output claude reads by default.
const DefaultReasonLines = 40

// DefaultCheckTimeout applies to a check that sets none.
const DefaultCheckTimeout = 2 * time.Minute

// TimeoutOrDefault is the check's timeout.
func (c Check) TimeoutOrDefault() time.Duration {
	if c.Timeout.D > 0 {
		return c.Timeout.D
	}
	return DefaultCheckTimeout
}

// Duration is a time.Duration written as a Go duration string ("90s", "5m").
type Duration struct{ D time.Duration }

// UnmarshalText parses a Go duration string.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("not a duration like \"90s\" or \"5m\": %q", b)
	}
	if v < 0 {
		return fmt.Errorf("negative duration %q", b)
	}
	d.D = v
	return nil
}

// MarshalText writes the duration.
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.D.String()), nil }

// Defaults is the built-in configuration, the lowest layer.
func Defaults() Config {
	return Config{
		Mode:            ModeAsk,
		Theme:           "auto",
		DecisionTimeout: Duration{5 * time.Minute},
		OnTimeout:       TimeoutProposal,
		ReasonLines:     DefaultReasonLines,
		Stop:            StopConfig{MaxContinuations: 3},
		SubagentStop:    SubagentStopConfig{MaxSteers: 3},
		Notifications:   NotificationsConfig{OnIdle: session.ActionNone, OnPermission: session.ActionBell, NudgeText: "continue", Notifier: notify.Auto},
		UI:              UIConfig{HoldOnExit: true},
		Hub:             HubConfig{SSH: []string{"ssh"}, RemoteCommand: "hooksup", Timeout: Duration{10 * time.Second}},
		Goal:            GoalConfig{DoneTimeout: Duration{DefaultCheckTimeout}, MaxTurns: DefaultGoalTurns, NoProgress: DefaultNoProgress},
	}
}

// ConfigError is a problem in one configuration file.
type ConfigError struct {
	File  string
	Line  int // 0 when unknown
	Key   string
	Msg   string
	err   error // the cause, when another package found the problem
	order int   // the file's place among the layers, for sorting
}

// Unwrap returns the cause.
func (e *ConfigError) Unwrap() error { return e.err }

func (e *ConfigError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.Key != "" {
		fmt.Fprintf(&b, ": %s", e.Key)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// Errors is every problem of a configuration, in the order of its files and lines.
type Errors []*ConfigError

// Error is one line per problem, after a heading when there are several.
func (es Errors) Error() string {
	if len(es) == 1 {
		return es[0].Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d problems in the configuration:", len(es))
	for _, e := range es {
		b.WriteString("\n  ")
		b.WriteString(e.Error())
	}
	return b.String()
}

// Unwrap returns the problems.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// errOrNil is es as an error, nil when there is no problem.
func (es Errors) errOrNil() error {
	if len(es) == 0 {
		return nil
	}
	return es
}

// Layer is one configuration file that took part in a load.
type Layer struct {
	Path   string
	Source string // "user", "project", "local", "flag"
	Used   bool   // false when the file does not exist or is not trusted
	// SetsChecks reports whether the file, used, sets [[stop.checks]] or [[subagent_stop.checks]].
	SetsChecks bool
	Note       string // why it was not used, when it exists
	// Problem is what is wrong with a file left out as untrusted, which `hooksup trust`
	// refuses until it is fixed (Errors); nil when it would decode.
	Problem error
}

// LoadOptions say where to look for configuration.
type LoadOptions struct {
	UserConfigDir string // $XDG_CONFIG_HOME/hooksup; "" skips the user layer
	ProjectDir    string // where .hooksup.toml and .hooksup.local.toml live; "" skips them
	ExplicitFile  string // --config: trusted, loaded last
	// Trusted reports whether a project file's exact content may be used. Nil trusts nothing.
	Trusted func(path string, content []byte) bool

	// Read reads a file in place of ReadFile when set: ValidateFile's one content, a session's
	// project files as it uses them (what it trusted, not what they hold now).
	Read func(path string) ([]byte, error)
}

// Load merges the layers over Defaults and validates the result. A missing file is
// skipped (but a missing --config file is a problem); every problem of every file is reported
// at once, as Errors, each naming file, line and key. A layer that sets a list of checks
// replaces the lists of the layers below it.
func Load(o LoadOptions) (Config, []Layer, error) {
	cfg := Defaults()
	var layers []Layer
	type src struct{ path, source string }
	var srcs []src
	if o.UserConfigDir != "" {
		srcs = append(srcs, src{filepath.Join(o.UserConfigDir, "config.toml"), "user"})
	}
	if o.ProjectDir != "" {
		srcs = append(srcs, src{filepath.Join(o.ProjectDir, ".hooksup.toml"), "project"},
			src{filepath.Join(o.ProjectDir, ".hooksup.local.toml"), "local"})
	}
	if o.ExplicitFile != "" {
		srcs = append(srcs, src{o.ExplicitFile, "flag"})
	}
	var (
		probs   Errors
		decoded []layerFile
	)
	read := o.Read
	if read == nil {
		read = ReadFile
	}
	for i, s := range srcs {
		l := Layer{Path: s.path, Source: s.source}
		data, err := read(s.path)
		if errors.Is(err, os.ErrNotExist) && s.source != "flag" {
			layers = append(layers, l)
			continue
		}
		if err != nil {
			probs = append(probs, &ConfigError{File: s.path, Msg: readProblem(err), err: err, order: i})
			layers = append(layers, l)
			continue
		}
		if (s.source == "project" || s.source == "local") && (o.Trusted == nil || !o.Trusted(s.path, data)) {
			l.Note = "not trusted: run `hooksup trust` to use it"
			if l.Problem = ValidateFile(s.path, data); l.Problem != nil {
				l.Note = "not trusted, and `hooksup trust` refuses it until its problems are fixed"
			}
			layers = append(layers, l)
			continue
		}
		layer, doc, bad, fprobs := decodeFile(s.path, data)
		for _, p := range fprobs {
			p.order = i
		}
		probs = append(probs, fprobs...)
		if doc != nil {
			mergeDefined(reflect.ValueOf(&cfg).Elem(), reflect.ValueOf(&layer).Elem(), doc, bad, "")
			decoded = append(decoded, layerFile{path: s.path, data: data, doc: doc, order: i})
			l.Used = true
			l.SetsChecks = defines(doc, "stop.checks") || defines(doc, "subagent_stop.checks")
		}
		layers = append(layers, l)
	}
	seen := map[string]bool{}
	for _, p := range probs {
		seen[p.Key] = true
	}
	for _, p := range cfg.problems() {
		if !seen[p.Key] {
			probs = append(probs, blame(p, decoded, len(srcs)))
		}
	}
	sortProblems(probs)
	return cfg, layers, probs.errOrNil()
}

// readProblem says why a configuration file could not be read.
func readProblem(err error) string {
	var fe *FileError
	switch {
	case errors.As(err, &fe):
		return fe.Problem()
	case errors.Is(err, os.ErrNotExist):
		return "the file does not exist"
	case errors.Is(err, os.ErrPermission):
		return "the file cannot be read: permission denied"
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		return "the file cannot be read: " + pe.Err.Error()
	}
	return "the file cannot be read: " + err.Error()
}

// blame names the file and line behind a problem of the merged configuration: the highest
// layer that sets the key. A clash of two key bindings is told from the side of the binding
// set in the higher layer, where the clash arose.
func blame(p *ConfigError, files []layerFile, unknown int) *ConfigError {
	top := func(key string) int {
		for i := len(files) - 1; i >= 0; i-- {
			if defines(files[i].doc, key) {
				return i
			}
		}
		return -1
	}
	var ke *keymap.Error
	if errors.As(p, &ke) && ke.Other != "" {
		if flip := keysError(ke.Flip()); top(flip.Key) > top(p.Key) {
			p = flip
		}
	}
	p.order = unknown
	if i := top(p.Key); i >= 0 {
		p.File, p.Line, p.order = files[i].path, tomltext.KeyLine(files[i].data, p.Key), files[i].order
	}
	return p
}

// ValidateFile is every problem of one configuration file's content on its own, over the
// defaults: exactly what Load reports for that file once it is used (Errors, each naming file,
// line and key). `hooksup trust` refuses a file with problems, so that nothing is trusted that a
// session or `hooksup check` would then refuse.
func ValidateFile(path string, data []byte) error {
	_, _, err := Load(LoadOptions{ExplicitFile: path, Read: func(string) ([]byte, error) { return data, nil }})
	return err
}

// DecodeFile applies one TOML file over cfg, strictly.
func DecodeFile(path string, cfg *Config) error {
	data, err := ReadFile(path)
	if err != nil {
		return &ConfigError{File: path, Msg: readProblem(err), err: err}
	}
	return Decode(path, data, cfg)
}

// Decode applies TOML data (read from path) over cfg, strictly: every problem of the file
// on its own (the values of the merged configuration are checked by Load).
func Decode(path string, data []byte, cfg *Config) error {
	layer, doc, bad, probs := decodeFile(path, data)
	if doc != nil {
		mergeDefined(reflect.ValueOf(cfg).Elem(), reflect.ValueOf(&layer).Elem(), doc, bad, "")
	}
	return Errors(probs).errOrNil()
}

// Validate checks values that TOML's types cannot. The error is Errors, every problem.
func (c *Config) Validate() error { return Errors(c.problems()).errOrNil() }

// problems lists every value of c that is out of range, each with its key.
func (c *Config) problems() []*ConfigError {
	var out []*ConfigError
	bad := func(key, msg string) { out = append(out, &ConfigError{File: "config", Key: key, Msg: msg}) }
	switch c.Mode {
	case ModeAuto, ModeAsk, ModeManual, ModeObserve:
	default:
		bad("mode", fmt.Sprintf("%q is not one of auto, ask, manual, observe", c.Mode))
	}
	switch c.OnTimeout {
	case TimeoutProposal, TimeoutAllow:
	default:
		bad("on_timeout", fmt.Sprintf("%q is not one of proposal, allow", c.OnTimeout))
	}
	if c.ReasonLines < 1 {
		bad("reason_lines", "must be 1 or more")
	}
	if c.Stop.MaxContinuations < 0 {
		bad("stop.max_continuations", "must be 0 or more")
	}
	if c.SubagentStop.MaxSteers < 0 {
		bad("subagent_stop.max_steers", "must be 0 or more")
	}
	if len(c.Hub.SSH) == 0 || c.Hub.SSH[0] == "" {
		bad("hub.ssh", `must name a command, e.g. ["ssh"]`)
	}
	if c.Hub.RemoteCommand == "" {
		bad("hub.remote_command", `must name the remote's hooksup, e.g. "hooksup"`)
	}
	for _, h := range c.Hub.Hosts {
		if h == "" || strings.HasPrefix(h, "-") {
			bad("hub.hosts", fmt.Sprintf("\"%s\" is not a host ssh accepts", termsafe.String(h)))
		}
	}
	if c.Hub.Timeout.D <= 0 {
		bad("hub.timeout", "must be more than 0")
	}
	out = append(out, c.Goal.problems()...)
	if _, err := keymap.Resolve(c.Keys.Prefix, c.Keys.Bindings); err != nil {
		out = append(out, keysError(err))
	}
	for _, n := range []struct {
		key string
		v   session.AlertAction
	}{{"notifications.on_idle", c.Notifications.OnIdle}, {"notifications.on_permission", c.Notifications.OnPermission}} {
		switch n.v {
		case session.ActionNone, session.ActionBell, session.ActionNotify, session.ActionNudge:
		default:
			bad(n.key, fmt.Sprintf("%q is not one of none, bell, notify, nudge", n.v))
		}
	}
	if !slices.Contains(notify.Methods(), c.Notifications.Notifier) {
		var ms []string
		for _, m := range notify.Methods() {
			ms = append(ms, string(m))
		}
		bad("notifications.notifier", fmt.Sprintf("%q is not one of %s", c.Notifications.Notifier, strings.Join(ms, ", ")))
	}
	for _, list := range []struct {
		table  string
		checks []Check
	}{{"stop.checks", c.Stop.Checks}, {"subagent_stop.checks", c.SubagentStop.Checks}} {
		seen := map[string]bool{}
		for i, ch := range list.checks {
			key := fmt.Sprintf("%s[%d]", list.table, i)
			switch {
			case strings.TrimSpace(ch.Name) == "":
				bad(key+".name", "every check needs a name")
			case seen[ch.Name]:
				bad(key+".name", fmt.Sprintf("two checks are named \"%s\"", termsafe.String(ch.Name)))
			}
			seen[ch.Name] = true
			if strings.TrimSpace(ch.Command) == "" {
				bad(key+".command", fmt.Sprintf("check \"%s\" has no command", termsafe.String(ch.Name)))
			}
			if ch.MaxRetries < 0 {
				bad(key+".max_retries", "must be 0 (unlimited) or more")
			}
			if len(ch.AgentTypes) > 0 && list.table == "stop.checks" {
				bad(key+".agent_types", "only subagent_stop checks filter by agent type")
			}
		}
	}
	return out
}

// problems lists every value of the [goal] table out of range, each with its key.
func (g GoalConfig) problems() []*ConfigError {
	var out []*ConfigError
	bad := func(key, msg string) { out = append(out, &ConfigError{File: "config", Key: key, Msg: msg}) }
	if g.Done != "" && strings.TrimSpace(g.Done) == "" {
		bad("goal.done", "is empty: leave it out for the checks alone")
	}
	if g.DoneTimeout.D <= 0 {
		bad("goal.done_timeout", "must be more than 0")
	}
	if g.MaxTurns < 1 {
		bad("goal.max_turns", "must be 1 or more")
	}
	if g.MaxTokens < 0 {
		bad("goal.max_tokens", "must be 0 (no limit) or more")
	}
	if g.NoProgress < 0 || g.NoProgress == 1 {
		bad("goal.no_progress", "must be 0 (off) or 2 or more")
	}
	for _, glob := range g.Protect {
		if strings.TrimSpace(glob) == "" {
			bad("goal.protect", "holds an empty glob: give one like '*_test.go'")
		} else if _, err := path.Match(glob, ""); err != nil {
			bad("goal.protect", fmt.Sprintf("%q is not a glob (%v): give one like '*_test.go'", glob, err))
		}
	}
	return out
}

// StopHookTimeout is the timeout injected for Stop and SubagentStop hooks: long enough for the
// checks to wait for another session's run in the project (ChecksTimeout), for every check to
// run to its own timeout and for a person to answer, so claude never kills a hook that is still
// deciding.
func (c *Config) StopHookTimeout() time.Duration {
	t := 2*c.ChecksTimeout() + c.DecisionTimeout.D + time.Minute
	if c.Goal.Done != "" { // a goal's done command runs after the checks, in the same stop
		t += c.Goal.DoneTimeout.D
	}
	return t
}

// ChecksTimeout is the longest one run of the checks may take: the stop's or the subagent
// stop's checks, each to its timeout. A stop's checks wait at most this long for another run in
// the same project.
func (c *Config) ChecksTimeout() time.Duration {
	longest := time.Duration(0)
	for _, list := range [][]Check{c.Stop.Checks, c.SubagentStop.Checks} {
		var sum time.Duration
		for _, ch := range list {
			sum += ch.TimeoutOrDefault()
		}
		longest = max(longest, sum)
	}
	return longest
}

// UserConfigDir is $XDG_CONFIG_HOME/hooksup, else ~/.config/hooksup; userdirs.ErrNoHome when
// neither is an absolute path.
func UserConfigDir(getenv func(string) string) (string, error) { return userdirs.Config(getenv) }
