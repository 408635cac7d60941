package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"

	"github.com/hooksup/hooksup/codex"
	"github.com/hooksup/hooksup/hooks"
)

// CodexTrust is one [hooks.state] entry of Codex's config.toml: the hook under Key runs once
// its definition's hash is Hash.
type CodexTrust struct{ Key, Hash string }

// CodexInstalledTrust returns the entries that trust the hooks `hooksup install` wrote into
// the hooks.json at path (its content b): Codex keys a hook of a hooks.json by the file's path,
// the event, its group and its handler, and runs it only once that key holds its hash.
func CodexInstalledTrust(path string, b []byte) ([]CodexTrust, error) {
	var f struct {
		Hooks map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Type    string  `json:"type"`
				Command string  `json:"command"`
				Timeout float64 `json:"timeout"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var out []CodexTrust
	for _, ev := range hooks.InstalledEvents {
		label, err := codex.EventLabel(ev)
		if err != nil {
			return nil, err
		}
		for gi, g := range f.Hooks[ev] {
			for hi, h := range g.Hooks {
				if h.Type != "command" || !hooks.IsInstalledCommand(h.Command) {
					continue
				}
				hash, err := codex.TrustedHash(codex.Hook{Event: ev, Matcher: g.Matcher, Command: h.Command, Timeout: int(math.Ceil(h.Timeout))})
				if err != nil {
					return nil, err
				}
				out = append(out, CodexTrust{Key: fmt.Sprintf("%s:%s:%d:%d", path, label, gi, hi), Hash: hash})
			}
		}
	}
	return out, nil
}

// inlineState is a [hooks.state] written as an inline table (state = {…}, or hooks.state = {…}),
// which TOML does not let a later table extend. Compiled on first use: the hook client links
// this package.
var inlineState = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*(hooks\s*\.\s*)?state\s*=\s*\{`) })

// CodexAddTrust appends to config (a config.toml's content) the entries it lacks, each as a
// [hooks.state."KEY"] table, and returns the new content and how many were added. An entry
// whose key is there with another hash, or a [hooks.state] written inline, cannot be edited
// safely as text: that is an error naming the lines to write by hand.
func CodexAddTrust(config []byte, ts []CodexTrust) ([]byte, int, error) {
	var add []CodexTrust
	for _, t := range ts {
		qkey := tomlString(t.Key)
		switch {
		case !bytes.Contains(config, []byte(qkey)):
			add = append(add, t)
		case !bytes.Contains(config, []byte(tomlString(t.Hash))):
			return nil, 0, fmt.Errorf("it already trusts %s with another hash: set its trusted_hash to %s", qkey, tomlString(t.Hash))
		}
	}
	if len(add) == 0 {
		return config, 0, nil
	}
	if inlineState().Match(config) {
		var b strings.Builder
		for _, t := range add {
			fmt.Fprintf(&b, "\n  %s = { trusted_hash = %s }", tomlString(t.Key), tomlString(t.Hash))
		}
		return nil, 0, fmt.Errorf("its [hooks.state] is an inline table, which hooksup does not edit: add to it%s", b.String())
	}
	out := bytes.Clone(config)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	out = append(out, "\n# hooksup install --agent codex: trust hooksup's hooks in hooks.json (without them, these trust nothing)\n"...)
	for _, t := range add {
		out = fmt.Appendf(out, "[hooks.state.%s]\ntrusted_hash = %s\n", tomlString(t.Key), tomlString(t.Hash))
	}
	return out, len(add), nil
}

// tomlString is s as a TOML basic string.
func tomlString(s string) string {
	b, _ := json.Marshal(s) // JSON's escapes are TOML's, for the paths and hashes written here
	return string(b)
}
