package notify

import (
	"context"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

func TestChoose(t *testing.T) {
	type env map[string]string
	desktop := env{"DISPLAY": ":0"}
	with := func(e env, kv ...string) env {
		out := env{}
		for k, v := range e {
			out[k] = v
		}
		for i := 0; i+1 < len(kv); i += 2 {
			out[kv[i]] = kv[i+1]
		}
		return out
	}
	for _, tc := range []struct {
		name       string
		configured Method
		env        env
		goos       string
		commands   []string
		want       Method
	}{
		// The terminals that show a notification themselves get their sequence, on either system.
		{"iTerm2", "", env{"TERM_PROGRAM": "iTerm.app", "TERM": "xterm-256color"}, "darwin", []string{"osascript"}, OSC9},
		{"iTerm2 through ssh", "", env{"LC_TERMINAL": "iTerm2", "SSH_CONNECTION": "1 2 3 4"}, "linux", []string{"notify-send"}, OSC9},
		{"Ghostty on macOS", "", env{"TERM_PROGRAM": "ghostty", "TERM": "xterm-ghostty"}, "darwin", []string{"osascript"}, OSC777},
		{"Ghostty on Linux", "", with(desktop, "TERM", "xterm-ghostty"), "linux", []string{"notify-send"}, OSC777},
		{"WezTerm", "", env{"TERM_PROGRAM": "WezTerm", "TERM": "xterm-256color"}, "darwin", []string{"osascript"}, OSC777},
		{"kitty", "", with(desktop, "TERM", "xterm-kitty", "KITTY_WINDOW_ID", "1"), "linux", []string{"notify-send"}, OSC99},
		{"kitty with TERM overridden", "", env{"TERM": "xterm-256color", "KITTY_WINDOW_ID": "3"}, "darwin", []string{"osascript"}, OSC99},
		{"foot", "", with(desktop, "TERM", "foot"), "linux", []string{"notify-send"}, OSC777},
		{"rxvt-unicode", "", with(desktop, "TERM", "rxvt-unicode-256color"), "linux", []string{"notify-send"}, OSC777},
		// Terminals that show nothing: the system's notifier, never as well as a sequence.
		{"Terminal.app", "", env{"TERM_PROGRAM": "Apple_Terminal", "TERM": "xterm-256color"}, "darwin", []string{"osascript"}, System},
		{"VS Code on macOS", "", env{"TERM_PROGRAM": "vscode"}, "darwin", []string{"osascript"}, System},
		{"tmux on macOS", "", env{"TERM_PROGRAM": "tmux", "TERM": "tmux-256color", "TMUX": "/tmp/tmux-501/default,1,0"}, "darwin", []string{"osascript"}, System},
		{"tmux in iTerm2", "", env{"TERM_PROGRAM": "tmux", "LC_TERMINAL": "iTerm2", "TMUX": "/tmp/tmux-501/default,1,0"}, "darwin", []string{"osascript"}, System},
		{"tmux in kitty", "", with(desktop, "TERM", "tmux-256color", "KITTY_WINDOW_ID", "1", "TMUX", "/tmp/t,1,0"), "linux", []string{"notify-send"}, System},
		{"screen in Ghostty", "", env{"TERM_PROGRAM": "ghostty", "TERM": "screen", "STY": "123.pts-0"}, "darwin", []string{"osascript"}, System},
		{"tmux over ssh", "", env{"TERM_PROGRAM": "tmux", "TMUX": "/tmp/t,1,0", "SSH_CONNECTION": "1 2 3 4"}, "darwin", []string{"osascript"}, Bell},
		{"GNOME Terminal", "", with(desktop, "TERM", "xterm-256color", "VTE_VERSION", "7600"), "linux", []string{"notify-send"}, System},
		{"Wayland", "", env{"TERM": "alacritty", "WAYLAND_DISPLAY": "wayland-0"}, "linux", []string{"notify-send"}, System},
		{"Linux without notify-send", "", with(desktop, "TERM", "xterm-256color"), "linux", nil, Bell},
		{"Linux console, no desktop", "", env{"TERM": "linux"}, "linux", []string{"notify-send"}, Bell},
		{"over ssh", "", with(desktop, "TERM", "xterm-256color", "SSH_TTY", "/dev/pts/3"), "linux", []string{"notify-send"}, Bell},
		{"Terminal.app over ssh", "", env{"TERM": "xterm-256color", "SSH_CONNECTION": "1 2 3 4"}, "darwin", []string{"osascript"}, Bell},
		{"another system", "", env{"TERM": "xterm"}, "freebsd", []string{"notify-send"}, Bell},
		// The configuration wins.
		{"configured system in iTerm2", System, env{"TERM_PROGRAM": "iTerm.app"}, "darwin", []string{"osascript"}, System},
		{"configured osc777 in Terminal.app", OSC777, env{"TERM_PROGRAM": "Apple_Terminal"}, "darwin", []string{"osascript"}, OSC777},
		{"configured auto", Auto, env{"TERM_PROGRAM": "iTerm.app"}, "darwin", nil, OSC9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Choose(tc.configured, func(k string) string { return tc.env[k] }, tc.goos,
				func(c string) bool { return slices.Contains(tc.commands, c) })
			if got.Method != tc.want || got.Why == "" {
				t.Fatalf("got %+v, want %s", got, tc.want)
			}
		})
	}
}

