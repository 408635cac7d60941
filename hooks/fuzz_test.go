package hooks

// Fuzz targets for everything in this package that reads bytes someone else wrote: claude's
// hook input, the answer codec, the wire protocol, the settings merge of `hooksup install` and
// the comments stripped from Gemini CLI's and Qwen Code's settings.
// `go test` runs them over their seeds and testdata/fuzz/; scripts/fuzz.sh runs them for long.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unicode/utf16"
)

// sampleInputs are the real hook inputs of testdata/hook-inputs.jsonl.
func sampleInputs(tb testing.TB) [][]byte {
	tb.Helper()
	data, err := os.ReadFile("testdata/hook-inputs.jsonl")
	if err != nil {
		tb.Fatal(err)
	}
	var out [][]byte
	for line := range bytes.Lines(data) {
		var s sample
		if err := json.Unmarshal(line, &s); err != nil {
			tb.Fatal(err)
		}
		out = append(out, s.Stdin)
	}
	return out
}

// caseFolds reports whether key is not one of Input's own names but encoding/json would still
// match it to one (it matches names case-insensitively). Claude sends only exact lower-case
// names, so such keys are outside what the round trip promises.
func caseFolds(key string) bool {
	if inputFields[key] {
		return false
	}
	for k := range inputFields {
		if strings.EqualFold(k, key) {
			return true
		}
	}
	return false
}

