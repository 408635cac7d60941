package headless

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/internal/agentsim"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/internal/tomltext"
)

// A hostile project: what it names and prints would act on the person's terminal if printed
// as it is. Each is shown visibly instead, everywhere hooksup prints it.
const (
	// hostileCheck is a check's name that would clear the screen and reverse what follows.
	hostileCheck      = "tests\x1b[2J\u202Egnp.exe"
	hostileCheckShown = `tests\e[2J<U+202E>gnp.exe`
	// hostileCommand is a check's command (short enough that the reason quotes it) whose
	// comment would set the terminal's title, return the cursor, ring, start a C1 CSI and
	// reverse the text.
	hostileCommand      = "sh ./check.sh # \x1b]0;PWNED\a\r\u009b\u202E"
	hostileCommandShown = `sh ./check.sh # \e]0;PWNED\a\r<U+009B><U+202E>`
	// hostileReasonShown is the command as the reason quotes it: as hooksup trust shows it.
	hostileReasonShown = "(`" + hostileCommandShown + "`)"
	// hostileDir is a project directory's name with a newline, an escape and a bidi override.
	hostileDir      = "proj\x1b[31m\nline\u202Etxt"
	hostileDirShown = `proj\e[31m\nline<U+202E>txt`
	// hostileScript is what the check prints: colours, a bell, a C1 CSI, a bidi override, a
	// carriage return.
	hostileScript = "printf 'OUT-START \\033[31mred\\033[0m\\a \\302\\233 \\342\\200\\256evil OUT-END\\n'\n" +
		"printf 'progress 10%%\\rCR-END\\n'\nexit 1\n"
	// hostileOutputShown is the output's first line as a person reads it: the escape sequences
	// gone (plain text), the controls and the bidi override shown visibly.
	hostileOutputShown = `OUT-START red\a <U+009B> <U+202E>evil OUT-END`
)

// hostileProject makes s's project the hostile directory, with the hostile check's script, and
// returns the configuration (in mode) that runs the hostile check.
func hostileProject(t *testing.T, s *e2e.Sandbox, mode string) string {
	t.Helper()
	s.Project = filepath.Join(s.Project, hostileDir)
	if err := os.Mkdir(s.Project, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.Project, "check.sh"), []byte(hostileScript), 0o600); err != nil {
		t.Fatal(err)
	}
	return "mode = " + tomltext.Quote(mode) + "\ndecision_timeout = \"10m\"\n[stop]\nmax_continuations = 1\n" +
		"[[stop.checks]]\nname = " + tomltext.Quote(hostileCheck) + "\ncommand = " + tomltext.Quote(hostileCommand) + "\n"
}

// assertVisible fails unless out holds nothing a terminal acts on but newlines and tabs, and
// shows each of shows.
func assertVisible(t *testing.T, what, out string, shows ...string) {
	t.Helper()
	if termsafe.HasControl(strings.NewReplacer("\n", "", "\t", "").Replace(out)) {
		t.Errorf("%s reaches the terminal with controls in it:\n%q", what, out)
	}
	for _, s := range shows {
		if !strings.Contains(out, s) {
			t.Errorf("%s does not show %q:\n%s", what, s, out)
		}
	}
}

// hooksup check, init, doctor and the errors that name the hostile project's directory, a
// key of its configuration or its check print them visibly: no byte of them acts on the
// terminal, and a newline in a path does not start a line. (The trust store keeps a path on a
// line: a directory whose name holds a newline cannot be trusted, so the checks' file is
// named by --config.)
func TestHostileProjectOnTheCommandLine(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	cfg := s.Config(hostileProject(t, s, "auto"))
	code, out := s.Hooksup(t, "--config", cfg, "check")
	if code != 1 {
		t.Fatalf("hooksup check: exit %d\n%s", code, out)
	}
	assertVisible(t, "hooksup check", out, "✗ "+hostileCheckShown+": exit 1", hostileReasonShown, hostileOutputShown, "CR-END")
	_, out = s.Hooksup(t, "--config", cfg, "check", "-v")
	assertVisible(t, "hooksup check -v", out, "✗ "+hostileCheckShown+": exit 1", hostileOutputShown, "CR-END")

	// A configuration error quoting a hostile key, in a file of the hostile directory.
	bad := s.Config("\"key\\u001b[2J\\u202E\" = 1\n")
	_, out = s.Hooksup(t, "--config", bad, "check")
	assertVisible(t, "a configuration error", out, hostileDirShown+"/test.toml", `key\e[2J<U+202E>`)

	// init in a hostile directory says where it wrote; what follows names that file.
	s.Project = filepath.Join(s.Project, hostileDir)
	os.Mkdir(s.Project, 0o700)
	written := hostileDirShown + "/" + hostileDirShown + "/.hooksup.toml"
	code, out = s.Hooksup(t, "init", "--no-run")
	if code != 0 {
		t.Fatalf("hooksup init: exit %d\n%s", code, out)
	}
	assertVisible(t, "hooksup init", out, "wrote /", written)
	_, out = s.Hooksup(t, "init", "--no-run")
	assertVisible(t, "hooksup init's error", out, written+" already exists")
	_, out = s.Hooksup(t, "check")
	assertVisible(t, "hooksup check's error", out, written+" is not trusted")
	_, out = s.Hooksup(t, "doctor")
	assertVisible(t, "hooksup doctor", out, written+" (project): not trusted")
}

