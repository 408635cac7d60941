package supervisor

import (
	"bytes"
	"encoding"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/hooksup/hooksup/internal/keymap"
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

// AlertAction is what [notifications] does when the agent needs the person.
type AlertAction string

// Alert actions.
const (
	ActionNone   AlertAction = "none"
	ActionBell   AlertAction = "bell"   // ring the terminal's bell
	ActionNotify AlertAction = "notify" // a desktop notification through the outer terminal
	ActionNudge  AlertAction = "nudge"  // type nudge_text into claude while it is idle
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
}

// UIConfig is the [ui] table.
type UIConfig struct {
	// HoldOnExit keeps claude's last screen after it exits, until a key.
	HoldOnExit bool `toml:"hold_on_exit"`
}

// StopConfig is the [stop] table.
type StopConfig struct {
	MaxContinuations int     `toml:"max_continuations"`
	Checks           []Check `toml:"checks"`
}

// SubagentStopConfig is the [subagent_stop] table.
type SubagentStopConfig struct {
	MaxSteers int     `toml:"max_steers"`
	Checks    []Check `toml:"checks"`
}

// NotificationsConfig is the [notifications] table.
type NotificationsConfig struct {
	OnIdle       AlertAction `toml:"on_idle"`
	OnPermission AlertAction `toml:"on_permission"`
	NudgeText    string      `toml:"nudge_text"`
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
		Notifications:   NotificationsConfig{OnIdle: ActionNone, OnPermission: ActionBell, NudgeText: "continue"},
		UI:              UIConfig{HoldOnExit: true},
	}
}

// ConfigError is a problem in one configuration file.
type ConfigError struct {
	File string
	Line int // 0 when unknown
	Key  string
	Msg  string
	err  error // the cause, when another package found the problem
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

// Layer is one configuration file that took part in a load.
type Layer struct {
	Path   string
	Source string // "user", "project", "local", "flag"
	Used   bool   // false when the file does not exist or is not trusted
	Note   string // why it was not used, when it exists
}

// LoadOptions say where to look for configuration.
type LoadOptions struct {
	UserConfigDir string // $XDG_CONFIG_HOME/hooksup; "" skips the user layer
	ProjectDir    string // where .hooksup.toml and .hooksup.local.toml live; "" skips them
	ExplicitFile  string // --config: trusted, loaded last
	// Trusted reports whether a project file's exact content may be used. Nil trusts nothing.
	Trusted func(path string, content []byte) bool
}

// LoadConfig merges the layers over Defaults and validates the result. A missing file is
// skipped; a broken one is an error naming file, line and key. A layer that sets a list of
// checks replaces the lists of the layers below it.
func LoadConfig(o LoadOptions) (Config, []Layer, error) {
	cfg := Defaults()
	var layers []Layer
	type src struct{ path, source string }
	var srcs []src
	var blame validationBlame
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
	for _, s := range srcs {
		l := Layer{Path: s.path, Source: s.source}
		data, err := os.ReadFile(s.path)
		if errors.Is(err, os.ErrNotExist) && s.source != "flag" {
			layers = append(layers, l)
			continue
		}
		if err != nil {
			return cfg, layers, fmt.Errorf("read config: %w", err)
		}
		if (s.source == "project" || s.source == "local") && (o.Trusted == nil || !o.Trusted(s.path, data)) {
			l.Note = "not trusted: run `hooksup trust` to use it"
			layers = append(layers, l)
			continue
		}
		if err := decodeLayer(s.path, data, &cfg); err != nil {
			return cfg, layers, err
		}
		l.Used = true
		layers = append(layers, l)
		blame.after(s.path, data, cfg.Validate())
	}
	if err := cfg.Validate(); err != nil {
		return cfg, layers, blame.name(err)
	}
	return cfg, layers, nil
}

// validationBlame finds the file behind a validation error: the layer after which the merged
// configuration first gave that error, and the line of that file that sets the key.
type validationBlame struct {
	err, path string
	data      []byte
}

func (b *validationBlame) after(path string, data []byte, err error) {
	switch {
	case err == nil:
		*b = validationBlame{}
	case err.Error() != b.err:
		*b = validationBlame{err.Error(), path, data}
	}
}

func (b *validationBlame) name(err error) error {
	var ce *ConfigError
	if b.path != "" && err.Error() == b.err && errors.As(err, &ce) {
		ce.File = b.path
		if ce.Line == 0 && ce.Key != "" && !strings.Contains(ce.Key, "[") {
			ce.Line = keyLine(b.data, strings.Split(ce.Key, "."))
		}
		// Two keys clash and this file set the other one: name that one.
		var ke *keymap.Error
		if ce.Line == 0 && errors.As(ce, &ke) && ke.Other != "" {
			if line := keyLine(b.data, strings.Split(keysKey(ke.Other), ".")); line > 0 {
				*ce = *keysError(ke.Flip())
				ce.File, ce.Line = b.path, line
			}
		}
	}
	return err
}

// DecodeConfigFile applies one TOML file over cfg, strictly.
func DecodeConfigFile(path string, cfg *Config) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read config: %w", err)
	}
	return decodeLayer(path, data, cfg)
}

