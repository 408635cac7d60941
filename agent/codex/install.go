package codex

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/tomltext"
)

// Trust is one [hooks.state] entry of Codex's config.toml: the hook under Key runs once
// its definition's hash is Hash.
type Trust struct{ Key, Hash string }

// InstalledTrust returns the entries that trust the hooks `hooksup install` wrote into
// the hooks.json at path (its content b): Codex keys a hook of a hooks.json by the file's path,
// the event, its group and its handler, and runs it only once that key holds its hash.
func InstalledTrust(path string, b []byte) ([]Trust, error) {
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
	var out []Trust
	for _, ev := range hooks.InstalledEvents {
		label, err := EventLabel(ev)
		if err != nil {
			return nil, err
		}
		for gi, g := range f.Hooks[ev] {
			for hi, h := range g.Hooks {
				if h.Type != "command" || !hooks.IsInstalledCommand(h.Command) {
					continue
				}
				hash, err := TrustedHash(Hook{Event: ev, Matcher: g.Matcher, Command: h.Command, Timeout: int(math.Ceil(h.Timeout))})
				if err != nil {
					return nil, err
				}
				out = append(out, Trust{Key: fmt.Sprintf("%s:%s:%d:%d", path, label, gi, hi), Hash: hash})
			}
		}
	}
	return out, nil
}

// inlineState is a [hooks.state] written as an inline table (state = {…}, or hooks.state = {…}),
// which TOML does not let a later table extend (compiled on first use).
var inlineState = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*(hooks\s*\.\s*)?state\s*=\s*\{`) })

// AddTrust appends to config (a config.toml's content) the entries it lacks, each as a
// [hooks.state."KEY"] table, and returns the new content and how many were added. An entry
// whose key is there with another hash, or a [hooks.state] written inline, cannot be edited
// safely as text: that is an error naming the lines to write by hand.
func AddTrust(config []byte, ts []Trust) ([]byte, int, error) {
	var add []Trust
	for _, t := range ts {
		qkey := tomltext.Quote(t.Key)
		switch {
		case !bytes.Contains(config, []byte(qkey)):
			add = append(add, t)
		case !bytes.Contains(config, []byte(tomltext.Quote(t.Hash))):
			return nil, 0, fmt.Errorf("it already trusts %s with another hash: set its trusted_hash to %s", qkey, tomltext.Quote(t.Hash))
		}
	}
	if len(add) == 0 {
		return config, 0, nil
	}
	if inlineState().Match(config) {
		var b strings.Builder
		for _, t := range add {
			fmt.Fprintf(&b, "\n  %s = { trusted_hash = %s }", tomltext.Quote(t.Key), tomltext.Quote(t.Hash))
		}
		return nil, 0, fmt.Errorf("its [hooks.state] is an inline table, which hooksup does not edit: add to it%s", b.String())
	}
	out := bytes.Clone(config)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	out = append(out, "\n"+trustComment+"\n"...)
	for _, t := range add {
		out = fmt.Appendf(out, "[hooks.state.%s]\ntrusted_hash = %s\n", tomltext.Quote(t.Key), tomltext.Quote(t.Hash))
	}
	return out, len(add), nil
}

// trustComment is the line AddTrust writes above its entries.
const trustComment = "# hooksup install --agent codex: trust hooksup's hooks in hooks.json (without them, these trust nothing)"

// RemoveTrust removes from config (a config.toml's content) the entries AddTrust
// wrote for ts, and returns the new content and how many it removed. An entry is removed only
// as AddTrust wrote it — a [hooks.state."KEY"] table holding trusted_hash alone — whose key
// names the same hooks.json and event as one of ts (its group may have moved since, as the
// person's own hooks changed) and whose hash is that hook's; the comment above them goes with
// the last of them. Everything else, the person's own entries and comments among them, stays.
func RemoveTrust(config []byte, ts []Trust) ([]byte, int) {
	want := map[string]bool{} // "path:label" + " " + hash
	for _, t := range ts {
		if base, ok := trustBase(t.Key); ok {
			want[base+" "+t.Hash] = true
		}
	}
	lines := strings.SplitAfter(string(config), "\n")
	drop := make([]bool, len(lines))
	n := 0
	for i := 0; i+1 < len(lines); i++ {
		key, ok := stateTable(lines[i])
		if !ok {
			continue
		}
		base, ok := trustBase(key)
		if !ok {
			continue
		}
		var hash string
		v, found := strings.CutPrefix(strings.TrimRight(lines[i+1], "\r\n"), "trusted_hash = ")
		if !found || json.Unmarshal([]byte(v), &hash) != nil || !want[base+" "+hash] {
			continue
		}
		if i+2 < len(lines) && !tableEnds(lines[i+2]) {
			continue // more in that table than hooksup wrote
		}
		drop[i], drop[i+1] = true, true
		n++
		i++
	}
	// The comment goes when every entry under it went.
	for i, l := range lines {
		if strings.TrimRight(l, "\r\n") != trustComment {
			continue
		}
		j := i + 1
		for j < len(lines) && drop[j] {
			j++
		}
		if j == i+1 || (j < len(lines) && !tableEnds(lines[j])) {
			continue
		}
		if _, ok := stateTable(lineAt(lines, j)); ok {
			continue // an entry of the person's under it
		}
		drop[i] = true
		if i > 0 && strings.TrimSpace(lines[i-1]) == "" && !drop[i-1] {
			drop[i-1] = true // the blank line AddTrust put before it
		}
	}
	if n == 0 {
		return config, 0
	}
	var b strings.Builder
	for i, l := range lines {
		if !drop[i] {
			b.WriteString(l)
		}
	}
	return []byte(b.String()), n
}

func lineAt(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return ""
}

// stateTable is the key of a line `[hooks.state."KEY"]`, as AddTrust writes it.
func stateTable(line string) (string, bool) {
	s, ok := strings.CutPrefix(strings.TrimRight(line, "\r\n"), "[hooks.state.")
	if !ok {
		return "", false
	}
	s, ok = strings.CutSuffix(s, "]")
	var key string
	if !ok || json.Unmarshal([]byte(s), &key) != nil {
		return "", false
	}
	return key, true
}

// tableEnds reports whether line ends the table above it: a blank line, a comment, another
// table, or the end of the file.
func tableEnds(line string) bool {
	s := strings.TrimSpace(line)
	return s == "" || strings.HasPrefix(s, "#") || strings.HasPrefix(s, "[")
}

// trustBase is a trust key without its group and handler: "PATH:LABEL".
func trustBase(key string) (string, bool) {
	rest, h, ok := cutLastColon(key)
	if !ok || !digits(h) {
		return "", false
	}
	base, g, ok := cutLastColon(rest)
	if !ok || !digits(g) {
		return "", false
	}
	return base, true
}

func cutLastColon(s string) (string, string, bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return "", "", false
	}
	return s[:i], s[i+1:], true
}

func digits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
