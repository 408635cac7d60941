// Package notify decides how a desktop notification reaches the person, and carries it: an
// escape sequence the terminal turns into a notification (iTerm2, Ghostty, WezTerm, kitty,
// foot, rxvt-unicode), else the system's notifier (osascript on macOS, notify-send on Linux),
// else the bell. Exactly one of them: a terminal that shows the sequence gets no system
// notification as well. The choice is a pure function of the environment and the system, so it
// is tested on any machine.
package notify

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// Method is how a notification is carried.
type Method string

// Methods.
const (
	Auto   Method = "auto"   // choose by the terminal and the system (config only)
	OSC9   Method = "osc9"   // ESC ] 9 ; body BEL: iTerm2
	OSC777 Method = "osc777" // ESC ] 777 ; notify ; title ; body BEL: Ghostty, WezTerm, foot, rxvt-unicode
	OSC99  Method = "osc99"  // ESC ] 99 ; ; body ESC \: kitty's own protocol
	System Method = "system" // osascript on macOS, notify-send on Linux
	Bell   Method = "bell"   // BEL, when nothing else can show a notification
)

// Methods are the values [notifications] notifier takes.
func Methods() []Method { return []Method{Auto, OSC9, OSC777, OSC99, System} }

// Choice is a method and why it was chosen, for the log and hooksup doctor.
type Choice struct {
	Method Method
	Why    string
}

// Choose picks how to notify. configured is [notifications] notifier ("" is auto); getenv is
// hooksup's environment, goos the system, and hasCommand reports a program on PATH.
func Choose(configured Method, getenv func(string) string, goos string, hasCommand func(string) bool) Choice {
	if configured != "" && configured != Auto {
		return Choice{configured, "set by [notifications] notifier"}
	}
	term, program := getenv("TERM"), getenv("TERM_PROGRAM")
	// Inside tmux or screen the variables of the terminal around them linger (LC_TERMINAL,
	// KITTY_WINDOW_ID), but the multiplexer swallows the sequences.
	multiplexed := getenv("TMUX") != "" || program == "tmux" || getenv("STY") != ""
	switch {
	case multiplexed:
	case program == "iTerm.app" || getenv("LC_TERMINAL") == "iTerm2":
		// LC_TERMINAL: iTerm2 sets it so that it survives ssh, which forwards LC_*.
		return Choice{OSC9, "iTerm2"}
	case program == "ghostty" || term == "xterm-ghostty":
		return Choice{OSC777, "Ghostty"}
	case program == "WezTerm":
		return Choice{OSC777, "WezTerm"}
	case term == "xterm-kitty" || getenv("KITTY_WINDOW_ID") != "":
		return Choice{OSC99, "kitty"}
	case term == "foot" || strings.HasPrefix(term, "foot-"):
		return Choice{OSC777, "foot"}
	case strings.HasPrefix(term, "rxvt-unicode"):
		return Choice{OSC777, "rxvt-unicode"}
	}
	// A terminal that shows no notification of its own (Terminal.app, VS Code, GNOME Terminal,
	// Konsole, Alacritty, xterm) or one hooksup cannot reach past (tmux, screen): the system's.
	// Over ssh the system's notifier would show on the remote machine, where nobody looks.
	where := "this terminal"
	if program != "" {
		where = program
	}
	if getenv("SSH_CONNECTION") != "" || getenv("SSH_TTY") != "" {
		return Choice{Bell, where + " over ssh shows no notification"}
	}
	switch goos {
	case "darwin":
		if hasCommand("osascript") {
			return Choice{System, where + " shows no notification: macOS's"}
		}
	case "linux":
		if getenv("DISPLAY") == "" && getenv("WAYLAND_DISPLAY") == "" {
			return Choice{Bell, where + " shows no notification, and there is no desktop"}
		}
		if hasCommand("notify-send") {
			return Choice{System, where + " shows no notification: notify-send's"}
		}
		return Choice{Bell, where + " shows no notification, and notify-send is not installed"}
	}
	return Choice{Bell, where + " shows no notification"}
}

// clean keeps body from ending the sequence early or adding fields: control characters and the
// field separator become spaces.
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || (r >= 0x7f && r <= 0x9f) || r == ';' {
			return ' '
		}
		return r
	}, s)
}

// Sequence is what a terminal method writes to the terminal: the notification titled title
// saying body, or the bell. It is "" for System.
func Sequence(m Method, title, body string) string {
	switch m {
	case OSC9:
		return "\x1b]9;" + clean(title+": "+body) + "\a"
	case OSC777:
		return "\x1b]777;notify;" + clean(title) + ";" + clean(body) + "\a"
	case OSC99:
		return "\x1b]99;;" + clean(title+": "+body) + "\x1b\\"
	case Bell:
		return "\a"
	}
	return ""
}

// Command is the system notifier's command line on goos for title and body, passed as
// arguments (never parsed as AppleScript or options).
func Command(goos, title, body string) ([]string, error) {
	switch goos {
	case "darwin":
		return []string{"osascript",
			"-e", "on run argv", "-e", "display notification (item 2 of argv) with title (item 1 of argv)", "-e", "end run",
			title, body}, nil
	case "linux":
		return []string{"notify-send", "--", title, body}, nil
	}
	return nil, fmt.Errorf("no system notifier on %s", goos)
}

// Notifier carries notifications by one method, chosen once for the session.
type Notifier struct {
	Choice Choice
	GOOS   string
	// Title is every notification's title, e.g. "hooksup · api" naming the session's project;
	// "hooksup" when empty.
	Title string
	// Run runs the system notifier's command line; nil runs it with os/exec.
	Run func(ctx context.Context, argv []string) error
}

// New chooses the method for this process's terminal and system (see Choose).
func New(configured Method) Notifier {
	hasCommand := func(name string) bool { _, err := exec.LookPath(name); return err == nil }
	return Notifier{Choice: Choose(configured, os.Getenv, runtime.GOOS, hasCommand), GOOS: runtime.GOOS}
}

// Prepare returns how to carry one notification: the bytes to write to the terminal, or (for
// the system method) a function that runs the system's notifier, to call off any UI thread.
func (n Notifier) Prepare(title, body string) (sequence string, send func() error) {
	if n.Choice.Method != System {
		return Sequence(n.Choice.Method, title, body), nil
	}
	argv, err := Command(n.GOOS, title, body)
	if err != nil {
		return "\a", nil
	}
	run := n.Run
	if run == nil {
		run = func(ctx context.Context, argv []string) error {
			out, err := exec.CommandContext(ctx, argv[0], argv[1:]...).CombinedOutput()
			if err != nil {
				return fmt.Errorf("%s: %w: %s", argv[0], err, strings.TrimSpace(string(out)))
			}
			return nil
		}
	}
	return "", func() error {
		// osascript can wait on a permission prompt; a notification late by more is no use.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return run(ctx, argv)
	}
}
