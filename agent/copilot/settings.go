package copilot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/hooksup/hooksup/hooks"
)

// installedEvent is the hook install registers, by Copilot's name.
const installedEvent = "agentStop"

// ErrNotObject refuses a settings.json that is not a JSON object, or whose "hooks" or
// "hooks.agentStop" is not what Copilot reads there.
var ErrNotObject = errors.New("not a JSON object with an object \"hooks\" of arrays")

// Where install put its hook: in the person's agentStop list, in an agentStop it made, in a
// "hooks" it made. The entry says which in the order of its keys (Copilot reads them in any),
// so that uninstall takes out exactly what install inserted, and an empty list or "hooks" of
// the person's stays.
const (
	inList = iota
	inEvent
	inHooks
)

// installedEntry is hooksup's installed stop hook as Copilot's settings spell it, its keys in
// the order that says where it is (at).
func installedEntry(command string, timeoutSec int64, at int) []byte {
	var c bytes.Buffer
	enc := json.NewEncoder(&c)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(command)
	bash, t := `"bash":`+string(bytes.TrimSpace(c.Bytes())), fmt.Sprintf(`"timeoutSec":%d`, timeoutSec)
	switch at {
	case inEvent:
		return []byte(`{"type":"command",` + t + "," + bash + "}")
	case inHooks:
		return []byte("{" + t + `,"type":"command",` + bash + "}")
	}
	return []byte(`{"type":"command",` + bash + "," + t + "}")
}

// entryAt is where an installed entry says install put it.
func entryAt(entry []byte) int {
	switch {
	case bytes.HasPrefix(entry, []byte(`{"timeoutSec":`)):
		return inHooks
	case bytes.HasPrefix(entry, []byte(`{"type":"command","timeoutSec":`)):
		return inEvent
	}
	return inList
}

// InstallSettings adds hooksup's stop hook, command with its timeout, to the agentStop hooks of
// the person's settings.json (the document; empty when there is none), after an earlier install
// of hooksup's is taken out. It inserts text and changes no other byte: after the last hook of
// agentStop, else as the last member of "hooks", else as the last member of the document.
// UninstallSettings takes out exactly what it inserted, so that the file is again byte for
// byte what it was; a file it made is removed (nil).
func InstallSettings(settings []byte, command string, timeoutSec int64) ([]byte, error) {
	settings, err := UninstallSettings(settings)
	if err != nil {
		return nil, err
	}
	whole := func(at int) string {
		return `"hooks": {"` + installedEvent + `": [` + string(installedEntry(command, timeoutSec, at)) + "]}"
	}
	if len(bytes.TrimSpace(settings)) == 0 {
		return []byte("{" + whole(inHooks) + "}\n"), nil
	}
	top, err := parseContainer(settings, 0)
	if err != nil {
		return nil, err
	}
	if top.open != '{' {
		return nil, ErrNotObject
	}
	hs, ok := top.member("hooks")
	if !ok {
		return top.insert(settings, []byte(whole(inHooks))), nil
	}
	ho, err := parseContainer(settings, hs.valStart)
	if err != nil || ho.open != '{' {
		return nil, fmt.Errorf("%w: \"hooks\"", ErrNotObject)
	}
	ev, ok := ho.member(installedEvent)
	if !ok {
		return ho.insert(settings, []byte(`"`+installedEvent+`": [`+string(installedEntry(command, timeoutSec, inEvent))+`]`)), nil
	}
	arr, err := parseContainer(settings, ev.valStart)
	if err != nil || arr.open != '[' {
		return nil, fmt.Errorf("%w: \"hooks\".%q", ErrNotObject, installedEvent)
	}
	return arr.insert(settings, installedEntry(command, timeoutSec, inList)), nil
}

// UninstallSettings takes hooksup's installed hooks out of the agentStop hooks of a
// settings.json, with what InstallSettings made around them: the "agentStop" or "hooks" it
// added, the file (nil) when that is all there is. A document without them is returned as it is.
func UninstallSettings(settings []byte) ([]byte, error) {
	if len(bytes.TrimSpace(settings)) == 0 {
		return settings, nil
	}
	for {
		top, err := parseContainer(settings, 0)
		if err != nil {
			return nil, err
		}
		if top.open != '{' {
			return nil, ErrNotObject
		}
		hs, ok := top.member("hooks")
		if !ok {
			return settings, nil
		}
		ho, err := parseContainer(settings, hs.valStart)
		if err != nil || ho.open != '{' {
			return settings, nil // not Copilot's hooks: nothing of hooksup's in it
		}
		ev, ok := ho.member(installedEvent)
		if !ok {
			return settings, nil
		}
		arr, err := parseContainer(settings, ev.valStart)
		if err != nil || arr.open != '[' {
			return settings, nil
		}
		i := arr.index(isInstalled)
		if i < 0 {
			return settings, nil
		}
		entry := settings[arr.items[i].valStart:arr.items[i].valEnd]
		switch at := entryAt(entry); {
		case at == inHooks && len(ho.items) == 1 && len(arr.items) == 1:
			if len(top.items) == 1 && bytes.Equal(settings, []byte(`{"hooks": {"`+installedEvent+`": [`+string(entry)+"]}}\n")) {
				return nil, nil // the file install made: nothing left
			}
			settings = top.remove(settings, top.indexOf(hs))
		case at != inList && len(arr.items) == 1:
			settings = ho.remove(settings, ho.indexOf(ev))
		default:
			settings = arr.remove(settings, i)
		}
	}
}

