// Package agentsim is an agent that behaves like Claude Code 2.1.330 at the hook boundary, for
// fast tests and for `hooksup demo`: it reads --settings (a file or inline JSON), runs the
// configured command hooks with the exact stdin JSON claude sends, honours their exit codes and
// JSON answers, keeps going on a block with stop_hook_active set, overrides the ninth
// consecutive block as claude does, and writes a transcript.
//
// It does not talk to any model: a Scenario says what it does.
package agentsim

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hooksup/hooksup/agent/claude"
)

// BlockCap is claude's own limit: after this many consecutive blocks the next is overridden.
const BlockCap = claude.DefaultBlockCap

// Scenario is what the simulated agent does.
type Scenario struct {
	Prompts   []string `json:"prompts"`   // one turn each (-p adds one)
	Subagents int      `json:"subagents"` // subagents run in each turn before the main stop
	AgentType string   `json:"agent_type"`
	ExitCode  int      `json:"exit_code"`
	// WorkDelay is how long each step "works" (default none).
	WorkDelay Duration `json:"work_delay"`
	// Permission makes each turn ask for permission once (PermissionRequest + Notification).
	Permission bool `json:"permission"`
	// PermissionWait is how long the permission dialog waits for the person (WorkDelay when 0).
	PermissionWait Duration `json:"permission_wait"`
	// TurnGate, when set, holds each turn after the first until the file TurnGate.N exists (N
	// the turn's number, from 1), so that a test acts on the session between two turns.
	TurnGate string `json:"turn_gate"`
}

// Duration is a time.Duration in JSON as "1s".
type Duration struct{ time.Duration }

// MarshalJSON writes "1.5s".
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(d.String()) }

// UnmarshalJSON reads "1.5s".
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := time.ParseDuration(s)
	d.Duration = v
	return err
}

// HookCommand is a command hook from the settings.
type HookCommand struct {
	Command string  `json:"command"`
	Timeout float64 `json:"timeout"`
}

type group struct {
	Matcher string        `json:"matcher"`
	Hooks   []HookCommand `json:"hooks"`
}

// Settings are the hooks the agent runs.
type Settings struct {
	DisableAllHooks bool               `json:"disableAllHooks"`
	Hooks           map[string][]group `json:"hooks"`
}

// ParseSettings reads a --settings value: inline JSON or a file path.
func ParseSettings(v string) (Settings, error) {
	data := []byte(v)
	if !strings.HasPrefix(strings.TrimSpace(v), "{") {
		b, err := os.ReadFile(v)
		if err != nil {
			return Settings{}, fmt.Errorf("settings: %w", err)
		}
		data = b
	}
	var s Settings
	if err := json.Unmarshal(data, &s); err != nil {
		return Settings{}, fmt.Errorf("settings: %w", err)
	}
	return s, nil
}

// HookResult is one hook command's run.
type HookResult struct {
	Command  string `json:"command"`
	Exit     int    `json:"exit"`
	Stdout   string `json:"stdout"`
	Stderr   string `json:"stderr"`
	TimedOut bool   `json:"timed_out,omitempty"`
}

// Outcome is how claude reads an event's hooks together.
type Outcome struct {
	Block      bool
	Reasons    []string
	Halt       bool
	StopReason string
	System     []string
}

// TraceEntry is one line of the trace a test reads: an event, its input and what came back.
type TraceEntry struct {
	Event   string         `json:"event"`
	Input   map[string]any `json:"input"`
	Results []HookResult   `json:"results"`
	Block   bool           `json:"block"`
	Halt    bool           `json:"halt"`
	Reasons []string       `json:"reasons,omitempty"`
	Note    string         `json:"note,omitempty"`
}

// Agent is one simulated session.
type Agent struct {
	Settings  Settings
	Cwd       string
	Env       []string
	SessionID string
	Home      string
	Model     string    // the model its replies name ("claude-sim" by default)
	Trace     io.Writer // JSON lines of TraceEntry; nil for none
	Say       io.Writer // what the agent "says" (stdout in -p mode)

	transcript *os.File
	msgs       int
	mu         sync.Mutex
}

// New makes an agent with a fresh session id.
func New(settings Settings, cwd, home string, env []string) *Agent {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	h := hex.EncodeToString(b)
	id := h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
	return &Agent{Settings: settings, Cwd: cwd, Home: home, Env: env, SessionID: id, Model: "claude-sim", Say: io.Discard}
}

// TranscriptPath is where claude would write this session's transcript.
func (a *Agent) TranscriptPath() string {
	proj := strings.NewReplacer("/", "-", ".", "-").Replace(a.Cwd)
	return filepath.Join(a.Home, ".claude", "projects", proj, a.SessionID+".jsonl")
}

func (a *Agent) base(event string) map[string]any {
	return map[string]any{
		"session_id": a.SessionID, "transcript_path": a.TranscriptPath(), "cwd": a.Cwd,
		"hook_event_name": event,
	}
}

