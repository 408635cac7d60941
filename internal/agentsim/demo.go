package agentsim

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// DemoOptions configure the interactive demo agent.
type DemoOptions struct {
	Settings Settings
	Cwd      string
	Home     string
	Env      []string
	In       io.Reader // keys (a terminal in raw mode)
	Out      io.Writer
	// AutoPrompt is typed for the person when the demo starts ("" for none).
	AutoPrompt string
	// Speed scales every delay (1 is real time; tests use less).
	Speed float64
	// IdleAfter fires the idle_prompt notification after this long without input (0: never).
	IdleAfter time.Duration
}

// Demo is a small terminal agent that looks and behaves like Claude Code at the hook boundary,
// for `hooksup demo`: the person types prompts, it "works" (reads, edits, runs tests), asks for
// permission, runs a subagent, and stops — firing the real hooks each time. Escape interrupts it
// as it does claude: no hook fires after an interrupt.
type Demo struct {
	o     DemoOptions
	agent *Agent

	mu     sync.Mutex
	cancel context.CancelFunc // the running turn's, nil when idle
	keys   chan byte          // keys for the running turn (permission answers)
	asking bool               // a permission prompt waits for y/n
	line   []rune
	turns  int
}

// DemoModel is the model the demo agent names, in its SessionStart and its transcript.
const DemoModel = "claude-demo"

// EnvDemoHome is the home directory the demo agent writes its transcript under.
const EnvDemoHome = "HOOKSUP_DEMO_HOME"

// RunDemo runs the demo agent until the person quits (Ctrl-C or Ctrl-D) or ctx ends.
func RunDemo(ctx context.Context, o DemoOptions) int {
	if o.Speed <= 0 {
		o.Speed = 1
	}
	d := &Demo{o: o, agent: New(o.Settings, o.Cwd, o.Home, o.Env), keys: make(chan byte, 16)}
	d.agent.Model = DemoModel
	d.agent.openTranscript()
	defer d.agent.closeTranscript()
	d.printf("\x1b[2J\x1b[H")
	d.printf("\x1b[1;38;5;209m✻ hooksup demo agent\x1b[0m \x1b[2m— a simulated Claude Code: no API key, no network\x1b[0m\r\n")
	d.printf("\x1b[2m  It works, asks for permission, runs a subagent and stops, firing real hooks.\r\n")
	d.printf("  Type a prompt and press Enter · Esc interrupts · Ctrl-D quits\x1b[0m\r\n\r\n")
	start := d.agent.base("SessionStart")
	start["source"], start["model"] = "startup", d.agent.Model
	d.agent.Fire(ctx, "SessionStart", start)

	// Keys arrive in chunks as the terminal sent them: a lone ESC is the Escape key, ESC
	// followed by more in the same chunk is a sequence (arrows, …) and is skipped.
	keys := make(chan byte, 256)
	go func() {
		buf := make([]byte, 256)
		for {
			n, err := o.In.Read(buf)
			chunk := buf[:n]
			for i := 0; i < len(chunk); i++ {
				if chunk[i] == 0x1b && i+1 < len(chunk) {
					j := i + 1
					if chunk[j] == '[' || chunk[j] == 'O' {
						j++
						for j < len(chunk) && (chunk[j] < 0x40 || chunk[j] > 0x7e) {
							j++
						}
					}
					i = j
					continue
				}
				keys <- chunk[i]
			}
			if err != nil {
				close(keys)
				return
			}
		}
	}()
	done := make(chan struct{})
	defer close(done)
	turnDone := make(chan struct{}, 1)
	if o.AutoPrompt != "" {
		d.startTurn(ctx, o.AutoPrompt, turnDone)
	} else {
		d.prompt()
	}
	submit := false
	var idle <-chan time.Time
	resetIdle := func() {
		if o.IdleAfter > 0 {
			idle = time.After(o.IdleAfter)
		}
	}
	resetIdle()
	for {
		select {
		case <-ctx.Done():
			return d.end(ctx)
		case <-turnDone:
			d.prompt()
			resetIdle()
			if submit {
				submit = false
				p := strings.TrimSpace(string(d.line))
				d.line = d.line[:0]
				d.printf("\r\n")
				if p != "" {
					d.startTurn(ctx, p, turnDone)
				}
			}
		case <-idle:
			idle = nil
			if d.busy() {
				continue
			}
			n := d.agent.base("Notification")
			n["message"], n["notification_type"] = "Claude is waiting for your input", "idle_prompt"
			d.agent.Fire(ctx, "Notification", n)
		case b, ok := <-keys:
			if !ok {
				return d.end(ctx)
			}
			resetIdle()
			if b == 0x1b {
				// Escape: interrupt the turn, if one runs.
				d.mu.Lock()
				cancel := d.cancel
				d.mu.Unlock()
				if cancel != nil {
					cancel()
				}
				continue
			}
			if d.busy() {
				d.mu.Lock()
				asking := d.asking
				d.mu.Unlock()
				if asking {
					select {
					case d.keys <- b:
					default:
					}
				} else if b == '\r' || b == '\n' {
					submit = true // typed ahead: submitted when the turn ends
				} else if b >= 0x20 && b != 0x7f {
					d.line = append(d.line, rune(b)) // typed ahead: shown at the next prompt
				}
				continue
			}
			switch b {
			case 3, 4: // Ctrl-C, Ctrl-D
				return d.end(ctx)
			case '\r', '\n':
				p := strings.TrimSpace(string(d.line))
				d.line = d.line[:0]
				d.printf("\r\n")
				if p == "" {
					d.prompt()
					continue
				}
				d.startTurn(ctx, p, turnDone)
			case 0x7f, 8:
				if len(d.line) > 0 {
					d.line = d.line[:len(d.line)-1]
					d.printf("\b \b")
				}
			default:
				if b >= 0x20 {
					d.line = append(d.line, rune(b))
					d.printf("%c", b)
				}
			}
		}
	}
}