// A headless session's verdict lines and hooksup log show the hostile check's name, command
// and output visibly.
func TestHostileProjectHeadlessAndLog(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	cfg := s.Config(hostileProject(t, s, "auto"))
	r := s.RunSim(cfg, agentsim.Scenario{}, "-p", "go")
	if r.Code != 0 {
		t.Fatalf("exit %d\n%s", r.Code, r.Stderr)
	}
	assertVisible(t, "the headless session's stderr", r.Stderr, "Stop → block: continued (check "+hostileCheckShown+" failed)")
	assertVisible(t, "the headless session's stdout", r.Stdout)
	out := e2e.HooksupOut(t, s, "log")
	assertVisible(t, "hooksup log", out, "Stop → block: continued (check "+hostileCheckShown+" failed)", "check "+hostileCheckShown+": exit 1",
		"reason: The check", hostileReasonShown)
}

// hooksup ls, status, watch and deny show a session of the hostile project visibly: ls's table
// keeps one row for it, its columns aligned; the watch's header and boxes stay whole.
func TestHostileProjectAcrossSessions(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	cfg := s.Config(hostileProject(t, s, "ask"))
	tm := e2e.SimTUI(t, s, agentsim.Scenario{Prompts: []string{"go"}}, "--config", cfg)
	tm.WaitText(30*time.Second, "⚑ claude wants to stop")
	_, status := s.Hooksup(t, "status")
	assertVisible(t, "hooksup status", status, "1 waiting on you")

	_, out := s.Hooksup(t, "ls")
	assertVisible(t, "hooksup ls", out, hostileDirShown)
	rows := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(rows) != 2 || !strings.HasSuffix(rows[1], s.Project[:strings.Index(s.Project, hostileDir)]+hostileDirShown) ||
		strings.Index(rows[0], "PROJECT") != strings.Index(rows[1], "/") {
		t.Errorf("hooksup ls's table is not one aligned row for the session:\n%s", out)
	}

	runDir := ""
	for _, kv := range s.Env {
		if v, ok := strings.CutPrefix(kv, "XDG_RUNTIME_DIR="); ok {
			runDir = v
		}
	}
	home, env := e2e.OtherTerminal(t, runDir)
	w := e2e.StartTmux(t, 150, 40, append(env, "TERM=xterm-256color"), home, e2e.HooksupBin, "watch")
	scr := w.WaitText(30*time.Second, "⚑ Stop", "OUT-END")
	assertVisible(t, "hooksup watch's screen", scr, hostileDirShown+" · claude", "check "+hostileCheckShown, hostileReasonShown, hostileOutputShown)
	lines := strings.Split(strings.TrimRight(scr, "\n"), "\n")
	if !strings.HasPrefix(lines[0], " hooksup watch · 1 session · 1 waiting on you") {
		t.Errorf("the watch's header line is broken:\n%s", scr)
	}
	for i, l := range lines {
		if strings.HasPrefix(l, "│") && (!strings.HasSuffix(l, "│") || utf8.RuneCountInString(l) != 150) {
			t.Errorf("row %d is not a whole row of its box: %q", i, l)
		}
	}
	if title := w.Display("#{pane_title}"); strings.Contains(title, "PWNED") {
		t.Errorf("the check set the terminal's title: %q", title)
	}

	_, out = s.Hooksup(t, "deny")
	assertVisible(t, "hooksup deny", out, "deny: the agent may stop at Stop in session", hostileDirShown+")")
}