// Fire runs every hook configured for event with input, in parallel, and reads their answers
// as Claude Code does.
func (a *Agent) Fire(ctx context.Context, event string, input map[string]any) Outcome {
	if a.Settings.DisableAllHooks {
		return Outcome{}
	}
	stdin, _ := json.Marshal(input)
	var cmds []HookCommand
	for _, g := range a.Settings.Hooks[event] {
		cmds = append(cmds, g.Hooks...)
	}
	results := make([]HookResult, len(cmds))
	var wg sync.WaitGroup
	for i, hc := range cmds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = a.runHook(ctx, hc, stdin)
		}()
	}
	wg.Wait()
	var o Outcome
	for _, r := range results {
		if r.TimedOut {
			continue
		}
		switch r.Exit {
		case 2:
			o.Block = true
			o.Reasons = append(o.Reasons, fmt.Sprintf("[%s]: %s", r.Command, strings.TrimSpace(r.Stderr)))
		case 0:
			var w struct {
				Continue      *bool  `json:"continue"`
				StopReason    string `json:"stopReason"`
				Decision      string `json:"decision"`
				Reason        string `json:"reason"`
				SystemMessage string `json:"systemMessage"`
			}
			if json.Unmarshal([]byte(strings.TrimSpace(r.Stdout)), &w) != nil {
				continue
			}
			if w.SystemMessage != "" {
				o.System = append(o.System, w.SystemMessage)
			}
			if w.Continue != nil && !*w.Continue {
				o.Halt, o.StopReason = true, w.StopReason
			} else if w.Decision == "block" {
				o.Block = true
				o.Reasons = append(o.Reasons, w.Reason)
			}
		}
	}
	if o.Halt {
		o.Block = false
	}
	a.trace(TraceEntry{Event: event, Input: input, Results: results, Block: o.Block, Halt: o.Halt, Reasons: o.Reasons})
	return o
}

func (a *Agent) runHook(ctx context.Context, hc HookCommand, stdin []byte) HookResult {
	t := time.Duration(hc.Timeout * float64(time.Second))
	if t <= 0 {
		t = 600 * time.Second
	}
	hctx, cancel := context.WithTimeout(ctx, t)
	defer cancel()
	cmd := exec.CommandContext(hctx, "/bin/sh", "-c", hc.Command)
	cmd.Dir = a.Cwd
	cmd.Env = append(append([]string{}, a.Env...), "CLAUDE_PROJECT_DIR="+a.Cwd, "CLAUDE_CODE_SESSION_ID="+a.SessionID, "CLAUDECODE=1")
	cmd.Stdin = bytes.NewReader(stdin)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := HookResult{Command: hc.Command, Stdout: out.String(), Stderr: errb.String()}
	var ee *exec.ExitError
	switch {
	case hctx.Err() != nil:
		r.TimedOut, r.Exit = true, -1
	case err == nil:
	case errors.As(err, &ee):
		r.Exit = ee.ExitCode()
	default:
		r.Exit = -1
		r.Stderr += err.Error()
	}
	return r
}

func (a *Agent) trace(e TraceEntry) {
	if a.Trace == nil {
		return
	}
	b, _ := json.Marshal(e)
	a.mu.Lock()
	defer a.mu.Unlock()
	a.Trace.Write(append(b, '\n'))
}

// Run plays the scenario and returns the exit code.
func (a *Agent) Run(ctx context.Context, sc Scenario) int {
	a.openTranscript()
	defer a.closeTranscript()
	in := a.base("SessionStart")
	in["source"] = "startup"
	a.Fire(ctx, "SessionStart", in)
	for i, prompt := range sc.Prompts {
		if ctx.Err() != nil {
			break
		}
		if i > 0 && sc.TurnGate != "" && !waitFile(ctx, fmt.Sprintf("%s.%d", sc.TurnGate, i+1)) {
			break
		}
		a.turn(ctx, sc, i+1, prompt)
	}
	end := a.base("SessionEnd")
	end["reason"] = "other"
	a.Fire(ctx, "SessionEnd", end)
	return sc.ExitCode
}

// waitFile waits until path exists, or ctx ends (false).
func waitFile(ctx context.Context, path string) bool {
	for {
		if _, err := os.Stat(path); err == nil {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(10 * time.Millisecond):
		}
	}
}

