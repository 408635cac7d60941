package main

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/config"
)

// An error is printed with hooksup's own line breaks, every other control shown; a
// configuration problem stays on its line, a newline in its file's path or key shown too.
func TestErrorText(t *testing.T) {
	t.Parallel()
	hostile := &config.ConfigError{File: "/p/a\nb\x1b[2J/.hooksup.toml", Line: 3, Key: "k\u202e", Msg: "unknown key"}
	other := &config.ConfigError{File: "/q/.hooksup.toml", Line: 1, Key: "mode", Msg: "must be a string"}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{errors.New("plain"), "plain"},
		{errors.New("two lines:\n  second\x1b]0;PWNED\a"), "two lines:\n  second\\e]0;PWNED\\a"},
		{hostile, `/p/a\nb\e[2J/.hooksup.toml:3: k<U+202E>: unknown key`},
		{fmt.Errorf("load: %w", config.Errors{hostile, other}),
			"load: 2 problems in the configuration:\n  " + `/p/a\nb\e[2J/.hooksup.toml:3: k<U+202E>: unknown key` + "\n  /q/.hooksup.toml:1: mode: must be a string"},
	} {
		if got := errorText(tc.err); got != tc.want {
			t.Errorf("errorText(%q) = %q, want %q", tc.err, got, tc.want)
		}
	}
}

// check -v prints the checks' output a whole line at a time, as plain text with its controls
// shown, each check's last line ended.
func TestPlainLines(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	p := &plainLines{w: &b}
	for _, c := range []struct{ name, chunk string }{
		{"a", "one \x1b[31mred"}, {"a", "\x1b[0m\n\u202etwo\r"}, {"a", "\n"}, {"a", "progress 1\rdone\nlast"},
		{"b", "\tb says\a hi"},
	} {
		p.write(c.name, []byte(c.chunk))
	}
	p.flush()
	// A colour is taken out, a CRLF ends a line; a lone carriage return or bell is shown, not
	// obeyed, as in the reason the agent reads.
	want := "one red\n<U+202E>two\nprogress 1\\rdone\nlast\n\tb says\\a hi\n"
	if b.String() != want {
		t.Errorf("check -v printed %q, want %q", b.String(), want)
	}
}