// isInstalled reports a hook entry (Copilot's bash or command) written by hooksup install.
func isInstalled(v []byte) bool {
	var h struct {
		Bash    string `json:"bash"`
		Command string `json:"command"`
	}
	if json.Unmarshal(v, &h) != nil {
		return false
	}
	return hooks.IsInstalledCommand(h.Bash) || hooks.IsInstalledCommand(h.Command)
}

// item is a member of an object or an element of an array, by its bytes' offsets: keyStart
// is valStart for an element.
type item struct {
	key                        string
	keyStart, valStart, valEnd int
}

// container is a JSON object or array of a document: where it opens and closes and its items.
type container struct {
	open        byte
	start, end  int // the offsets of its brackets
	items       []item
	lastWinsKey map[string]int
	doc         []byte
}

// member is the object's member named k (the last, as JSON.parse keeps it).
func (c container) member(k string) (item, bool) {
	i, ok := c.lastWinsKey[k]
	if !ok {
		return item{}, false
	}
	return c.items[i], true
}

func (c container) indexOf(it item) int {
	for i, x := range c.items {
		if x == it {
			return i
		}
	}
	return -1
}

// index is the first element whose value f accepts (-1: none), over the document the container
// was parsed from (set by parseContainer).
func (c container) index(f func([]byte) bool) int {
	for i, it := range c.items {
		if f(c.doc[it.valStart:it.valEnd]) {
			return i
		}
	}
	return -1
}

// insert adds text as the container's last item: after the last item with ", " before it, or
// right after the opening bracket of an empty one.
func (c container) insert(doc, text []byte) []byte {
	at, pre := c.start+1, ""
	if n := len(c.items); n > 0 {
		at, pre = c.items[n-1].valEnd, ", "
	}
	out := make([]byte, 0, len(doc)+len(pre)+len(text))
	out = append(out, doc[:at]...)
	out = append(out, pre...)
	out = append(out, text...)
	return append(out, doc[at:]...)
}

// remove takes item i out, with the separator insert put before it: from the end of the item
// before it; the first item goes with what separates it from the next.
func (c container) remove(doc []byte, i int) []byte {
	from, to := c.items[i].keyStart, c.items[i].valEnd
	switch {
	case i > 0:
		from = c.items[i-1].valEnd
	case len(c.items) > 1:
		to = c.items[1].keyStart
	}
	return append(append([]byte(nil), doc[:from]...), doc[to:]...)
}

// parseContainer reads the object or array whose value starts at the first non-space byte at
// or after off in doc, which must be valid JSON.
func parseContainer(doc []byte, off int) (container, error) {
	if !json.Valid(doc) {
		return container{}, ErrNotObject
	}
	i := skipSpace(doc, off)
	if i >= len(doc) || (doc[i] != '{' && doc[i] != '[') {
		return container{}, ErrNotObject
	}
	c := container{open: doc[i], start: i, lastWinsKey: map[string]int{}, doc: doc}
	closer := byte('}')
	if c.open == '[' {
		closer = ']'
	}
	i = skipSpace(doc, i+1)
	for doc[i] != closer {
		it := item{keyStart: i}
		if c.open == '{' {
			end := skipValue(doc, i)
			_ = json.Unmarshal(doc[i:end], &it.key)
			i = skipSpace(doc, end)
			i = skipSpace(doc, i+1) // ':'
		}
		it.valStart = i
		it.valEnd = skipValue(doc, i)
		if c.open == '{' {
			c.lastWinsKey[it.key] = len(c.items)
		}
		c.items = append(c.items, it)
		i = skipSpace(doc, it.valEnd)
		if doc[i] == ',' {
			i = skipSpace(doc, i+1)
		}
	}
	c.end = i
	return c, nil
}

func skipSpace(doc []byte, i int) int {
	for i < len(doc) && (doc[i] == ' ' || doc[i] == '\t' || doc[i] == '\n' || doc[i] == '\r') {
		i++
	}
	return i
}

// skipValue is the offset after the JSON value that starts at i.
func skipValue(doc []byte, i int) int {
	switch doc[i] {
	case '"':
		for j := i + 1; j < len(doc); j++ {
			switch doc[j] {
			case '\\':
				j++
			case '"':
				return j + 1
			}
		}
		return len(doc)
	case '{', '[':
		depth := 0
		for j := i; j < len(doc); j++ {
			switch doc[j] {
			case '"':
				j = skipValue(doc, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(doc)
	}
	j := i
	for j < len(doc) && bytes.IndexByte([]byte(" \t\r\n,]}"), doc[j]) < 0 {
		j++
	}
	return j
}
