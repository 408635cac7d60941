package mockapi

import (
	"encoding/json"
	"strings"
)

// RequestClassHeader is the header Claude Code sends with every messages
// request when CLAUDE_CODE_GATEWAY_HINT_HEADERS=1 (NewEnv sets it): "main",
// "subagent", "workflow", "compaction", "auxiliary" or "side_reply".
const RequestClassHeader = "X-Claude-Code-Request-Class"

// compactPrompt starts the last user message of /compact requests, which
// otherwise look like main-agent requests (same system prompt and tools).
const compactPrompt = "CRITICAL: Respond with TEXT ONLY. Do NOT call any tools."

// Classify decides the Kind of a parsed POST /v1/messages request and, for
// KindSide, gives a short reason. See the package comment.
func Classify(r *Request) (kind Kind, sideReason string) {
	switch class := r.Header.Get(RequestClassHeader); class {
	case "main":
		return KindMain, ""
	case "subagent", "workflow":
		return KindSubagent, ""
	case "":
		// Fall back on the shape of the request below.
	default: // compaction, auxiliary, side_reply and anything new
		return KindSide, class
	}
	if len(r.Tools) == 0 {
		return KindSide, "no tools"
	}
	if m, ok := r.LastUser(); ok && strings.HasPrefix(m.Text(), compactPrompt) {
		return KindSide, "compaction"
	}
	if r.outputFormat() != nil {
		return KindSide, "structured output"
	}
	if !strings.Contains(r.Header.Get("Anthropic-Beta"), "claude-code-") {
		return KindSide, "no claude-code beta"
	}
	if r.IsSubagent() {
		return KindSubagent, ""
	}
	return KindMain, ""
}

// outputFormat returns output_config.format of the request (the JSON
// schema Claude Code asks side requests to follow), or nil.
func (r *Request) outputFormat() map[string]any {
	var w struct {
		OutputConfig struct {
			Format map[string]any `json:"format"`
		} `json:"output_config"`
	}
	if json.Unmarshal(r.Body, &w) != nil {
		return nil
	}
	return w.OutputConfig.Format
}

// DefaultSideReply is the harmless answer to side requests: when the
// request asks for structured output (output_config.format json_schema, as
// session-title generation does) a JSON object that fits the schema, with
// "Mock" strings ({"title":"Mock title"}); for compaction a short summary;
// otherwise a short text.
func DefaultSideReply(r *Request) Reply {
	if f := r.outputFormat(); f != nil {
		if schema, ok := f["schema"].(map[string]any); ok {
			if b, err := json.Marshal(sample(schema, "")); err == nil {
				return Text(string(b))
			}
		}
	}
	if r.SideReason == "compaction" {
		return Text("<summary>Mock summary of the conversation so far.</summary>")
	}
	return Text("Mock side reply.")
}

// sample makes a value that satisfies a (simple) JSON schema.
func sample(schema map[string]any, name string) any {
	if enum, ok := schema["enum"].([]any); ok && len(enum) > 0 {
		return enum[0]
	}
	if c, ok := schema["const"]; ok {
		return c
	}
	typ, _ := schema["type"].(string)
	if typs, ok := schema["type"].([]any); ok && len(typs) > 0 {
		typ, _ = typs[0].(string)
	}
	switch typ {
	case "object":
		out := map[string]any{}
		props, _ := schema["properties"].(map[string]any)
		for k, v := range props {
			if ps, ok := v.(map[string]any); ok {
				out[k] = sample(ps, k)
			}
		}
		return out
	case "array":
		return []any{}
	case "boolean":
		return false
	case "integer", "number":
		return 0
	case "null":
		return nil
	default:
		if name == "" {
			return "Mock"
		}
		return "Mock " + name
	}
}