// A session's TUI shows the hostile check visibly in the banner, the checks pane and the
// verdicts pane (its list and a verdict's detail), and its header line stays whole.
func TestHostileProjectSessionTUI(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	cfg := s.Config(hostileProject(t, s, "ask"))
	tm := e2e.SimTUI(t, s, agentsim.Scenario{Prompts: []string{"go", "again"}}, "--config", cfg)
	const wait = 30 * time.Second
	headerWhole := func(scr string) {
		t.Helper()
		if l := strings.SplitN(scr, "\n", 2)[0]; !strings.HasPrefix(l, " hooksup") || !strings.Contains(l, "mode ask") {
			t.Errorf("the header line is broken:\n%s", scr)
		}
	}
	scr := tm.WaitText(wait, "⚑ claude wants to stop", "OUT-END")
	assertVisible(t, "the session's screen with the question", scr, hostileReasonShown, "✗ "+hostileCheckShown+" exit 1",
		"$ "+hostileCommandShown, hostileOutputShown)
	headerWhole(scr)

	// Continue: the next stop reaches the limit and is let stop; the next turn asks again.
	tm.Keys("C-]", "a")
	scr = tm.WaitText(wait, "continued by you The check", "let stop (limit reached)", "⚑ claude wants to stop")
	assertVisible(t, "the session's screen with the verdicts", scr)
	headerWhole(scr)
	// The verdicts pane's detail of the first verdict, the one the check decided.
	tm.Keys("C-]", "Tab")
	tm.Keys("Enter")
	tm.WaitText(wait, "let stop (limit reached) · logged allow")
	tm.Keys("Up")
	scr = tm.WaitText(wait, "✗ "+hostileCheckShown+" exit 1 in")
	assertVisible(t, "the verdict's detail", scr, "│ "+hostileOutputShown)
	headerWhole(scr)
	if title := tm.Display("#{pane_title}"); strings.Contains(title, "PWNED") {
		t.Errorf("the check set the terminal's title: %q", title)
	}
}

// The hostile check's name is shown one way wherever hooksup names it — in the ✗ line, in the
// reason the agent reads, in a warning, in a configuration error, in doctor — never Go's
// quoting (\x1b, \u202e) in one place and \e, <U+202E> in another.
func TestHostileCheckNameShownOneWay(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	quoted := `"` + hostileCheckShown + `"`
	noOtherWay := func(what, out string) {
		t.Helper()
		if strings.Contains(out, `\x1b`) || strings.Contains(strings.ToLower(out), `\u202e`) {
			t.Errorf("%s shows the name another way:\n%s", what, out)
		}
	}
	check := "[[stop.checks]]\nname = " + tomltext.Quote(hostileCheck) + "\ncommand = \"echo no; exit 1\"\n"

	cfg := s.Config("mode = \"auto\"\n" + check)
	_, out := s.Hooksup(t, "--config", cfg, "check")
	assertVisible(t, "hooksup check", out, "✗ "+hostileCheckShown+": exit 1", "The check "+quoted)
	noOtherWay("hooksup check", out)

	// A check that only warns, in a headless session and in its log.
	cfg = s.Config("mode = \"auto\"\n" + check + "retry_on_failure = false\n")
	r := s.RunSim(cfg, agentsim.Scenario{}, "-p", "go")
	assertVisible(t, "the headless session's stderr", r.Stderr, "check "+quoted+" failed (exit 1)")
	noOtherWay("the headless session's stderr", r.Stderr)
	out = e2e.HooksupOut(t, s, "log")
	assertVisible(t, "hooksup log", out, "check "+quoted+" failed (exit 1)")
	noOtherWay("hooksup log", out)

	// Two checks of that name: the configuration's error.
	cfg = s.Config(check + check)
	_, out = s.Hooksup(t, "--config", cfg, "check")
	assertVisible(t, "the configuration's error", out, "two checks are named "+quoted)
	noOtherWay("the configuration's error", out)

	// doctor: the check's program is not installed.
	cfg = s.Config("[[stop.checks]]\nname = " + tomltext.Quote(hostileCheck) + "\ncommand = \"no-such-tool-xyz --all\"\n")
	_, out = s.Hooksup(t, "--config", cfg, "doctor")
	assertVisible(t, "hooksup doctor", out, "check "+quoted+": no-such-tool-xyz not found on the PATH")
	noOtherWay("hooksup doctor", out)
}

// A session or host the person typed with a control in it is named back the same way too.
func TestHostileSessionAndHostShownOneWay(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	const typed, shown = "x\x1b[2J\u202E", `"x\e[2J<U+202E>"`
	for _, args := range [][]string{
		{"approve", "--local", typed},
		{"log", "--session", typed},
		{"ls", "--host", "-" + typed},
	} {
		_, out := s.Hooksup(t, args...)
		want := shown
		if args[0] == "ls" {
			want = `"-x\e[2J<U+202E>"`
		}
		assertVisible(t, "hooksup "+args[0], out, want)
		if strings.Contains(out, `\x1b`) || strings.Contains(strings.ToLower(out), `\u202e`) {
			t.Errorf("hooksup %s shows what was typed another way:\n%s", args[0], out)
		}
	}
	cfg := s.Config("[hub]\nhosts = [" + tomltext.Quote("-"+typed) + "]\n")
	_, out := s.Hooksup(t, "--config", cfg, "ls")
	assertVisible(t, "a [hub] hosts error", out, `"-x\e[2J<U+202E>" is not a host ssh accepts`)
}
