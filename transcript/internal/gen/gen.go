// Package gen writes synthetic Claude Code 2.1.330 session transcripts shaped like the real
// samples (transcript/testdata): user prompts, attachments, the bookkeeping lines claude writes
// type-first, assistant messages split into one line per content block with the usage repeated
// on each, tool_use and tool_result lines, stop-hook summaries, hook attachments, turn
// durations, API errors and compactions. It also returns the totals a correct parser must
// find, so tests and benchmarks can check their figures.
package gen

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"time"
	"unicode/utf8"
)

// Config describes the transcript to write. Zero fields get defaults.
type Config struct {
	Size      int64     // approximate size in bytes; writing stops after the turn that reaches it
	Seed      uint64    // the same seed writes the same bytes
	SessionID string    // default "11111111-2222-4333-8444-555555555555"
	Start     time.Time // timestamp of the first line; default 2026-11-22T09:00:00Z
	Models    []string  // default claude-opus-5-5 (most turns) and claude-haiku-5-5
	AgentID   string    // if set, lines are a subagent's (isSidechain, agentId)
}

// Tokens is a set of token counts.
type Tokens struct {
	Input         int64 `json:"input_tokens"`
	Output        int64 `json:"output_tokens"`
	CacheCreation int64 `json:"cache_creation_tokens"`
	CacheRead     int64 `json:"cache_read_tokens"`
}

func (t *Tokens) add(u Tokens) {
	t.Input += u.Input
	t.Output += u.Output
	t.CacheCreation += u.CacheCreation
	t.CacheRead += u.CacheRead
}

// Totals is what a correct parser finds in the written transcript.
type Totals struct {
	Lines       int64             `json:"lines"`
	Bytes       int64             `json:"bytes"`
	Tokens      Tokens            `json:"tokens"` // de-duplicated per message
	ByModel     map[string]Tokens `json:"by_model"`
	Messages    int64             `json:"messages"` // distinct API messages with usage
	ToolCalls   map[string]int64  `json:"tool_calls"`
	Turns       int64             `json:"turns"`       // real prompts
	TurnsEnded  int64             `json:"turns_ended"` // turn_duration lines
	TurnTime    time.Duration     `json:"turn_time"`
	APIErrors   int64             `json:"api_errors"`
	Compactions int64             `json:"compactions"`
	StopHooks   int64             `json:"stop_hooks"` // stop_hook_summary lines
	LastText    string            `json:"last_text"`
	Title       string            `json:"title"`
}

// toolNames are the tools the synthetic assistant calls.
func toolNames() []string {
	return []string{"Bash", "Read", "Edit", "Grep", "Glob", "Write", "Agent", "TodoWrite", "mcp__github__search_issues"}
}

// words make the synthetic prose, with escapes and non-ASCII text among them.
func words() []string {
	return []string{
		"the", "test", "fails", "because", "handler", "returns", "nil", "context", "deadline",
		"exceeded", "fix", "race", "in", "watcher", "goroutine", "leak", "parser", "token", "usage",
		"café", "naïve", "—", "🤖", "“quoted”", `"json"`, `back\slash`, "tab\there", "line\nbreak",
		"config", "TOML", "layered", "socket", "0600", "verdict", "block", "allow", "stop", "hook",
	}
}

// Write writes a transcript to w and returns its totals.
func Write(w io.Writer, cfg Config) (Totals, error) {
	g := newGenerator(cfg)
	bw := bufio.NewWriterSize(w, 1<<20)
	for g.tot.Bytes < g.cfg.Size {
		g.turn()
		if _, err := bw.Write(g.out); err != nil {
			return g.tot, fmt.Errorf("gen: write: %w", err)
		}
		g.out = g.out[:0]
	}
	if err := bw.Flush(); err != nil {
		return g.tot, fmt.Errorf("gen: write: %w", err)
	}
	return g.tot, nil
}

type generator struct {
	cfg    Config
	rng    *rand.Rand
	now    time.Time
	out    []byte
	line   []byte
	tot    Totals
	pool   string // random prose, sliced for texts
	parent string
	turns  int
	common []byte   // the members every conversation line ends with
	tools  []string // tool names to call
}