// FuzzInput: any bytes either fail to parse or round-trip: encoding the decoded input gives
// valid JSON that decodes to the same Input and encodes to the same bytes, and every field of the
// original object with a value (known to hooksup or not) is still there with that value.
func FuzzInput(f *testing.F) {
	for _, s := range sampleInputs(f) {
		f.Add(s)
	}
	f.Add([]byte(`{"hook_event_name":"Stop","stop_hook_active":true,"future_field":{"a":[1,2,{"b":null}]},"effort":{"level":"high"}}`))
	f.Add([]byte(`{"session_id":"s","duration_ms":9007199254740993,"tool_input":{"command":"ls"},"x":"\ud83e\udd16<&>"}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := ParseInput(data)
		if err != nil {
			return
		}
		out, err := json.Marshal(in)
		if err != nil {
			t.Fatalf("a parsed input does not encode: %v", err)
		}
		if !json.Valid(out) {
			t.Fatalf("encoded input is not valid JSON: %s", out)
		}
		in2, err := ParseInput(out)
		if err != nil {
			t.Fatalf("the encoded input does not parse: %v\n%s", err, out)
		}
		out2, err := json.Marshal(in2)
		if err != nil || !bytes.Equal(out, out2) {
			t.Fatalf("encoding is not stable (%v):\n%s\n%s", err, out, out2)
		}
		var orig, got map[string]any
		if json.Unmarshal(data, &orig) != nil {
			return // e.g. a duplicated key whose values have different types: Input took one
		}
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatal(err)
		}
		for k, v := range orig {
			if caseFolds(k) || isZero(v) {
				continue
			}
			if !reflect.DeepEqual(got[k], v) {
				t.Fatalf("field %q changed in the round trip: %#v → %#v\nin:  %s\nout: %s", k, v, got[k], data, out)
			}
		}
	})
}

// isZero: a value an omitempty field of Input legitimately drops (null, "").
func isZero(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case string:
		return v == ""
	}
	return false
}

// FuzzAnswer: whatever the strings, Encode gives what claude reads as the same verdict
// (DecodeAnswer), valid JSON, with every string under claude's 10,000 UTF-16 unit cap, and
// exit 0.
func FuzzAnswer(f *testing.F) {
	// repeat makes long strings (over the cap) without long corpus entries, which would slow
	// the fuzzer's minimisation to a crawl.
	f.Add(byte(0), uint16(0), "", "", "")
	f.Add(byte(1), uint16(0), "The check \"tests\" failed (exit 1).\n--- FAIL: TestX", "", "hooksup: lint failed")
	f.Add(byte(2), uint16(0), "", "Stopped by the person supervising this session.", "")
	f.Add(byte(1), uint16(6000), "🤖", "", "é")
	f.Add(byte(2), uint16(9999), "x", "\xff", "ab")
	f.Add(byte(3), uint16(3), "a<b && c>d \x00 \xff\xfe", "\u2028", "\"\\")
	f.Fuzz(func(t *testing.T, d byte, repeat uint16, reason, stopReason, system string) {
		long := func(s string) string { // up to ~48 KiB: past the cap, cheap to make
			return strings.Repeat(s, 1+int(repeat)%(1+48<<10/(len(s)+1)))
		}
		a := Answer{Decision: []Decision{Allow, Block, Halt, "bogus"}[d%4], Reason: long(reason),
			StopReason: long(stopReason), SystemMessage: long(system)}
		out, exit := a.Encode()
		if exit != 0 {
			t.Fatalf("exit %d", exit)
		}
		if len(out) > 0 {
			var w map[string]any
			if err := json.Unmarshal(out, &w); err != nil {
				t.Fatalf("not JSON: %v\n%q", err, out)
			}
			for k, v := range w {
				if s, ok := v.(string); ok && len(utf16.Encode([]rune(s))) > MaxOutputChars {
					t.Fatalf("%s has %d UTF-16 units, over claude's cap", k, len(utf16.Encode([]rune(s))))
				}
			}
		}
		if got, want := DecodeAnswer(out, exit, nil), claudeSees(a); got != want {
			t.Fatalf("round trip\n got %+v\nwant %+v", got, want)
		}
	})
}

// claudeSees is what claude makes of a's encoding: the fields the decision uses, cut to the cap,
// as valid UTF-8 (JSON turns each invalid byte into U+FFFD).
func claudeSees(a Answer) Answer {
	cut := func(s string) string { return string([]rune(Truncate(s, MaxOutputChars))) }
	w := Answer{Decision: Allow, SystemMessage: cut(a.SystemMessage)}
	switch a.Decision {
	case Block:
		w.Decision, w.Reason = Block, cut(a.Reason)
		if w.Reason == "" {
			w.Reason = "hooksup: continue"
		}
	case Halt:
		w.Decision, w.StopReason = Halt, cut(a.StopReason)
	}
	return w
}

// allocated runs fn and returns the bytes it allocated (all goroutines: run with -parallel 1).
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// allocSlack is what the readers may allocate beyond the payload: bufio's buffer, the header
// line and errors.
const allocSlack = 256 << 10

// FuzzWire: the readers never panic, never accept a length over the cap, never allocate more
// than the cap (a lying header costs at most MaxPayload), and what the writers write reads back
// the same.
func FuzzWire(f *testing.F) {
	f.Add([]byte("HOOKSUP/1 0123abcd Stop 2\n{}"), "tok", "Stop", []byte(`{"hook_event_name":"Stop"}`))
	f.Add([]byte("HOOKSUP/1 ok 0 33\n{\"decision\":\"block\",\"reason\":\"r\"}"), "-", "SubagentStop", []byte{})
	f.Add([]byte("HOOKSUP/1 tok Stop 999999999\n"), "", "Notification", []byte("x\ny z"))
	f.Add([]byte("HOOKSUP/1 size 0 8388609\n"), "a\rb", "Stop", []byte(nil))
	f.Add([]byte("HOOKSUP/1 tok Stop +12\n{\"a\":\"bcd\"}"), "t", "E", []byte("\x00"))
	f.Add([]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n"), "t", "Stop", []byte("{}"))
	f.Add([]byte(strings.Repeat("HOOKSUP/1 ", 100)), "t", "Stop", []byte("{}"))
	f.Fuzz(func(t *testing.T, data []byte, token, event string, payload []byte) {
		var n int
		var hdrErr error
		alloc := allocated(func() {
			br := bufio.NewReader(bytes.NewReader(data))
			var tok, ev string
			tok, ev, n, hdrErr = ReadRequestHeader(br)
			if hdrErr != nil {
				return
			}
			if n < 0 || strings.ContainsAny(tok+ev, " \n") || tok == "-" {
				t.Fatalf("header accepted as token %q event %q length %d", tok, ev, n)
			}
			p, err := ReadPayload(br, n)
			switch {
			case n > MaxPayload && !errors.Is(err, ErrTooLarge):
				t.Fatalf("length %d over the cap read: %v", n, err)
			case err == nil && len(p) != n:
				t.Fatalf("read %d bytes of %d", len(p), n)
			}
		})
		if alloc > MaxPayload+allocSlack {
			t.Fatalf("reading a request allocated %d bytes (header length %d)", alloc, n)
		}
		alloc = allocated(func() {
			r, err := ReadResponse(bufio.NewReader(bytes.NewReader(data)))
			if err == nil && (len(r.Stdout) > MaxPayload || strings.ContainsAny(r.Status, " \n")) {
				t.Fatalf("response accepted: status %q, %d bytes", r.Status, len(r.Stdout))
			}
		})
		if alloc > MaxPayload+allocSlack {
			t.Fatalf("reading a response allocated %d bytes", alloc)
		}

		// What WriteRequest writes, ReadRequestHeader and ReadPayload read back.
		var b bytes.Buffer
		if WriteRequest(&b, Request{Token: token, Event: event, Payload: payload}) == nil && len(payload) <= MaxPayload {
			hdrLen := bytes.IndexByte(b.Bytes(), '\n')
			br := bufio.NewReader(&b)
			tok, ev, n, err := ReadRequestHeader(br)
			wantTok := token
			if token == "-" {
				wantTok = "" // "-" is how the wire spells no token
			}
			switch {
			case hdrLen > maxHeader || strings.ContainsRune(token+event, '\r'):
				// too long for the reader, or a carriage return: refused, never misread
				if err == nil && (tok != wantTok || ev != event) {
					t.Fatalf("misread %q %q as %q %q", token, event, tok, ev)
				}
			case err != nil:
				t.Fatalf("own request refused: %v", err)
			case tok != wantTok || ev != event || n != len(payload):
				t.Fatalf("read back %q %q %d, wrote %q %q %d", tok, ev, n, token, event, len(payload))
			default:
				if p, err := ReadPayload(br, n); err != nil || !bytes.Equal(p, payload) {
					t.Fatalf("payload read back %q (%v)", p, err)
				}
			}
		}
		// And the same for responses, the status taken from the token.
		b.Reset()
		status := strings.TrimSpace(token)
		if status == "" || strings.ContainsAny(status, " \n\r") || len(status) > 100 {
			status = "ok"
		}
		want := Response{Status: status, Exit: len(event) - 3, Stdout: payload}
		if len(payload) <= MaxPayload && WriteResponse(&b, want) == nil {
			got, err := ReadResponse(bufio.NewReader(&b))
			if err != nil || got.Status != want.Status || got.Exit != want.Exit || !bytes.Equal(got.Stdout, want.Stdout) {
				t.Fatalf("response read back %+v (%v), wrote %+v", got, err, want)
			}
		}
	})
}

// FuzzMergeInstall: install and uninstall never panic; on any JSON object, installing gives
// valid JSON with exactly one hooksup Stop and SubagentStop hook as claude reads the file,
// installing again changes nothing, and uninstalling keeps every hook that is not hooksup's.
func FuzzMergeInstall(f *testing.F) {
	f.Add([]byte(userSettings))
	f.Add([]byte(""))
	f.Add([]byte("{}"))
	f.Add([]byte(`{"hooks":null}`))
	f.Add([]byte(`{"hooks":{}}`))
	f.Add([]byte(`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"/old/path/hooksup hook Stop --installed","timeout":60},{"type":"command","command":"mine.sh"}]}]}}`))
	f.Add([]byte(`{"hooks":{"Stop":[{"matcher":"","hooks":[{"type":"command","command":"'/a b/hooksup' hook Stop --installed"}]}],"SubagentStop":[]}}`))
	f.Add([]byte(`{"hooks":{"Stop":[1,"x",null,{"hooks":"no"},{"hooks":[7]}]}}`))
	f.Add([]byte(`{"a":1,"hooks":{"Stop":[]},"hooks":{"PreToolUse":[{"hooks":[{"command":"x"}]}]}}`))
	f.Add([]byte(`[1,2]`))
	f.Add([]byte(`{"hooks":{"Stop":[{"hooks":[{"type":"command","Command":"/old/hooksup hook Stop --installed"}]},{"Hooks":[{"command":"/old/hooksup hook Stop --installed"}]}]}}`))
	f.Add([]byte(`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"/old/hooksup hook Stop --installed","timeout":"600"}]}]}}`))
	f.Add([]byte(`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x"}]}]}} trailing`))
	f.Fuzz(func(t *testing.T, settings []byte) {
		const bin = "/usr/local/bin/hooksup"
		_, _ = MergeUninstall(settings)
		once, err := MergeInstall(settings, bin, "", 600)
		if err != nil {
			if err2 := checkNotObject(settings); err2 == nil {
				t.Fatalf("install refused a JSON object: %v\n%s", err, settings)
			}
			return
		}
		before, ok := hooksOf(settings)
		if !ok {
			t.Fatalf("install accepted what claude cannot read as settings:\n%q\n→\n%s", settings, once)
		}
		if !json.Valid(once) {
			t.Fatalf("install wrote invalid JSON:\n%s", once)
		}
		after, ok := hooksOf(once)
		if !ok {
			t.Fatalf("install wrote settings claude cannot read:\n%s", once)
		}
		for _, ev := range InstalledEvents {
			if n := after.installed[ev]; n != 1 {
				t.Fatalf("%d hooksup %s hooks after install:\n%s", n, ev, once)
			}
		}
		if !reflect.DeepEqual(before.others, after.others) {
			t.Fatalf("install changed other hooks\nbefore %v\nafter  %v\n%s", before.others, after.others, once)
		}
		twice, err := MergeInstall(once, bin, "", 600)
		if err != nil || !bytes.Equal(once, twice) {
			t.Fatalf("a second install changed the file (%v):\n%s\n---\n%s", err, once, twice)
		}
		un, err := MergeUninstall(once)
		if err != nil {
			t.Fatalf("uninstall refused what install wrote: %v", err)
		}
		left, ok := hooksOf(un)
		if !ok || !json.Valid(un) {
			t.Fatalf("uninstall wrote settings claude cannot read:\n%s", un)
		}
		if len(left.installed) != 0 || !reflect.DeepEqual(before.others, left.others) {
			t.Fatalf("uninstall(install(x)) did not give back x's own hooks\nbefore %v\nafter  %v (hooksup's: %v)\n%s", before.others, left.others, left.installed, un)
		}
		if !reflect.DeepEqual(before.rest, left.rest) {
			t.Fatalf("install+uninstall changed other keys\nbefore %v\nafter  %v", before.rest, left.rest)
		}
	})
}

