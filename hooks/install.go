package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/hooksup/hooksup/internal/atomicfile"
)

// InstalledEvents are the events `hooksup install` registers: the stops, which hooksup then
// decides on its own (standalone mode) when no supervisor runs.
var InstalledEvents = []string{Stop, SubagentStop}

// InstalledFlag marks a hook registered by `hooksup install`. Under a supervisor such a hook
// steps aside, because the supervisor's own injected hook decides.
const InstalledFlag = "--installed"

// ClientName is the file name of the small hook client installed beside hooksup.
const ClientName = "hooksup-hook"

// AgentFlag names, in an installed hook's command, the agent that runs it.
const AgentFlag = "--agent"

// InstalledCommand is the command line `hooksup install` registers for agent's event: bin
// --agent AGENT EVENT --installed when bin is the hook client (ClientName), which starts in a
// fraction of hooksup's time, else bin hook --agent AGENT EVENT --installed. Without an agent it
// is the form earlier versions installed, bin [hook] EVENT --installed, whose agent the hook
// tells from its environment.
func InstalledCommand(bin, agent, event string) string {
	cmd := ShellQuote(bin)
	if filepath.Base(bin) != ClientName {
		cmd += " hook"
	}
	if agent != "" {
		cmd += " " + AgentFlag + " " + ShellQuote(agent)
	}
	return cmd + " " + event + " " + InstalledFlag
}

// IsInstalledCommand reports whether cmd was written by `hooksup install`, whatever the binary's
// path and however it is quoted, through the hook client or through hooksup: its words, as sh
// reads them (SplitCommand), are those InstalledCommand writes.
func IsInstalledCommand(cmd string) bool {
	args, ok := SplitCommand(cmd)
	return ok && installedArgs(args)
}

// ErrNotJSON is returned for a settings file that is not a JSON object; the file is left as it
// was.
var ErrNotJSON = errors.New("not a JSON object")

// member is one key of a JSON object, in file order.
type member struct {
	key string
	val json.RawMessage
}

// object is a JSON object that keeps its keys in order.
type object []member

// get, set and del follow JavaScript's JSON.parse, which claude uses: of duplicated keys the
// last one counts, so that is the one read and edited, and a deleted key goes entirely.
func (o object) get(k string) (json.RawMessage, bool) {
	for i := len(o) - 1; i >= 0; i-- {
		if o[i].key == k {
			return o[i].val, true
		}
	}
	return nil, false
}

func (o *object) set(k string, v json.RawMessage) {
	for i := len(*o) - 1; i >= 0; i-- {
		if (*o)[i].key == k {
			(*o)[i].val = v
			return
		}
	}
	*o = append(*o, member{k, v})
}

func (o *object) del(k string) {
	*o = slices.DeleteFunc(*o, func(m member) bool { return m.key == k })
}

// lastWins drops the members whose key comes again later.
func (o object) lastWins() object {
	out := o[:0:0]
	for i, m := range o {
		if !slices.ContainsFunc(o[i+1:], func(n member) bool { return n.key == m.key }) {
			out = append(out, m)
		}
	}
	return out
}

func parseObject(data []byte) (object, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return object{}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, ErrNotJSON
	}
	var o object
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		o = append(o, member{kt.(string), v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the object")
	}
	return o, nil
}

func (o object) marshal() []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(m.val)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// MergeInstall adds agent's installed Stop and SubagentStop hooks to a Claude Code settings
// document (or Codex's hooks.json, which has its format),
// replacing any earlier hooksup install, keeping every other key and hook in its place. Running
// it twice gives the same result as once.
func MergeInstall(settings []byte, bin, agent string, timeoutSec float64) ([]byte, error) {
	return editHooks(settings, func(event string, groups []json.RawMessage) ([]json.RawMessage, error) {
		if !contains(InstalledEvents, event) {
			return groups, nil
		}
		groups, err := removeInstalled(groups)
		if err != nil {
			return nil, err
		}
		g, _ := json.Marshal(MatcherGroup{Hooks: []HookCommand{{Type: "command", Command: InstalledCommand(bin, agent, event), Timeout: timeoutSec}}})
		return append(groups, g), nil
	}, InstalledEvents)
}

// MergeInstallGroup adds group, hooksup's installed hook as another agent's settings spell it
// (Gemini CLI's AfterAgent), under event, replacing any earlier hooksup install there, keeping
// every other key and hook in its place. Running it twice gives the same result as once;
// MergeUninstall removes it.
func MergeInstallGroup(settings []byte, event string, group json.RawMessage) ([]byte, error) {
	return editHooks(settings, func(ev string, groups []json.RawMessage) ([]json.RawMessage, error) {
		if ev != event {
			return groups, nil
		}
		groups, err := removeInstalled(groups)
		if err != nil {
			return nil, err
		}
		return append(groups, group), nil
	}, []string{event})
}

