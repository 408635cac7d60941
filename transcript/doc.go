// Package transcript follows a Claude Code session transcript (the JSONL file named by
// SessionStart's transcript_path) and its subagents' transcripts, parses the line types that
// Claude Code 2.1.330 writes, and keeps running aggregates: tokens per model (de-duplicated by
// message id and request id), tool calls, turns and their durations, API errors, compactions,
// the model, the session title, the last assistant text, and the outcomes of other hooks.
//
// Two entry points:
//   - [Parser] turns lines into [Record] values and aggregates them into [session.TranscriptStats]. It keeps no
//     line bytes and its memory is bounded whatever the file's size.
//   - [Watcher] tails a session file and its subagent files with fsnotify (no polling), feeds
//     them to parsers, delivers each interesting line as an [Update] on a channel and serves a
//     cheap [session.Transcript] of the aggregates at any time.
//
// The package imports no UI code; throttling updates for a display is the consumer's job.
//
// # Parsing
//
// Claude writes compact JSON, one object per line, and most bytes are in values hooksup never
// reads (tool results, request shapes, rendered reminders). The decoder does not unmarshal
// lines: a small scanner walks the top-level members and hands out raw values, and only the few
// that matter are decoded. Lines that start with {"type":"X" for a type hooksup skips (claude
// writes its bookkeeping lines that way) are dismissed without a scan. Lines that are not whole
// JSON objects are counted as malformed; unknown types, subtypes and fields are skipped. For
// every valid JSON line the result equals that of an encoding/json-based reference decoder
// (TestDecodeMatchesReference, FuzzDecode).
//
// # Tokens
//
// Each content block of an assistant message is its own line and repeats the message's usage.
// Like ccusage, usage is counted once per message id + request id, and the copy with the largest
// total wins (and its model gets it). Unlike ccusage, a line without a request id is still
// de-duplicated by its message id. The de-duplication window is bounded (Options.DedupeWindow
// messages, 64-bit hashed keys); lines with model "<synthetic>" (claude's own error lines) do
// not count.
//
// # Benchmarks
//
// BenchmarkParse (MB/s), BenchmarkParseEncodingJSON (the same lines through encoding/json, for
// comparison) and BenchmarkTailLatency (append-to-update p50/p99) are Go benchmarks; bench.sh
// runs them on a 100 MB synthetic transcript and compares time, memory and token totals with
// ccusage on the same file.
package transcript