func TestSequence(t *testing.T) {
	body := "claude needs your permission (PermissionRequest a;b\a\x1b\u009c)"
	for m, want := range map[Method]string{
		OSC9:   "\x1b]9;hooksup: claude needs your permission (PermissionRequest a b   )\a",
		OSC777: "\x1b]777;notify;hooksup;claude needs your permission (PermissionRequest a b   )\a",
		OSC99:  "\x1b]99;;hooksup: claude needs your permission (PermissionRequest a b   )\x1b\\",
		Bell:   "\a",
		System: "",
	} {
		if got := Sequence(m, "hooksup", body); got != want {
			t.Errorf("%s: %q, want %q", m, got, want)
		}
	}
}

func TestCommand(t *testing.T) {
	// The body is an argument: quotes and AppleScript in it stay text.
	body := `say "hi" & do shell script "rm -rf ~"`
	mac, err := Command("darwin", "hooksup", body)
	if err != nil || mac[0] != "osascript" || mac[len(mac)-1] != body || strings.Contains(strings.Join(mac[:len(mac)-2], " "), "rm -rf") {
		t.Fatalf("darwin: %q %v", mac, err)
	}
	linux, err := Command("linux", "hooksup", "-starts with a dash")
	if err != nil || !slices.Equal(linux, []string{"notify-send", "--", "hooksup", "-starts with a dash"}) {
		t.Fatalf("linux: %q %v", linux, err)
	}
	if _, err := Command("plan9", "hooksup", "x"); err == nil {
		t.Fatal("plan9 has a notifier?")
	}
}

// One notification goes one way: the terminal's sequence, or the system's notifier, never both.
func TestPrepareOneWay(t *testing.T) {
	var ran [][]string
	run := func(_ context.Context, argv []string) error { ran = append(ran, argv); return nil }
	seq, send := Notifier{Choice: Choice{Method: OSC777}, GOOS: "darwin", Run: run}.Prepare("hooksup", "claude is waiting")
	if seq != "\x1b]777;notify;hooksup;claude is waiting\a" || send != nil {
		t.Fatalf("terminal: %q %v", seq, send != nil)
	}
	seq, send = Notifier{Choice: Choice{Method: System}, GOOS: "darwin", Run: run}.Prepare("hooksup", "claude is waiting")
	if seq != "" || send == nil {
		t.Fatalf("system: %q %v", seq, send != nil)
	}
	if err := send(); err != nil || len(ran) != 1 || ran[0][0] != "osascript" || ran[0][len(ran[0])-1] != "claude is waiting" {
		t.Fatalf("ran %q, %v", ran, err)
	}
	// The real notify-send, failing, says so.
	if _, err := exec.LookPath("notify-send"); err == nil {
		t.Skip("notify-send is installed here")
	}
	_, send = Notifier{Choice: Choice{Method: System}, GOOS: "linux"}.Prepare("hooksup", "x")
	if err := send(); err == nil || !strings.Contains(err.Error(), "notify-send") {
		t.Fatalf("err = %v", err)
	}
}
