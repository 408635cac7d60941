package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A session as an agent holds it: the handshake, the list of tools, a call that records its
// note, a notification answered with nothing, an unknown method refused.
func TestServe(t *testing.T) {
	log := filepath.Join(t.TempDir(), "probe.log")
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26"}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"probe","arguments":{"note":"hi"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"nope"}`,
	}, "\n") + "\n"
	var out bytes.Buffer
	if err := serve(strings.NewReader(in), &out, log); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"jsonrpc":"2.0","id":1,"result":{"capabilities":{"tools":{}},"protocolVersion":"2025-03-26","serverInfo":{"name":"mcpprobe","version":"1.0.0"}}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"tools":[{"description":"Records a note.","inputSchema":{"properties":{"note":{"description":"the note to record","type":"string"}},"required":["note"],"type":"object"},"name":"probe"}]}}`,
		`{"jsonrpc":"2.0","id":"c","result":{"content":[{"text":"PROBE-RAN hi","type":"text"}]}}`,
		`{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"method not found: nope"}}`,
	}
	if got := strings.Split(strings.TrimSpace(out.String()), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the answers:\n%s", out.String())
	}
	if b, err := os.ReadFile(log); err != nil || string(b) != "hi\n" {
		t.Fatalf("the note: %q %v", b, err)
	}
}