func (a *Agent) turn(ctx context.Context, sc Scenario, n int, prompt string) {
	promptID := newID()
	up := a.base("UserPromptSubmit")
	up["prompt_id"], up["permission_mode"], up["prompt"] = promptID, "default", prompt
	a.Fire(ctx, "UserPromptSubmit", up)
	a.writeLine(map[string]any{"type": "user", "promptId": promptID, "message": map[string]any{"role": "user", "content": prompt}})
	time.Sleep(sc.WorkDelay.Duration)

	if sc.Permission {
		pr := a.base("PermissionRequest")
		pr["prompt_id"], pr["permission_mode"] = promptID, "default"
		pr["tool_name"], pr["tool_input"] = "Bash", map[string]any{"command": "touch demo.txt", "description": "Create a file"}
		pr["permission_suggestions"] = []any{}
		// As claude does, the dialog shows beside the hook, which may wait for an answer from
		// elsewhere.
		go a.Fire(ctx, "PermissionRequest", pr)
		nt := a.base("Notification")
		nt["prompt_id"], nt["message"], nt["notification_type"] = promptID, "Claude needs your permission", "permission_prompt"
		a.Fire(ctx, "Notification", nt)
		wait := sc.PermissionWait.Duration
		if wait == 0 {
			wait = sc.WorkDelay.Duration
		}
		time.Sleep(wait)
	}

	for s := 0; s < sc.Subagents; s++ {
		agentID := "a" + newID()[:16]
		typ := sc.AgentType
		if typ == "" {
			typ = "general-purpose"
		}
		st := a.base("SubagentStart")
		st["prompt_id"], st["agent_id"], st["agent_type"] = promptID, agentID, typ
		a.Fire(ctx, "SubagentStart", st)
		a.stopLoop(ctx, sc, "SubagentStop", promptID, func(in map[string]any, k int) {
			in["agent_id"], in["agent_type"] = agentID, typ
			in["agent_transcript_path"] = filepath.Join(filepath.Dir(a.TranscriptPath()), a.SessionID, "subagents", "agent-"+agentID+".jsonl")
			in["last_assistant_message"] = fmt.Sprintf("Subagent %d result %d.", s+1, k+1)
		})
	}
	a.stopLoop(ctx, sc, "Stop", promptID, func(in map[string]any, k int) {
		in["last_assistant_message"] = fmt.Sprintf("Answer to turn %d, attempt %d.", n, k+1)
	})
	fmt.Fprintf(a.Say, "Answer to turn %d.\n", n)
}

// stopLoop fires a stop event until its hooks allow it, as claude does: each block makes the
// agent continue with stop_hook_active set; the ninth consecutive block is overridden.
func (a *Agent) stopLoop(ctx context.Context, sc Scenario, event, promptID string, fill func(map[string]any, int)) {
	for k := 0; ; k++ {
		in := a.base(event)
		in["prompt_id"], in["permission_mode"] = promptID, "default"
		in["effort"] = map[string]any{"level": "medium"}
		in["stop_hook_active"] = k > 0
		in["background_tasks"], in["session_crons"] = []any{}, []any{}
		fill(in, k)
		a.assistant(in["last_assistant_message"].(string))
		o := a.Fire(ctx, event, in)
		if o.Halt || !o.Block || ctx.Err() != nil {
			return
		}
		if k+1 > BlockCap {
			a.trace(TraceEntry{Event: event, Note: fmt.Sprintf("A hook blocked the turn from ending %d consecutive times — overriding and ending turn", k+1)})
			return
		}
		a.writeLine(map[string]any{"type": "user", "promptId": promptID, "isMeta": true,
			"message": map[string]any{"role": "user", "content": "Stop hook feedback:\n" + strings.Join(o.Reasons, "\n")}})
		time.Sleep(sc.WorkDelay.Duration)
	}
}

func (a *Agent) assistant(text string) {
	a.reply(map[string]any{"type": "text", "text": text})
}

// toolUse records a call of the tool name with input, as claude's transcript does: the
// assistant's tool_use block, then the tool's result.
func (a *Agent) toolUse(name string, input map[string]any, result string) {
	id := fmt.Sprintf("toolu_%d", a.msgs+1)
	a.reply(map[string]any{"type": "tool_use", "id": id, "name": name, "input": input})
	a.writeLine(map[string]any{"type": "user", "message": map[string]any{"role": "user",
		"content": []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": result}}}})
}

// reply records one assistant message holding block.
func (a *Agent) reply(block map[string]any) {
	a.msgs++
	a.writeLine(map[string]any{"type": "assistant", "requestId": fmt.Sprintf("req_%d", a.msgs),
		"message": map[string]any{"id": fmt.Sprintf("msg_%d", a.msgs), "model": a.Model, "role": "assistant",
			"content": []any{block},
			"usage":   map[string]any{"input_tokens": 10, "output_tokens": 5, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}}})
}

func (a *Agent) openTranscript() {
	p := a.TranscriptPath()
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return
	}
	a.transcript, _ = os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
}

func (a *Agent) closeTranscript() {
	if a.transcript != nil {
		a.transcript.Close()
	}
}

func (a *Agent) writeLine(m map[string]any) {
	if a.transcript == nil {
		return
	}
	m["sessionId"], m["cwd"] = a.SessionID, a.Cwd
	m["timestamp"] = time.Now().UTC().Format(time.RFC3339Nano)
	b, _ := json.Marshal(m)
	a.transcript.Write(append(b, '\n'))
}

func newID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