// DecodeConfig applies TOML data (read from path) over cfg, strictly.
func DecodeConfig(path string, data []byte, cfg *Config) error { return decodeLayer(path, data, cfg) }

var typeErrRe = regexp.MustCompile(`^toml: (?:line (\d+) )?\(last key "([^"]*)"\): (.*)$`)

// decodeLayer decodes one file into a fresh Config and copies over cfg only the keys the file
// sets, so nothing of a lower layer leaks into this one's values (a check list replaces the
// lower layer's whole list, its checks' env and cwd included).
func decodeLayer(path string, data []byte, cfg *Config) error {
	var layer Config
	md, err := toml.NewDecoder(bytes.NewReader(data)).Decode(&layer)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return &ConfigError{File: path, Line: pe.Position.Line, Key: pe.LastKey, Msg: pe.Message}
		}
		// Type mismatches come as plain errors: "toml: line 2 (last key "a.b"): message".
		if m := typeErrRe.FindStringSubmatch(err.Error()); m != nil {
			line, _ := strconv.Atoi(m[1])
			return &ConfigError{File: path, Line: line, Key: m[2], Msg: m[3]}
		}
		return &ConfigError{File: path, Msg: strings.TrimPrefix(err.Error(), "toml: ")}
	}
	if und := md.Undecoded(); len(und) > 0 {
		k := und[0]
		return &ConfigError{File: path, Line: keyLine(data, k), Key: k.String(),
			Msg: "unknown key (see `hooksup init` for every key hooksup knows)"}
	}
	if err := keymap.Check(layer.Keys.Prefix, layer.Keys.Bindings); err != nil {
		ce := keysError(err)
		ce.File, ce.Line = path, keyLine(data, strings.Split(ce.Key, "."))
		return ce
	}
	mergeDefined(reflect.ValueOf(cfg).Elem(), reflect.ValueOf(&layer).Elem(), md, nil)
	return nil
}

var textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()

// mergeDefined copies into dst each field of src whose TOML key md saw defined. Tables are
// merged key by key; everything else (values, lists, inline maps) is replaced whole.
func mergeDefined(dst, src reflect.Value, md toml.MetaData, path []string) {
	t := dst.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name := f.Tag.Get("toml")
		if name == "" || name == "-" {
			continue
		}
		key := append(append([]string{}, path...), name)
		isTable := f.Type.Kind() == reflect.Struct && !reflect.PointerTo(f.Type).Implements(textUnmarshaler)
		switch {
		case isTable:
			mergeDefined(dst.Field(i), src.Field(i), md, key)
		case md.IsDefined(key...):
			dst.Field(i).Set(src.Field(i))
		}
	}
}

// keyLine finds the line where key is set: under its table's header, as a dotted key, or
// inside an inline table; a key that is itself a table, at its header. 0 when not found.
func keyLine(data []byte, k toml.Key) int {
	if len(k) == 0 {
		return 0
	}
	var table, outer []string // outer: the table around a multi-line inline table
	for i, line := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(line)
		if outer != nil && strings.HasPrefix(t, "}") {
			table, outer = outer, nil
			continue
		}
		if outer == nil && strings.HasPrefix(t, "[") {
			h := strings.TrimLeft(t, "[")
			table = dottedKey(h[:strings.Index(h+"]", "]")])
			if slices.Equal(table, k) {
				return i + 1
			}
			continue
		}
		if len(table) >= len(k) || !slices.Equal(table, k[:len(table)]) {
			continue
		}
		if assigns(t, k[len(table):]) {
			return i + 1
		}
		// `a = {` opening an inline table that goes on over the next lines.
		if lhs, rhs, ok := strings.Cut(t, "="); ok && outer == nil && strings.TrimSpace(rhs) == "{" {
			outer, table = table, append(slices.Clone(table), dottedKey(lhs)...)
		}
	}
	return 0
}

