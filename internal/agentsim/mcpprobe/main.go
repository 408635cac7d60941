// Command mcpprobe is a Model Context Protocol server over stdio for the end-to-end tests: one
// tool, probe, which appends its note to a file and answers "PROBE-RAN note", so that a test
// sees whether an agent ran the call it asked the person about. JSON-RPC 2.0, a message a line,
// on stdin and stdout. The file is -log's, else $MCPPROBE_LOG's; with neither a call fails.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
)

// EnvLog names the file the probe's calls append their notes to, where -log does not.
const EnvLog = "MCPPROBE_LOG"

// ToolName is the one tool the server lists.
const ToolName = "probe"

func main() {
	log := flag.String("log", os.Getenv(EnvLog), "the file each call's note is appended to")
	flag.Parse()
	if err := serve(os.Stdin, os.Stdout, *log); err != nil {
		fmt.Fprintln(os.Stderr, "mcpprobe:", err)
		os.Exit(1)
	}
}

type request struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// serve answers the requests read from in on out until in ends.
func serve(in io.Reader, out io.Writer, log string) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 8<<20)
	enc := json.NewEncoder(out)
	for sc.Scan() {
		var req request
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			if err := enc.Encode(response{JSONRPC: "2.0", ID: json.RawMessage("null"), Error: &rpcError{-32700, "parse error"}}); err != nil {
				return err
			}
			continue
		}
		if len(req.ID) == 0 {
			continue // a notification: notifications/initialized, cancelled
		}
		result, rerr := answer(req, log)
		if err := enc.Encode(response{JSONRPC: "2.0", ID: req.ID, Result: result, Error: rerr}); err != nil {
			return err
		}
	}
	return sc.Err()
}

// answer is a request's result, or its error.
func answer(req request, log string) (any, *rpcError) {
	switch req.Method {
	case "initialize":
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		_ = json.Unmarshal(req.Params, &p)
		if p.ProtocolVersion == "" {
			p.ProtocolVersion = "2025-06-18"
		}
		return map[string]any{
			"protocolVersion": p.ProtocolVersion,
			"capabilities":    map[string]any{"tools": map[string]any{}},
			"serverInfo":      map[string]any{"name": "mcpprobe", "version": "1.0.0"},
		}, nil
	case "ping":
		return map[string]any{}, nil
	case "tools/list":
		return map[string]any{"tools": []any{map[string]any{
			"name":        ToolName,
			"description": "Records a note.",
			"inputSchema": map[string]any{
				"type":       "object",
				"properties": map[string]any{"note": map[string]any{"type": "string", "description": "the note to record"}},
				"required":   []string{"note"},
			},
		}}}, nil
	case "resources/list":
		return map[string]any{"resources": []any{}}, nil
	case "resources/templates/list":
		return map[string]any{"resourceTemplates": []any{}}, nil
	case "prompts/list":
		return map[string]any{"prompts": []any{}}, nil
	case "tools/call":
		var p struct {
			Name      string `json:"name"`
			Arguments struct {
				Note string `json:"note"`
			} `json:"arguments"`
		}
		if err := json.Unmarshal(req.Params, &p); err != nil || p.Name != ToolName {
			return nil, &rpcError{-32602, "unknown tool"}
		}
		if err := record(log, p.Arguments.Note); err != nil {
			return map[string]any{"isError": true, "content": []any{map[string]any{"type": "text", "text": err.Error()}}}, nil
		}
		return map[string]any{"content": []any{map[string]any{"type": "text", "text": "PROBE-RAN " + p.Arguments.Note}}}, nil
	}
	return nil, &rpcError{-32601, "method not found: " + req.Method}
}

// record appends note and a newline to the file log.
func record(log, note string) error {
	if log == "" {
		return fmt.Errorf("no file to record the note in (-log, $%s)", EnvLog)
	}
	f, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintln(f, note); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