// MergeUninstall removes hooksup's installed hooks and nothing else. Event lists it empties are
// removed, and so is "hooks" when nothing is left in it.
func MergeUninstall(settings []byte) ([]byte, error) {
	return editHooks(settings, func(_ string, groups []json.RawMessage) ([]json.RawMessage, error) {
		return removeInstalled(groups)
	}, nil)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// editHooks applies edit to each event's groups (and to each of ensure, created if missing).
func editHooks(settings []byte, edit func(string, []json.RawMessage) ([]json.RawMessage, error), ensure []string) ([]byte, error) {
	top, err := parseObject(settings)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotJSON, err)
	}
	var hooksObj object
	hadHooks := false
	if raw, ok := top.get("hooks"); ok && string(bytes.TrimSpace(raw)) != "null" {
		hadHooks = true
		if hooksObj, err = parseObject(raw); err != nil {
			return nil, fmt.Errorf("%w: \"hooks\" is not an object: %v", ErrNotJSON, err)
		}
		hooksObj = hooksObj.lastWins() // claude ignores an event's earlier duplicates
	}
	for _, ev := range ensure {
		if _, ok := hooksObj.get(ev); !ok {
			hooksObj = append(hooksObj, member{ev, json.RawMessage("[]")})
		}
	}
	var out object
	for _, m := range hooksObj {
		var groups []json.RawMessage
		if err := json.Unmarshal(m.val, &groups); err != nil {
			return nil, fmt.Errorf("%w: hooks.%s is not an array: %v", ErrNotJSON, m.key, err)
		}
		edited, err := edit(m.key, groups)
		if err != nil {
			return nil, err
		}
		switch {
		case sameGroups(groups, edited):
			out = append(out, m) // untouched: keep its bytes
		case len(edited) == 0:
			// emptied by this edit: drop the event
		default:
			arr, _ := json.Marshal(edited)
			out = append(out, member{m.key, arr})
		}
	}
	switch {
	case len(out) > 0 || (hadHooks && len(hooksObj) == 0):
		top.set("hooks", out.marshal())
	case hadHooks:
		top.del("hooks") // every event in it was ours
	}
	var b bytes.Buffer
	if err := json.Indent(&b, top.marshal(), "", "  "); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

func sameGroups(a, b []json.RawMessage) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// removeInstalled drops hooksup's installed commands from the groups, and groups left empty.
// It reads each group and hook as claude does: exact key names, the last of duplicated keys.
func removeInstalled(groups []json.RawMessage) ([]json.RawMessage, error) {
	out := groups[:0:0]
	for _, raw := range groups {
		g, err := parseObject(raw)
		hooksRaw, ok := g.get("hooks")
		var hs []json.RawMessage
		if err != nil || !ok || json.Unmarshal(hooksRaw, &hs) != nil {
			out = append(out, raw)
			continue
		}
		kept := hs[:0:0]
		for _, h := range hs {
			if !isInstalledHook(h) {
				kept = append(kept, h)
			}
		}
		switch {
		case len(kept) == len(hs):
			out = append(out, raw)
		case len(kept) > 0:
			arr, _ := json.Marshal(kept)
			g.set("hooks", arr)
			out = append(out, g.marshal())
		}
	}
	return out, nil
}

// isInstalledHook reports whether a hook's "command" was written by `hooksup install`, whatever
// else the hook holds (a timeout edited by hand, keys claude does not know).
func isInstalledHook(h json.RawMessage) bool {
	o, err := parseObject(h)
	if err != nil {
		return false
	}
	raw, ok := o.get("command")
	var cmd string
	return ok && json.Unmarshal(raw, &cmd) == nil && IsInstalledCommand(cmd)
}

// StripJSONComments blanks the // and /* */ comments of JSON outside its strings, as Gemini CLI
// and Qwen Code read their settings: a line comment becomes its newline, a block comment one
// space, and a block comment never closed ends the document. Nothing else changes (a trailing
// comma stays).
func StripJSONComments(b []byte) []byte {
	out := make([]byte, 0, len(b))
	inStr, esc := false, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inStr:
			out = append(out, c)
			if esc {
				esc = false
			} else if c == '\\' {
				esc = true
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
			out = append(out, c)
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				i++
			}
			if i < len(b) {
				out = append(out, '\n')
			}
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			end := bytes.Index(b[i+2:], []byte("*/"))
			if end < 0 {
				return out
			}
			i += 2 + end + 1
			out = append(out, ' ')
		default:
			out = append(out, c)
		}
	}
	return out
}

// EditSettingsFile applies edit to the settings file at path and writes the result atomically,
// keeping the file's mode. A missing file is created; a file that is not a JSON object is left
// byte for byte as it was, and the error names it.
func EditSettingsFile(path string, edit func([]byte) ([]byte, error)) (changed bool, err error) {
	// A settings file that is a link (a dotfiles repository) is edited where it points.
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return false, fmt.Errorf("read %s: %w", path, err)
	}
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	updated, err := edit(old)
	if err != nil {
		return false, fmt.Errorf("%s: %w (the file was not changed; fix it or move it away)", path, err)
	}
	if bytes.Equal(old, updated) {
		return false, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return false, fmt.Errorf("write %s: %w", path, err)
	}
	if err := atomicfile.Write(path, updated, mode); err != nil {
		return false, err
	}
	return true, nil
}