// assigns reports whether a line sets key (relative to the line's table), directly
// (`a.b = 1`) or in an inline table (`a = { b = 1 }`).
func assigns(line string, key []string) bool {
	lhs, rhs, ok := strings.Cut(line, "=")
	if !ok {
		return false
	}
	dk := dottedKey(lhs)
	switch {
	case slices.Equal(dk, key):
		return true
	case len(dk) < len(key) && slices.Equal(dk, key[:len(dk)]):
		rest := key[len(dk):]
		if !strings.HasPrefix(strings.TrimSpace(rhs), "{") {
			return false
		}
		// The first of the remaining parts, at the start of the inline table or after a comma.
		re := regexp.MustCompile(`[{,]\s*"?` + regexp.QuoteMeta(rest[0]) + `"?\s*[.=]`)
		return re.MatchString(rhs)
	}
	return false
}

// dottedKey splits a TOML key as written (`a . "b"`) into its parts.
func dottedKey(s string) []string {
	var parts []string
	for _, p := range strings.Split(s, ".") {
		parts = append(parts, strings.Trim(strings.TrimSpace(p), `"'`))
	}
	return parts
}

// Validate checks values that TOML's types cannot.
func (c *Config) Validate() error {
	bad := func(key, msg string) error { return &ConfigError{File: "config", Key: key, Msg: msg} }
	switch c.Mode {
	case ModeAuto, ModeAsk, ModeManual, ModeObserve:
	default:
		return bad("mode", fmt.Sprintf("%q is not one of auto, ask, manual, observe", c.Mode))
	}
	switch c.OnTimeout {
	case TimeoutProposal, TimeoutAllow:
	default:
		return bad("on_timeout", fmt.Sprintf("%q is not one of proposal, allow", c.OnTimeout))
	}
	if c.ReasonLines < 1 {
		return bad("reason_lines", "must be 1 or more")
	}
	if c.Stop.MaxContinuations < 0 {
		return bad("stop.max_continuations", "must be 0 or more")
	}
	if c.SubagentStop.MaxSteers < 0 {
		return bad("subagent_stop.max_steers", "must be 0 or more")
	}
	if _, err := keymap.Resolve(c.Keys.Prefix, c.Keys.Bindings); err != nil {
		return keysError(err)
	}
	for _, n := range []struct {
		key string
		v   AlertAction
	}{{"notifications.on_idle", c.Notifications.OnIdle}, {"notifications.on_permission", c.Notifications.OnPermission}} {
		switch n.v {
		case ActionNone, ActionBell, ActionNotify, ActionNudge:
		default:
			return bad(n.key, fmt.Sprintf("%q is not one of none, bell, notify, nudge", n.v))
		}
	}
	for _, list := range []struct {
		table  string
		checks []Check
	}{{"stop.checks", c.Stop.Checks}, {"subagent_stop.checks", c.SubagentStop.Checks}} {
		seen := map[string]bool{}
		for i, ch := range list.checks {
			key := fmt.Sprintf("%s[%d]", list.table, i)
			if strings.TrimSpace(ch.Name) == "" {
				return bad(key+".name", "every check needs a name")
			}
			if seen[ch.Name] {
				return bad(key+".name", fmt.Sprintf("two checks are named %q", ch.Name))
			}
			seen[ch.Name] = true
			if strings.TrimSpace(ch.Command) == "" {
				return bad(key+".command", fmt.Sprintf("check %q has no command", ch.Name))
			}
			if ch.MaxRetries < 0 {
				return bad(key+".max_retries", "must be 0 (unlimited) or more")
			}
			if len(ch.AgentTypes) > 0 && list.table == "stop.checks" {
				return bad(key+".agent_types", "only subagent_stop checks filter by agent type")
			}
		}
	}
	return nil
}

// StopHookTimeout is the timeout injected for Stop and SubagentStop hooks: long enough for every
// check to run to its own timeout and for a person to answer, so claude never kills a hook that
// is still deciding.
func (c *Config) StopHookTimeout() time.Duration {
	longest := time.Duration(0)
	for _, list := range [][]Check{c.Stop.Checks, c.SubagentStop.Checks} {
		var sum time.Duration
		for _, ch := range list {
			sum += ch.TimeoutOrDefault()
		}
		longest = max(longest, sum)
	}
	return longest + c.DecisionTimeout.D + time.Minute
}

// UserConfigDir is $XDG_CONFIG_HOME/hooksup, else ~/.config/hooksup.
func UserConfigDir(getenv func(string) string) string {
	if d := getenv("XDG_CONFIG_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "hooksup")
	}
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	return filepath.Join(home, ".config", "hooksup")
}
