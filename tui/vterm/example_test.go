package vterm_test

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/hooksup/hooksup/tui/vterm"
)

// The agent pane's wiring: the pty reader goroutine writes the child's
// output, replies go back to the pty, and the UI renders the screen and
// encodes keys from the child's modes.
func Example() {
	var pty bytes.Buffer // stands in for the pty master
	term := vterm.New(40, 4, vterm.Options{Replies: &pty, Version: "1.0"})

	// What claude prints at start-up: a title, modes, a prompt.
	_, _ = term.Write([]byte("\x1b]0;\u2733 Claude Code\x07\x1b[?2004h\x1b[?1004h\x1b[>1u> hello"))

	fmt.Println(term.Title())
	fmt.Println(strings.TrimRight(strings.Split(term.Text(), "\n")[0], " "))
	x, y, visible := term.Cursor()
	fmt.Println(x, y, visible)

	m := term.Modes()
	fmt.Printf("%q\n", vterm.EncodeKey(vterm.Key{Code: vterm.KeyEnter, Mod: vterm.ModShift}, m))
	fmt.Printf("%q\n", vterm.EncodeKey(vterm.Key{Code: vterm.KeyEscape}, m))
	fmt.Printf("%q\n", vterm.EncodePaste("ls\n", m))
	fmt.Printf("%q\n", vterm.EncodeFocus(true, m))
	fmt.Println(m.WantsMouse())

	_ = term.Close()
	// Output:
	// ✳ Claude Code
	// > hello
	// 7 0 true
	// "\x1b[13;2u"
	// "\x1b[27u"
	// "\x1b[200~ls\n\x1b[201~"
	// "\x1b[I"
	// false
}
