package hooks

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// The bytes claude reads, exactly.
func TestEncodeIsWhatClaudeReads(t *testing.T) {
	for _, tc := range []struct {
		name string
		a    Answer
		want string
	}{
		{"allow prints nothing", Answer{Decision: Allow}, ""},
		{"block", Answer{Decision: Block, Reason: "tests fail"}, `{"decision":"block","reason":"tests fail"}` + "\n"},
		{"block keeps <>&", Answer{Decision: Block, Reason: "a<b && c>d"}, `{"decision":"block","reason":"a<b && c>d"}` + "\n"},
		{"halt", Answer{Decision: Halt, StopReason: "enough"}, `{"continue":false,"stopReason":"enough"}` + "\n"},
		{"allow with warning", Answer{Decision: Allow, SystemMessage: "lint failed"}, `{"systemMessage":"lint failed"}` + "\n"},
		{"block with empty reason still says why", Answer{Decision: Block}, `{"decision":"block","reason":"hooksup: continue"}` + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, exit := tc.a.Encode()
			if exit != 0 {
				t.Errorf("exit %d, want 0", exit)
			}
			if string(out) != tc.want {
				t.Errorf("got %q, want %q", out, tc.want)
			}
		})
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	for _, a := range []Answer{
		{Decision: Allow},
		{Decision: Allow, SystemMessage: "w"},
		{Decision: Block, Reason: "r\nmore"},
		{Decision: Halt, StopReason: "s"},
		{Decision: Block, Reason: "r", SystemMessage: "w"},
	} {
		out, exit := a.Encode()
		if got := DecodeAnswer(out, exit, nil); got != a {
			t.Errorf("%+v → %q → %+v", a, out, got)
		}
	}
}

// DecodeAnswer follows claude: continue:false beats block; exit 2 blocks with stderr; any other
// non-zero exit lets it stop; non-JSON output lets it stop.
func TestDecodeLikeClaude(t *testing.T) {
	if a := DecodeAnswer([]byte(`{"continue":false,"stopReason":"x","decision":"block","reason":"y"}`), 0, nil); a.Decision != Halt {
		t.Errorf("continue:false did not win: %+v", a)
	}
	if a := DecodeAnswer(nil, 2, []byte("why")); a.Decision != Block || a.Reason != "why" {
		t.Errorf("exit 2: %+v", a)
	}
	if a := DecodeAnswer([]byte(`{"decision":"block","reason":"y"}`), 1, nil); a.Decision != Allow {
		t.Errorf("exit 1 with block JSON: %+v", a)
	}
	if a := DecodeAnswer([]byte("hello"), 0, nil); a.Decision != Allow {
		t.Errorf("non-JSON: %+v", a)
	}
}

func TestReasonIsCappedForClaude(t *testing.T) {
	long := strings.Repeat("x", 4000) + strings.Repeat("é", 4000) + strings.Repeat("😀", 4000) + "THE END"
	a := Answer{Decision: Block, Reason: long}
	out, _ := a.Encode()
	got := DecodeAnswer(out, 0, nil).Reason
	if n := utf16Len(got); n > MaxOutputChars {
		t.Fatalf("reason is %d UTF-16 units, cap %d", n, MaxOutputChars)
	}
	if !strings.HasSuffix(got, "THE END") || !strings.HasPrefix(got, "xxx") {
		t.Fatalf("kept neither the start nor the end: %q…%q", got[:10], got[len(got)-10:])
	}
	if !utf8.ValidString(got) {
		t.Fatal("cut inside a character")
	}
	if Truncate("short", 10) != "short" {
		t.Fatal("short strings must pass unchanged")
	}
}