func newGenerator(cfg Config) *generator {
	if cfg.SessionID == "" {
		cfg.SessionID = "11111111-2222-4333-8444-555555555555"
	}
	if cfg.Start.IsZero() {
		cfg.Start = time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	}
	if len(cfg.Models) == 0 {
		cfg.Models = []string{"claude-opus-5-5", "claude-haiku-5-5"}
	}
	g := &generator{
		cfg: cfg,
		rng: rand.New(rand.NewPCG(cfg.Seed, 0x9e3779b97f4a7c15)),
		now: cfg.Start,
		tot: Totals{ByModel: map[string]Tokens{}, ToolCalls: map[string]int64{}},
	}
	var pool []byte
	ws := words()
	g.tools = toolNames()
	for len(pool) < 256<<10 {
		pool = append(pool, ws[g.rng.IntN(len(ws))]...)
		pool = append(pool, ' ')
	}
	g.pool = string(pool)
	g.parent = g.uuid()
	c := []byte(`"userType":"external","entrypoint":"cli","cwd":"/home/dev/proj","sessionId":`)
	c = appendJSON(c, cfg.SessionID)
	c = append(c, `,"version":"2.1.330","gitBranch":"main"}`...)
	g.common = c
	return g
}

// text returns about n bytes of prose, cut at a rune boundary.
func (g *generator) text(n int) string {
	if n > len(g.pool)-8 {
		n = len(g.pool) - 8
	}
	i := g.rng.IntN(len(g.pool) - n - 4)
	for !utf8.RuneStart(g.pool[i]) {
		i++
	}
	j := i + n
	for j < len(g.pool) && !utf8.RuneStart(g.pool[j]) {
		j++
	}
	return g.pool[i:j]
}

func (g *generator) uuid() string {
	const hex = "0123456789abcdef"
	var b [36]byte
	for i := range b {
		switch i {
		case 8, 13, 18, 23:
			b[i] = '-'
		default:
			b[i] = hex[g.rng.IntN(16)]
		}
	}
	return string(b[:])
}

func (g *generator) id(prefix string) string {
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	b := []byte(prefix)
	for range 24 {
		b = append(b, alnum[g.rng.IntN(len(alnum))])
	}
	return string(b)
}

func (g *generator) tick(maxMs int) {
	g.now = g.now.Add(time.Duration(1+g.rng.IntN(maxMs)) * time.Millisecond)
}

// begin starts a conversation line (parentUuid, isSidechain, agentId).
func (g *generator) begin() {
	g.line = append(g.line[:0], `{"parentUuid":`...)
	g.line = appendJSON(g.line, g.parent)
	if g.cfg.AgentID != "" {
		g.line = append(g.line, `,"isSidechain":true,"agentId":`...)
		g.line = appendJSON(g.line, g.cfg.AgentID)
	} else {
		g.line = append(g.line, `,"isSidechain":false`...)
	}
}

// end finishes a conversation line with uuid, timestamp and the common members, and emits it.
func (g *generator) end() {
	u := g.uuid()
	g.line = append(g.line, `,"uuid":`...)
	g.line = appendJSON(g.line, u)
	g.line = append(g.line, `,"timestamp":"`...)
	g.line = g.now.AppendFormat(g.line, "2006-01-02T15:04:05.000Z")
	g.line = append(g.line, `",`...)
	g.line = append(g.line, g.common...)
	g.parent = u
	g.emit()
}

func (g *generator) emit() {
	g.line = append(g.line, '\n')
	g.out = append(g.out, g.line...)
	g.tot.Lines++
	g.tot.Bytes += int64(len(g.line))
}

// raw emits a type-first bookkeeping line.
func (g *generator) raw(typ, rest string) {
	g.line = append(g.line[:0], `{"type":`...)
	g.line = appendJSON(g.line, typ)
	g.line = append(g.line, rest...)
	g.line = append(g.line, `,"sessionId":`...)
	g.line = appendJSON(g.line, g.cfg.SessionID)
	g.line = append(g.line, '}')
	g.emit()
}