// checkNotObject is nil when data is what a settings file may hold: empty, or one JSON object.
func checkNotObject(data []byte) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	if m == nil {
		return errors.New("null")
	}
	if raw, ok := lastValue(data, "hooks"); ok && string(raw) != "null" {
		var hm map[string]json.RawMessage
		if err := json.Unmarshal(raw, &hm); err != nil {
			return err
		}
		for _, v := range hm {
			var arr []json.RawMessage
			if err := json.Unmarshal(v, &arr); err != nil {
				return err
			}
		}
	}
	return nil
}

// lastValue is the value of key in the object data as JavaScript's JSON.parse keeps it (the
// last of duplicated keys).
func lastValue(data []byte, key string) (json.RawMessage, bool) {
	o, err := parseObject(data)
	if err != nil {
		return nil, false
	}
	var v json.RawMessage
	found := false
	for _, m := range o {
		if m.key == key {
			v, found = m.val, true
		}
	}
	return v, found
}

// settingsView is what claude sees in a settings document: hooksup's installed commands per
// event, every other hook (event, matcher group without its hooks, the hook) in order, and the
// keys other than "hooks".
type settingsView struct {
	installed map[string]int
	others    []string
	rest      map[string]string
}

// hooksOf reads data as claude does (JSON.parse: the last of duplicated keys wins, names are
// case-sensitive). ok is false when data is not a settings object.
func hooksOf(data []byte) (settingsView, bool) {
	v := settingsView{installed: map[string]int{}, rest: map[string]string{}}
	if len(bytes.TrimSpace(data)) == 0 {
		return v, true
	}
	top, err := parseObject(data)
	if err != nil {
		return v, false
	}
	last := map[string]json.RawMessage{}
	var order []string
	for _, m := range top {
		if _, seen := last[m.key]; !seen {
			order = append(order, m.key)
		}
		last[m.key] = m.val
	}
	for _, k := range order {
		if k != "hooks" {
			v.rest[k] = canonical(last[k])
		}
	}
	raw, ok := last["hooks"]
	if !ok || string(bytes.TrimSpace(raw)) == "null" {
		return v, true
	}
	hooksObj, err := parseObject(raw)
	if err != nil {
		return v, false
	}
	events := map[string]json.RawMessage{}
	var evOrder []string
	for _, m := range hooksObj {
		if _, seen := events[m.key]; !seen {
			evOrder = append(evOrder, m.key)
		}
		events[m.key] = m.val
	}
	for _, ev := range evOrder {
		var groups []json.RawMessage
		if json.Unmarshal(events[ev], &groups) != nil {
			return v, false
		}
		for _, g := range groups {
			gobj, err := parseObject(g)
			if err != nil || bytes.HasPrefix(bytes.TrimSpace(g), []byte("null")) {
				v.others = append(v.others, ev+" "+canonical(g))
				continue
			}
			var hooksRaw json.RawMessage
			hasHooks := false
			var shell []string
			for _, m := range gobj {
				if m.key == "hooks" {
					hooksRaw, hasHooks = m.val, true
				}
			}
			for _, m := range gobj {
				if m.key != "hooks" {
					shell = append(shell, m.key+"="+canonical(m.val))
				}
			}
			var hs []json.RawMessage
			if !hasHooks || json.Unmarshal(hooksRaw, &hs) != nil {
				v.others = append(v.others, ev+" "+canonical(g))
				continue
			}
			for _, h := range hs {
				if installedInView(h) {
					v.installed[ev]++
					continue
				}
				v.others = append(v.others, ev+" "+strings.Join(shell, ",")+" "+canonical(h))
			}
		}
	}
	return v, true
}

// installedInView: a hook object whose "command" (exactly that key, the last one) is hooksup's.
func installedInView(h json.RawMessage) bool {
	raw, ok := lastValue(h, "command")
	if !ok {
		return false
	}
	var cmd string
	return json.Unmarshal(raw, &cmd) == nil && IsInstalledCommand(cmd)
}

func canonical(raw json.RawMessage) string {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return string(raw)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// FuzzStripJSONComments: JSON without comments comes back as it was; what comes back has no
// comment left to strip, and is never longer.
func FuzzStripJSONComments(f *testing.F) {
	for _, s := range []string{`{"a": 1} // x`, "{/* a */\"b\": \"//\"}", `{"q": "\" /*"} /* x */`, `"\\" //`, `/*/ */`, "{\"a\": [1, 2,]}\n// end"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		out := StripJSONComments(b)
		if json.Valid(b) && !bytes.Equal(out, b) {
			t.Fatalf("valid JSON %q changed to %q", b, out)
		}
		if again := StripJSONComments(out); !bytes.Equal(again, out) {
			t.Fatalf("%q stripped to %q, which strips further to %q", b, out, again)
		}
		if len(out) > len(b) {
			t.Fatalf("%q grew to %q", b, out)
		}
	})
}
