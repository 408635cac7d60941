package hooks

import (
	"bufio"
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestWireRoundTrip(t *testing.T) {
	var b bytes.Buffer
	payload := []byte(`{"hook_event_name":"Stop","x":"a b\nc"}`)
	if err := WriteRequest(&b, Request{Token: "tok", Event: "Stop", Payload: payload}); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(&b)
	tok, ev, n, err := ReadRequestHeader(br)
	if err != nil || tok != "tok" || ev != "Stop" || n != len(payload) {
		t.Fatalf("header: %q %q %d %v", tok, ev, n, err)
	}
	p, err := ReadPayload(br, n)
	if err != nil || !bytes.Equal(p, payload) {
		t.Fatalf("payload: %q %v", p, err)
	}
	b.Reset()
	WriteResponse(&b, Response{Exit: 0, Stdout: []byte(`{"decision":"block","reason":"r"}` + "\n")})
	r, err := ReadResponse(bufio.NewReader(&b))
	if err != nil || r.Status != "ok" || string(r.Stdout) != `{"decision":"block","reason":"r"}`+"\n" {
		t.Fatalf("response: %+v %v", r, err)
	}
}

func TestWireRefusesOversizeWithoutReading(t *testing.T) {
	hdr := "HOOKSUP/1 tok Stop 999999999\n"
	br := bufio.NewReader(strings.NewReader(hdr))
	_, _, n, err := ReadRequestHeader(br)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ReadPayload(br, n); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
}

func TestWireRejectsGarbage(t *testing.T) {
	for _, in := range []string{"", "GET / HTTP/1.1\r\n", "HOOKSUP/1 a b\n", "HOOKSUP/1 a b -3\n", strings.Repeat("x", 2000) + "\n"} {
		if _, _, _, err := ReadRequestHeader(bufio.NewReader(strings.NewReader(in))); err == nil {
			t.Errorf("accepted %q", in)
		}
	}
	if err := WriteRequest(&bytes.Buffer{}, Request{Token: "a b", Event: "Stop"}); err == nil {
		t.Error("token with a space accepted")
	}
}
