// Package vterm is the narrow wrapper around the terminal emulator that the
// agent pane uses to show a child program (Claude Code) running in a pty. The
// emulator is hooksup's own copy of charmbracelet/x/vt (internal/vt, with its
// README listing what differs from upstream: the alternate screen keeps no
// history, the scrollback is kept compact, and scrolls, erases and printable
// ASCII take fast paths that leave exactly what upstream's code leaves).
//
// The pty reader goroutine feeds the child's output to [Terminal.Write] and
// then tells the UI to redraw (the TUI coalesces those signals to one per
// frame); the UI goroutine reads the screen with [Terminal.RenderLines],
// [Terminal.Cursor] and [Terminal.Title], and the history above it with
// [Terminal.ScrollbackLen] (0 on the alternate screen). [Terminal.Generation]
// counts the changes, for callers that poll instead. Keys, pastes, focus
// changes and mouse events are turned into the bytes the child expects by the
// pure functions [EncodeKey] (with [KeyFromTea] for Bubble Tea's keys),
// [EncodePaste], [EncodeFocus] and [EncodeMouse], given the child's current
// [Modes].
//
// Everything x/vt gets wrong or lacks, as measured in VT_NOTES.md, is handled
// here, before the bytes reach the emulator:
//
//   - OSC strings are parsed by this package (terminated by BEL or ESC \ only,
//     never by the byte 0x9C that occurs inside UTF-8), so window titles such
//     as "✳ Claude Code" never leak onto the screen; titles are exposed by
//     [Terminal.Title].
//   - Numeric CSI parameters are capped (CSI 9999999 b no longer stalls),
//     scroll margins are clamped to the screen, and the cursor is brought back
//     on screen after screen switches and cursor restores.
//   - Every call into the emulator runs under recover(); a panic replaces the
//     emulator with a fresh one and reports that the child should repaint.
//   - Terminal queries (DA1, DSR, XTVERSION, window size reports, DECRQM,
//     kitty keyboard) are answered here. Every reply, including the ones x/vt
//     writes itself into its unbuffered pipe, goes through a queue that never
//     blocks the emulator to one goroutine that writes them to the reply sink
//     (the pty); a sink that does not keep up loses replies, never the UI.
//   - Keys are encoded here, not by x/vt, honouring cursor-key mode, the kitty
//     keyboard protocol (flags 1 and 4) and xterm's modifyOtherKeys.
//
// Beyond what x/vt offers, the Terminal speaks the Program Status Protocol
// (OSC 7501) when [Options.OnProgramStatus] is set: it answers the child's
// support query and hands each report (idle, working, blocked on a
// permission or a question, done, error) to the caller as a [ProgramStatus],
// so the UI knows the child's state the moment the child draws it.
package vterm
