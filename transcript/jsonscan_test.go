package transcript

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	for _, raw := range []string{
		`""`, `"plain"`, `"café — 🤖"`, `"a\"b\\c\/d"`, `"\b\f\n\r\t"`, `"\u00e9\u20ac"`,
		`"\ud83e\udd16"`, `"\ud800"`, `"\ud800x"`, `"\udc00\ud800"`, `"\ud800\u0041"`,
		"\"\xff\xfe bad utf8 \xc3\"", `"trailing \\"`,
	} {
		var want string
		if err := json.Unmarshal([]byte(raw), &want); err != nil {
			t.Fatalf("reference rejects %s: %v", raw, err)
		}
		got, truncated, ok := appendString(nil, []byte(raw), 0)
		if !ok || truncated || string(got) != want {
			t.Errorf("appendString(%s) = %q, %v, %v; want %q", raw, got, truncated, ok, want)
		}
	}
	for _, bad := range []string{`"\x"`, `"\u12"`, `"\`, `abc`, `"`} {
		if _, _, ok := appendString(nil, []byte(bad), 0); ok {
			t.Errorf("appendString(%s) accepted a bad string", bad)
		}
	}
}

func TestAppendStringCutsOnRuneBoundary(t *testing.T) {
	for _, raw := range []string{`"` + strings.Repeat("é", 10) + `"`, `"\n` + strings.Repeat("é", 10) + `"`} {
		for max := 1; max < 22; max++ {
			got, _, ok := appendString(nil, []byte(raw), max)
			if !ok || !utf8.Valid(got) || len(got) > max+3 {
				t.Errorf("appendString(%s, %d) = %q", raw, max, got)
			}
		}
	}
}

func TestMembers(t *testing.T) {
	raw := []byte(` { "a" : [1, {"x":"}]"}], "b":"s\"}" ,"c":{"d":null},"e":-1.5e3,"f":true } `)
	m, ok := object(raw)
	if !ok {
		t.Fatal("not an object")
	}
	var got []string
	for {
		k, v, ok := m.next()
		if !ok {
			break
		}
		got = append(got, string(k)+"="+string(v))
	}
	want := []string{`a=[1, {"x":"}]"}]`, `b="s\"}"`, `c={"d":null}`, `e=-1.5e3`, `f=true`}
	if m.err || strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("members = %q (err %v), want %q", got, m.err, want)
	}
	for _, bad := range []string{`{"a":1,}`, `{"a" 1}`, `{"a":1 "b":2}`, `{"a":`, `{"a":[1,2}`, `{1:2}`} {
		m, _ := object([]byte(bad))
		for {
			if _, _, ok := m.next(); !ok {
				break
			}
		}
		if !m.err {
			t.Errorf("object(%s) iterated without error", bad)
		}
	}
}

func TestIntValue(t *testing.T) {
	for raw, want := range map[string]int64{"0": 0, "42": 42, "-7": -7, "1.9": 1, "1e3": 1000,
		"9223372036854775807": 9223372036854775807, "123456789012345678": 123456789012345678} {
		if got, ok := intValue([]byte(raw)); !ok || got != want {
			t.Errorf("intValue(%s) = %d, %v; want %d", raw, got, ok, want)
		}
	}
	for _, bad := range []string{"", "-", "x", `"1"`, "null"} {
		if _, ok := intValue([]byte(bad)); ok {
			t.Errorf("intValue(%s) accepted", bad)
		}
	}
}