func (d *Demo) end(ctx context.Context) int {
	e := d.agent.base("SessionEnd")
	e["reason"] = "prompt_input_exit"
	d.agent.Fire(context.WithoutCancel(ctx), "SessionEnd", e)
	d.printf("\r\n\x1b[2mBye.\x1b[0m\r\n")
	return 0
}

func (d *Demo) busy() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.cancel != nil
}

func (d *Demo) printf(format string, a ...any) { fmt.Fprintf(d.o.Out, format, a...) }

func (d *Demo) prompt() {
	d.printf("\r\n\x1b[1;38;5;209m>\x1b[0m %s", string(d.line))
}

func (d *Demo) startTurn(ctx context.Context, prompt string, done chan<- struct{}) {
	tctx, cancel := context.WithCancel(ctx)
	d.mu.Lock()
	d.cancel = cancel
	d.turns++
	n := d.turns
	d.mu.Unlock()
	go func() {
		interrupted := !d.turn(tctx, n, prompt)
		d.mu.Lock()
		d.cancel = nil
		d.mu.Unlock()
		cancel()
		if interrupted {
			d.printf("\r\n  \x1b[31m⎿  Interrupted by user\x1b[0m\r\n")
		}
		done <- struct{}{}
	}()
}

// sleep waits d×speed, or returns false at once when the turn is interrupted.
func (d *Demo) sleep(ctx context.Context, dur time.Duration) bool {
	t := time.NewTimer(time.Duration(float64(dur) * d.o.Speed))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

func (d *Demo) say(ctx context.Context, text string) bool {
	d.printf("\x1b[1m●\x1b[0m %s\r\n", text)
	return d.sleep(ctx, 400*time.Millisecond)
}

func (d *Demo) tool(ctx context.Context, name, arg, result string) bool {
	d.printf("\x1b[32m●\x1b[0m \x1b[1m%s\x1b[0m(%s)\r\n", name, arg)
	if !d.spin(ctx, 900*time.Millisecond) {
		return false
	}
	d.printf("  \x1b[2m⎿  %s\x1b[0m\r\n", result)
	input := map[string]any{"file_path": arg}
	if name == "Bash" {
		input = map[string]any{"command": arg}
	}
	d.agent.toolUse(name, input, result)
	return true
}

// spin shows a working indicator for dur.
func (d *Demo) spin(ctx context.Context, dur time.Duration) bool {
	frames := []string{"✶", "✸", "✹", "✺", "✹", "✷"}
	steps := 6
	for i := 0; i < steps; i++ {
		d.printf("\r\x1b[38;5;209m%s\x1b[0m \x1b[2mWorking… (esc to interrupt)\x1b[0m", frames[i%len(frames)])
		if !d.sleep(ctx, dur/time.Duration(steps)) {
			d.printf("\r\x1b[K")
			return false
		}
	}
	d.printf("\r\x1b[K")
	return true
}

// turn plays one scripted turn; false when interrupted.
func (d *Demo) turn(ctx context.Context, n int, prompt string) bool {
	a := d.agent
	promptID := newID()
	up := a.base("UserPromptSubmit")
	up["prompt_id"], up["permission_mode"], up["prompt"] = promptID, "default", prompt
	a.Fire(ctx, "UserPromptSubmit", up)
	a.writeLine(map[string]any{"type": "user", "promptId": promptID, "message": map[string]any{"role": "user", "content": prompt}})
	if d.o.AutoPrompt == prompt && n == 1 {
		d.printf("\x1b[1;38;5;209m>\x1b[0m %s\r\n", prompt) // typed for the person
	}
	d.printf("\r\n")

	steps := []func() bool{
		func() bool { return d.say(ctx, "I'll look at how the flags are parsed first.") },
		func() bool { return d.tool(ctx, "Read", "cmd/main.go", "Read 142 lines") },
		func() bool { return d.permission(ctx, promptID) },
		func() bool { return d.subagent(ctx, promptID) },
		func() bool { return d.tool(ctx, "Update", "cmd/main.go", "Updated cmd/main.go with 6 additions") },
	}
	for _, step := range steps {
		if !step() {
			return false
		}
	}
	for k := 0; ; k++ {
		msg := fmt.Sprintf("Done: turn %d is finished.", n)
		if k > 0 {
			msg = fmt.Sprintf("Fixed it: turn %d is finished (attempt %d).", n, k+1)
		}
		if !d.say(ctx, msg) {
			return false
		}
		in := a.base("Stop")
		in["prompt_id"], in["permission_mode"], in["effort"] = promptID, "default", map[string]any{"level": "medium"}
		in["stop_hook_active"], in["last_assistant_message"] = k > 0, msg
		in["background_tasks"], in["session_crons"] = []any{}, []any{}
		a.assistant(msg)
		o := a.Fire(ctx, "Stop", in)
		if ctx.Err() != nil {
			return false
		}
		for _, m := range o.System {
			d.printf("  \x1b[33m⎿  %s\x1b[0m\r\n", oneLine(m))
		}
		if o.Halt {
			d.printf("  \x1b[33m⎿  Stopped: %s\x1b[0m\r\n", o.StopReason)
			return true
		}
		if !o.Block || k+1 > BlockCap {
			return true
		}
		d.printf("  \x1b[33m⎿  Stop hook feedback:\x1b[0m \x1b[2m%s\x1b[0m\r\n", oneLine(strings.Join(o.Reasons, " ")))
		if !d.tool(ctx, "Bash", "go test ./...", "ok  example.com/demo  0.21s") {
			return false
		}
	}
}

func (d *Demo) permission(ctx context.Context, promptID string) bool {
	pr := d.agent.base("PermissionRequest")
	pr["prompt_id"], pr["permission_mode"] = promptID, "default"
	pr["tool_name"], pr["tool_input"] = "Bash", map[string]any{"command": "go test ./...", "description": "Run the tests"}
	pr["permission_suggestions"] = []any{}
	// As claude does, the dialog shows beside the hook, which may wait for an answer from
	// elsewhere: the answer at the dialog comes first here.
	go d.agent.Fire(ctx, "PermissionRequest", pr)
	d.printf("\x1b[1;33m?\x1b[0m Allow \x1b[1mBash\x1b[0m(go test ./...)? \x1b[2m[y/n]\x1b[0m ")
	d.mu.Lock()
	d.asking = true
	d.mu.Unlock()
	defer func() {
		d.mu.Lock()
		d.asking = false
		d.mu.Unlock()
	}()
	notified := time.After(time.Duration(float64(6*time.Second) * d.o.Speed))
	for {
		select {
		case <-ctx.Done():
			return false
		case <-notified:
			n := d.agent.base("Notification")
			n["prompt_id"], n["message"], n["notification_type"] = promptID, "Claude needs your permission", "permission_prompt"
			go d.agent.Fire(ctx, "Notification", n)
		case b := <-d.keys:
			switch b {
			case 'y', 'Y', '\r':
				d.printf("yes\r\n")
				return d.tool(ctx, "Bash", "go test ./...", "FAIL example.com/demo [build failed]")
			case 'n', 'N':
				d.printf("no\r\n")
				return d.say(ctx, "Understood, I won't run the tests myself.")
			}
		}
	}
}

func (d *Demo) subagent(ctx context.Context, promptID string) bool {
	id := "a" + newID()[:16]
	st := d.agent.base("SubagentStart")
	st["prompt_id"], st["agent_id"], st["agent_type"] = promptID, id, "Explore"
	d.agent.Fire(ctx, "SubagentStart", st)
	d.printf("\x1b[35m●\x1b[0m \x1b[1mExplore\x1b[0m(Find where flags are defined)\r\n")
	for k := 0; ; k++ {
		if !d.spin(ctx, 700*time.Millisecond) {
			return false
		}
		in := d.agent.base("SubagentStop")
		in["prompt_id"], in["permission_mode"], in["effort"] = promptID, "default", map[string]any{"level": "medium"}
		in["agent_id"], in["agent_type"], in["stop_hook_active"] = id, "Explore", k > 0
		in["last_assistant_message"] = "Flags are defined in cmd/main.go with the flag package."
		in["background_tasks"], in["session_crons"] = []any{}, []any{}
		o := d.agent.Fire(ctx, "SubagentStop", in)
		if ctx.Err() != nil {
			return false
		}
		if !o.Block || k+1 > BlockCap {
			break
		}
		d.printf("  \x1b[2m⎿  steered: %s\x1b[0m\r\n", oneLine(strings.Join(o.Reasons, " ")))
	}
	d.printf("  \x1b[2m⎿  Done (3 tool uses · 1.2k tokens)\x1b[0m\r\n")
	return true
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 100 {
		s = s[:97] + "…"
	}
	return s
}

// DemoSettingsFromArgs finds --settings in args (as claude takes it).
func DemoSettingsFromArgs(args []string) (Settings, error) {
	for i := 0; i+1 < len(args); i++ {
		if args[i] == "--settings" {
			return ParseSettings(args[i+1])
		}
	}
	return Settings{}, nil
}

// DemoMainSpeed is the demo agent process: claude's --settings in args, the terminal on
// stdio; speed scales its delays (0 means real time).
func DemoMainSpeed(ctx context.Context, args []string, autoPrompt string, speed float64) int {
	s, err := DemoSettingsFromArgs(args)
	if err != nil {
		fmt.Fprintf(os.Stderr, "demo agent: %v\n", err)
		return 1
	}
	cwd, _ := os.Getwd()
	// The demo's transcript goes in the demo's own directory, removed when it ends: never
	// under the person's ~/.claude/projects.
	home := os.Getenv(EnvDemoHome)
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	return RunDemo(ctx, DemoOptions{Settings: s, Cwd: cwd, Home: home, Env: os.Environ(), In: os.Stdin, Out: os.Stdout,
		AutoPrompt: autoPrompt, IdleAfter: 20 * time.Second, Speed: speed})
}