func (g *generator) turn() {
	g.turns++
	model := g.cfg.Models[0]
	if len(g.cfg.Models) > 1 && g.rng.IntN(5) == 0 {
		model = g.cfg.Models[1+g.rng.IntN(len(g.cfg.Models)-1)]
	}
	start := g.now
	if g.rng.IntN(3) == 0 {
		g.raw("queue-operation", `,"operation":"enqueue","timestamp":"2026-11-22T09:25:40.528Z","content":"do the thing"`)
	}
	prompt := g.text(20 + g.rng.IntN(400))
	g.begin()
	g.line = append(g.line, `,"promptId":`...)
	g.line = appendJSON(g.line, g.uuid())
	g.line = append(g.line, `,"type":"user","message":{"role":"user","content":`...)
	g.line = appendJSON(g.line, prompt)
	g.line = append(g.line, `},"permissionMode":"default","promptSource":"cli","turnOrigin":"cli","turnPosition":{"promptIndex":0,"turnIndex":`...)
	g.line = strconv.AppendInt(g.line, int64(g.turns), 10)
	g.line = append(g.line, '}')
	g.end()
	g.tot.Turns++
	for range 1 + g.rng.IntN(3) {
		g.tick(3)
		g.begin()
		g.line = append(g.line, `,"attachment":{"type":"date","date":"2026-11-22"},"type":"attachment","rendered":[{"content":`...)
		g.line = appendJSON(g.line, "<system-reminder>\n"+g.text(200+g.rng.IntN(800))+"\n</system-reminder>")
		g.line = append(g.line, `}],"renderedRole":"system"`...)
		g.end()
	}
	if g.turns == 2 {
		g.tot.Title = "Synthetic session " + g.cfg.SessionID[:min(8, len(g.cfg.SessionID))]
		g.raw("ai-title", `,"aiTitle":`+string(appendJSON(nil, g.tot.Title)))
	}
	calls := 1 + g.rng.IntN(5)
	for c := range calls {
		g.call(model, c == calls-1)
	}
	// End of turn: sometimes a third-party Stop hook, then the turn's duration.
	if g.rng.IntN(5) == 0 {
		g.stopHook()
	}
	g.tick(50)
	d := g.now.Sub(start)
	g.begin()
	g.line = append(g.line, `,"type":"system","subtype":"turn_duration","durationMs":`...)
	g.line = strconv.AppendInt(g.line, d.Milliseconds(), 10)
	g.line = append(g.line, `,"messageCount":`...)
	g.line = strconv.AppendInt(g.line, int64(2+calls*3), 10)
	g.line = append(g.line, `,"isMeta":false`...)
	g.end()
	g.tot.TurnsEnded++
	g.tot.TurnTime += time.Duration(d.Milliseconds()) * time.Millisecond
	g.raw("last-prompt", `,"lastPrompt":`+string(appendJSON(nil, prompt[:min(len(prompt), 40)]))+`,"leafUuid":"`+g.parent+`"`)
	if g.rng.IntN(4) == 0 {
		g.raw("file-history-snapshot", `,"messageId":"`+g.uuid()+`","snapshot":{"trackedFileBackups":{},"timestamp":"2026-11-22T09:19:45.636Z"},"isSnapshotUpdate":false`)
	}
	if g.turns%150 == 0 {
		g.compact()
	}
}

