package hooks

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/hooksup/hooksup/internal/termsafe"
)

// How the agents run a hook's command (whatever $SHELL says): Claude Code 2.1.330 as
// `/bin/sh -c COMMAND`, Codex 0.169.0 as `/bin/bash -c COMMAND`, Gemini CLI 0.61.0 and Qwen Code
// 0.24.4 as `bash -c COMMAND`, GitHub Copilot CLI 1.0.102 a hook's `bash` entry with bash. Some
// read the command's text before the shell does: claude expands `${CLAUDE_PLUGIN_ROOT}` (and
// runs no hook naming it outside a plugin); gemini replaces $GEMINI_PROJECT_DIR, $GEMINI_CWD,
// $GEMINI_PLANS_DIR, $GEMINI_SESSION_ID and $CLAUDE_PROJECT_DIR wherever they appear, inside
// quotes too; copilot has plugin placeholders of its own (${COPILOT_PLUGIN_ROOT},
// ${COPILOT_PROJECT_DIR}, and claude's names for them); qwen replaces its $QWEN_PROJECT_DIR and
// gemini's and claude's only for a shell that is not bash. ShellQuote is the one quoting for all
// five, leaving no `$NAME` or `${NAME}` in the text; SplitCommand reads back what it wrote.

// ShellQuote quotes s as one word for sh, bash and zsh, when it holds anything but safe
// characters: in single quotes, with each `'` written \' and each `$` written \$ outside
// them, so that no agent finds one of its placeholders in the text. Any character but NUL
// survives, newlines included.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./+:@%,") == "" {
		return s
	}
	var b strings.Builder
	open := false
	for i := 0; i < len(s); i++ { // byte by byte: what is not UTF-8 stays as it is
		c := s[i]
		if c == '\'' || c == '$' {
			if open {
				b.WriteByte('\'')
				open = false
			}
			b.WriteByte('\\')
			b.WriteByte(c)
			continue
		}
		if !open {
			b.WriteByte('\'')
			open = true
		}
		b.WriteByte(c)
	}
	if open {
		b.WriteByte('\'')
	}
	if b.Len() == 0 {
		return "''"
	}
	return b.String()
}

// SplitCommand reads cmd as sh would split it into words, for commands made only of words:
// blanks between them, single quotes, double quotes and backslashes. ok is false for anything
// the shell would expand, redirect, run besides or read otherwise (`$`, a backquote, `;`, `|`,
// `&`, `<`, `>`, parentheses, globs, braces, a leading `~`, `#` or `=`, an assignment, an
// unquoted newline, an unfinished quote): such a command is not one hooksup wrote.
func SplitCommand(cmd string) (args []string, ok bool) {
	var (
		word    strings.Builder
		inWord  bool
		isFirst = true
	)
	end := func() {
		if inWord {
			args = append(args, word.String())
			word.Reset()
			inWord, isFirst = false, false
		}
	}
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case c == ' ' || c == '\t':
			end()
		case c == '\'':
			j := strings.IndexByte(cmd[i+1:], '\'')
			if j < 0 {
				return nil, false
			}
			word.WriteString(cmd[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case c == '"':
			i++
			for ; i < len(cmd) && cmd[i] != '"'; i++ {
				switch cmd[i] {
				case '$', '`':
					return nil, false
				case '\\':
					if i+1 < len(cmd) && strings.IndexByte("$`\"\\\n", cmd[i+1]) >= 0 {
						i++
						if cmd[i] == '\n' {
							continue // a line continuation
						}
					}
				}
				word.WriteByte(cmd[i])
			}
			if i >= len(cmd) {
				return nil, false
			}
			inWord = true
		case c == '\\':
			if i+1 >= len(cmd) {
				return nil, false
			}
			i++
			if cmd[i] != '\n' {
				word.WriteByte(cmd[i])
				inWord = true
			}
		case strings.IndexByte("\n;&|<>()$`*?[{}", c) >= 0:
			return nil, false
		case !inWord && strings.IndexByte("~#=", c) >= 0:
			return nil, false
		case c == '=' && isFirst:
			return nil, false // NAME=value before a command
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	end()
	return args, len(args) > 0
}

// RunsProgram reports whether cmd, read as SplitCommand reads it, starts one of programs.
func RunsProgram(cmd string, programs ...string) bool {
	args, ok := SplitCommand(cmd)
	return ok && args[0] != "" && slices.Contains(programs, args[0])
}

// CheckProgramPath says why a hook could not run the program at path, or nil: every agent
// keeps a hook's command in JSON or TOML, which hold UTF-8 text only, so a path that is not
// UTF-8 would reach the shell as another path.
func CheckProgramPath(path string) error {
	if utf8.ValidString(path) && !strings.ContainsRune(path, 0) {
		return nil
	}
	return fmt.Errorf("%s: this path is not UTF-8 text, which no agent's hook settings can hold, so no hook could run it: "+
		"move hooksup and %s to a directory whose path is UTF-8 (go install puts them in $(go env GOPATH)/bin)",
		termsafe.String(path), ClientName)
}

// installedArgs reports whether args are a hook `hooksup install` wrote: the hook client's
// [--agent AGENT] EVENT --installed, or hooksup's hook [--agent AGENT] EVENT --installed, for
// one of InstalledEvents.
func installedArgs(args []string) bool {
	if n := len(args); n >= 4 && args[n-4] == AgentFlag {
		args = append(args[:n-4:n-4], args[n-2:]...)
	}
	switch {
	case len(args) == 3 && filepath.Base(args[0]) == ClientName:
		return slices.Contains(InstalledEvents, args[1]) && args[2] == InstalledFlag
	case len(args) == 4 && filepath.Base(args[0]) == "hooksup":
		return args[1] == "hook" && slices.Contains(InstalledEvents, args[2]) && args[3] == InstalledFlag
	}
	return false
}
