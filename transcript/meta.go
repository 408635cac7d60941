package transcript

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// agentMeta is the part of agent-<id>.meta.json that hooksup reads.
type agentMeta struct {
	AgentType   string `json:"agentType"`
	Description string `json:"description"`
	Finished    bool   `json:"finished"`
}

// readAgentMeta reads a subagent's .meta.json.
func readAgentMeta(path string) (agentMeta, error) {
	var m agentMeta
	b, err := os.ReadFile(path)
	if err != nil {
		return m, fmt.Errorf("transcript: read agent meta: %w", err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("transcript: decode agent meta %s: %w", path, err)
	}
	return m, nil
}

// Layout of a session's files: <dir>/<session_id>.jsonl, and for each subagent
// <dir>/<session_id>/subagents/agent-<agent_id>.jsonl plus agent-<agent_id>.meta.json.
const (
	agentPrefix = "agent-"
	jsonlExt    = ".jsonl"
	metaExt     = ".meta.json"
)

// SubagentDir returns the directory holding the subagent transcripts of the session whose
// transcript is at path.
func SubagentDir(path string) string {
	return filepath.Join(strings.TrimSuffix(path, jsonlExt), "subagents")
}

// agentFile parses a file name in the subagents directory: the agent id, and whether it is the
// .meta.json (else the transcript). ok is false for other names.
func agentFile(name string) (id string, meta, ok bool) {
	if !strings.HasPrefix(name, agentPrefix) {
		return "", false, false
	}
	rest := name[len(agentPrefix):]
	switch {
	case strings.HasSuffix(rest, metaExt):
		id, meta = strings.TrimSuffix(rest, metaExt), true
	case strings.HasSuffix(rest, jsonlExt):
		id = strings.TrimSuffix(rest, jsonlExt)
	}
	return id, meta, id != ""
}