// call writes one API request and its response: an assistant message split into one line per
// content block, then the tool results.
func (g *generator) call(model string, last bool) {
	if g.rng.IntN(10) == 0 {
		g.raw("api-request-shape", `,"shapeHash":"`+g.id("")+`","shape":{"system":[{"type":"text","text":`+string(appendJSON(nil, g.text(6000)))+`}]}`)
	}
	g.raw("api-request", `,"id":"`+g.uuid()+`","querySource":"repl_main_thread","params":{"model":"`+model+`","max_tokens":128000}`)
	g.tick(2000)
	if g.rng.IntN(100) == 0 { // the API failed: claude writes a synthetic assistant line
		g.begin()
		g.line = append(g.line, `,"message":{"id":"`...)
		g.line = append(g.line, g.uuid()...)
		g.line = append(g.line, `","type":"message","role":"assistant","model":"<synthetic>","content":[{"type":"text","text":"API Error: 529 Overloaded. This is a server-side issue, usually temporary — try again in a moment."}],"stop_reason":"stop_sequence","stop_sequence":"","usage":{"input_tokens":0,"output_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}},"type":"assistant","error":"server_error","isApiErrorMessage":true,"apiErrorStatus":529`...)
		g.end()
		g.tot.APIErrors++
		return
	}
	msgID, reqID := g.id("msg_01"), g.id("req_011C")
	final := Tokens{
		Input:     int64(1 + g.rng.IntN(40)),
		Output:    int64(20 + g.rng.IntN(4000)),
		CacheRead: int64(g.rng.IntN(180000)),
	}
	var eph5m, eph1h int64
	if g.rng.IntN(3) == 0 {
		eph5m, eph1h = int64(g.rng.IntN(20000)), int64(g.rng.IntN(3))*int64(g.rng.IntN(5000))
	}
	final.CacheCreation = eph5m + eph1h
	type block struct{ kind, text, tool, toolID string }
	var blocks []block
	if g.rng.IntN(3) == 0 {
		blocks = append(blocks, block{kind: "thinking", text: g.text(100 + g.rng.IntN(2000))})
	}
	if last || g.rng.IntN(4) > 0 {
		blocks = append(blocks, block{kind: "text", text: g.text(20 + g.rng.IntN(1500))})
	}
	if !last {
		for range 1 + g.rng.IntN(3) {
			blocks = append(blocks, block{kind: "tool_use", tool: g.tools[g.rng.IntN(len(g.tools))], toolID: g.id("toolu_01")})
		}
	}
	stop := "end_turn"
	if !last {
		stop = "tool_use"
	}
	// Most messages repeat the final usage on every block; some carry a partial count on the
	// early blocks, as streaming writers did: the largest copy is the true one.
	partial := g.rng.IntN(4) == 0
	for i, b := range blocks {
		u := final
		if partial && i < len(blocks)-1 {
			u.Output = final.Output * int64(i+1) / int64(len(blocks)+1)
		}
		g.tick(40)
		g.begin()
		g.line = append(g.line, `,"message":{"id":`...)
		g.line = appendJSON(g.line, msgID)
		g.line = append(g.line, `,"type":"message","role":"assistant","model":`...)
		g.line = appendJSON(g.line, model)
		g.line = append(g.line, `,"content":[`...)
		switch b.kind {
		case "thinking":
			g.line = append(g.line, `{"type":"thinking","thinking":`...)
			g.line = appendJSON(g.line, b.text)
			g.line = append(g.line, `,"signature":"`...)
			g.line = append(g.line, g.id("Eq")...)
			g.line = append(g.line, `"}`...)
		case "text":
			g.line = append(g.line, `{"type":"text","text":`...)
			g.line = appendJSON(g.line, b.text)
			g.line = append(g.line, '}')
			g.tot.LastText = b.text
		case "tool_use":
			g.line = append(g.line, `{"type":"tool_use","id":`...)
			g.line = appendJSON(g.line, b.toolID)
			g.line = append(g.line, `,"name":`...)
			g.line = appendJSON(g.line, b.tool)
			g.line = append(g.line, `,"input":{"command":`...)
			g.line = appendJSON(g.line, g.text(20+g.rng.IntN(200)))
			g.line = append(g.line, `,"description":"Run it"}}`...)
			g.tot.ToolCalls[b.tool]++
		}
		g.line = append(g.line, `],"stop_reason":`...)
		g.line = appendJSON(g.line, stop)
		g.line = append(g.line, `,"stop_sequence":null,"usage":{"input_tokens":`...)
		g.line = strconv.AppendInt(g.line, u.Input, 10)
		g.line = append(g.line, `,"cache_creation_input_tokens":`...)
		g.line = strconv.AppendInt(g.line, u.CacheCreation, 10)
		g.line = append(g.line, `,"cache_read_input_tokens":`...)
		g.line = strconv.AppendInt(g.line, u.CacheRead, 10)
		g.line = append(g.line, `,"output_tokens":`...)
		g.line = strconv.AppendInt(g.line, u.Output, 10)
		g.line = append(g.line, `,"output_tokens_details":{"thinking_tokens":0},"server_tool_use":{"web_search_requests":0,"web_fetch_requests":0},"service_tier":"standard","cache_creation":{"ephemeral_1h_input_tokens":`...)
		g.line = strconv.AppendInt(g.line, eph1h, 10)
		g.line = append(g.line, `,"ephemeral_5m_input_tokens":`...)
		g.line = strconv.AppendInt(g.line, eph5m, 10)
		g.line = append(g.line, `},"inference_geo":"","iterations":[],"speed":"standard","fallback_credit":null},"stop_details":null},"apiBlockIndex":`...)
		g.line = strconv.AppendInt(g.line, int64(i), 10)
		g.line = append(g.line, `,"requestId":`...)
		g.line = appendJSON(g.line, reqID)
		g.line = append(g.line, `,"requestRef":"`...)
		g.line = append(g.line, g.uuid()...)
		g.line = append(g.line, `","requestedModel":`...)
		g.line = appendJSON(g.line, model)
		g.line = append(g.line, `,"promptCacheRequested":"5m","type":"assistant","effort":"medium","perTurnEffort":"medium","madeBy":"model"`...)
		g.end()
	}
	g.tot.Messages++
	g.tot.Tokens.add(final)
	m := g.tot.ByModel[model]
	m.add(final)
	g.tot.ByModel[model] = m
	for _, b := range blocks {
		if b.kind != "tool_use" {
			continue
		}
		g.tick(800)
		out := g.text(50 + g.rng.IntN(4000))
		if g.rng.IntN(50) == 0 {
			out = g.text(30000)
		}
		isErr := g.rng.IntN(20) == 0
		g.begin()
		g.line = append(g.line, `,"promptId":"`...)
		g.line = append(g.line, g.uuid()...)
		g.line = append(g.line, `","type":"user","message":{"role":"user","content":[{"tool_use_id":`...)
		g.line = appendJSON(g.line, b.toolID)
		g.line = append(g.line, `,"type":"tool_result","content":`...)
		g.line = appendJSON(g.line, out)
		g.line = append(g.line, `,"is_error":`...)
		g.line = strconv.AppendBool(g.line, isErr)
		g.line = append(g.line, `}]},"toolUseResult":{"stdout":`...)
		g.line = appendJSON(g.line, out)
		g.line = append(g.line, `,"stderr":"","interrupted":false,"isImage":false,"noOutputExpected":false},"sourceToolAssistantUUID":"`...)
		g.line = append(g.line, g.parent...)
		g.line = append(g.line, `"`...)
		g.end()
	}
}

// stopHook writes a third-party Stop hook's outcome: the hook_success attachment and the
// stop_hook_summary, sharing the invocation's toolUseID.
func (g *generator) stopHook() {
	inv := g.uuid()
	cmd := "/usr/local/bin/lint-hook --fast"
	g.tick(100)
	g.begin()
	g.line = append(g.line, `,"attachment":{"type":"hook_success","hookName":"Stop","toolUseID":"`+inv+`","hookEvent":"Stop","content":"","stdout":"ok\n","stderr":"","exitCode":0,"command":`...)
	g.line = appendJSON(g.line, cmd)
	g.line = append(g.line, `,"durationMs":`...)
	g.line = strconv.AppendInt(g.line, int64(10+g.rng.IntN(500)), 10)
	g.line = append(g.line, `},"type":"attachment"`...)
	g.end()
	g.begin()
	g.line = append(g.line, `,"type":"system","subtype":"stop_hook_summary","hookCount":1,"hookInfos":[{"command":`...)
	g.line = appendJSON(g.line, cmd)
	g.line = append(g.line, `}],"hookErrors":[],"failedHookErrorIndexes":[],"hookAdditionalContext":[],"preventedContinuation":false,"stopReason":"","hasOutput":true,"level":"suggestion","toolUseID":"`+inv+`"`...)
	g.end()
	g.tot.StopHooks++
}

func (g *generator) compact() {
	g.tick(300)
	g.begin()
	g.line = append(g.line, `,"type":"system","subtype":"compact_boundary","content":"Conversation compacted","isMeta":false,"level":"info","compactMetadata":{"trigger":"auto","preTokens":160000,"durationMs":259,"postTokens":2537}`...)
	g.end()
	g.begin()
	g.line = append(g.line, `,"promptId":"`+g.uuid()+`","type":"user","message":{"role":"user","content":`...)
	g.line = appendJSON(g.line, "This session is being continued from a previous conversation. Summary:\n"+g.text(3000))
	g.line = append(g.line, `},"isVisibleInTranscriptOnly":true,"isCompactSummary":true`...)
	g.end()
	g.tot.Compactions++
}

// appendJSON appends s as a JSON string the way claude writes it: non-ASCII left as is.
func appendJSON(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\r':
			dst = append(dst, '\\', 'r')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
