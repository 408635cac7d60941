// Package agent describes what differs between the coding agents hooksup supervises: the Agent
// interface, and the few helpers their packages share. Each agent is a package of its own under
// agent/ (agent/claude, agent/codex, agent/gemini, agent/copilot, agent/qwen), and agent/agents
// is the one list of them.
// Everything else — the socket, the engine, the checks, the questions, the verdict log, the
// front ends — is shared and knows an agent only through this interface.
//
// An agent is the binary and how it is found; how hooksup's hooks reach it for one session
// without touching the user's files; which hook events it knows (by version); how its hook
// input maps to hooksup's ([hooks.Input]) and how it reads an answer; where it writes its
// transcript and in what format; how hooksup install registers its hook for good and what
// doctor says of it; and its caps and quirks. A new agent is one new package under agent/ and
// one line in agent/agents.
//
// The package imports no UI, and nothing the hook client (cmd/hooksup-hook) links: the hook
// path stays as small as it is.
package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/transcript"
)

// Agent is what differs between the coding agents hooksup supervises.
type Agent interface {
	// Dialect is how it speaks the hook protocol (its package's wire subpackage): Name is the
	// agent's command, as the person types it after hooksup and reads it in the header and
	// messages; Input adapts a hook's input to hooksup's names, in place (the supervisor calls
	// it for every hook before anything reads it); Answer encodes a verdict as the agent reads
	// a hook's answer.
	hooks.Dialect
	// Product is the agent's own name, for messages: "Claude Code".
	Product() string
	// BinEnv is the environment variable that names the agent's binary (HOOKSUP_CLAUDE_BIN);
	// without it (and without a flag) the binary is Name on PATH.
	BinEnv() string
	// InstallHint tells how to install the agent, for an error that did not find it.
	InstallHint() string
	// Help is the help of `hooksup NAME`.
	Help() string

	// Events returns the hook events to inject into the agent at bin (a path) run with args;
	// an error refuses the agent (e.g. a version hooksup cannot supervise).
	Events(ctx context.Context, bin string, args []string, logger *slog.Logger) ([]string, error)
	// Inject returns how to start the agent with hooksup's hooks for one session: the
	// arguments (the user's args with hooksup's injection) and any file it wrote in dir for
	// the session (removed when the session ends). It never writes the user's files.
	Inject(h Hooks, args []string, dir, id string) (Launch, error)
	// Headless reports whether args run the agent without a full-screen UI of its own
	// (claude -p, codex exec): hooksup's lines would not tear it.
	Headless(args []string) bool

	// BlockCap is the agent's own limit on stops blocked in a row, as its environment sets it
	// (0: none).
	BlockCap(getenv func(string) string) int

	// Transcripts is a glob of the transcripts the agent writes for a session in projectDir
	// (given the agent's environment), and Reply reports a transcript line that is a model's
	// reply: together they tell an agent that replies without running hooksup's hooks.
	Transcripts(getenv func(string) string, projectDir string) string
	Reply(line []byte) bool
	// Transcript makes the decoder of the transcript a hook names in transcript_path, for an
	// agent whose format is not the transcript parser's own (nil: it is).
	Transcript() func(maxText int) transcript.Decoder
	// ResumeID is the session to resume, from the transcript a hook named ("" when none);
	// Resume is the command that resumes a session under hooksup, before the session's id
	// ("" when the agent has no such command).
	ResumeID(transcriptPath string) string
	Resume() string
	// ResumeHint rewrites a line of the agent's last screen that names the agent's own resume
	// command (which would resume the session without hooksup) into hooksup's, and reports
	// whether the line was one. A command wider than the pane comes joined from its rows.
	ResumeHint(line string) (string, bool)
}

// CapEnd is an Agent whose transcript says when its own cap on blocked stops ended a turn that
// hooksup had it continue: CapEnded reports a record of its main transcript that says so.
type CapEnd interface {
	CapEnded(r transcript.Record) bool
}

// NoHooksExit is an Agent that can tell, from the exit status of a run in which none of
// hooksup's hooks arrived, why it ran none: NoHooksWhy returns the reason, or "" when the status says
// nothing of it.
type NoHooksExit interface {
	NoHooksWhy(code int) string
}

// Leftovers is an Agent whose Inject writes in the runtime directory (its dir argument), each
// name the session's id and a suffix of its own: Leftovers are those suffixes, for the sweep of
// what a killed session left there (runtimedir.SweepStale).
type Leftovers interface {
	Leftovers() []string
}

// TitleState is an Agent that tells its state in its terminal's window title. State reads a
// title: "idle", "working" or "blocked" (kind "permission" or "question"), as claude's Program
// Status reports say them, and a few words for the person; ok is false for a title that says
// none.
type TitleState interface {
	TitleState(title string) (state, kind, msg string, ok bool)
}

// JoinedStopReasons is an Agent that continues a turn a Stop hook blocked with the reasons of
// all the Stop hooks that blocked joined into one prompt, hooksup's among them, and fires
// UserPromptSubmit for it (hooks.Input.Continuing). OtherStopReasons is what the other hooks
// said in such a prompt, sent being hooksup's reason as the agent received it ("" when hooksup
// let it stop): "" when they said nothing.
type JoinedStopReasons interface {
	OtherStopReasons(prompt, sent string) string
}

// Permissions is an Agent whose PermissionRequest hook can answer the agent's own permission
// dialog while the dialog is shown beside it: the supervisor holds that hook until a person
// answers from elsewhere (hooksup approve or deny, watch, the page), and answers nothing when the
// person answered at the dialog first. An agent whose dialog waits for its hook (Codex) is not
// one: the hook would hide the dialog while it waits.
type Permissions interface {
	// AnswersPermission reports whether the dialog that a PermissionRequest with input in
	// announces can be answered by its hook.
	AnswersPermission(in *hooks.Input) bool
	// AlwaysRule is what answering "always" writes, in the person's words, and as the answer
	// carries it; ok is false when the input offers no rule.
	AlwaysRule(in *hooks.Input) (words string, rule json.RawMessage, ok bool)
	// PermissionAnswer encodes an answer (allow, deny with message for the agent, always with
	// rule) as the hook prints it.
	PermissionAnswer(decision, message string, rule json.RawMessage) []byte
}

// KeyPermissions is an Agent with permission dialogs that no hook can answer but keys can
// (Gemini CLI's; Copilot CLI's for a shell command; Claude Code's on its auto mode): the
// supervisor that owns the agent's terminal reads its screen for them, makes each a question
// answered from anywhere, and answers it with the keys a person would press.
type KeyPermissions interface {
	// KeyDialog reads a screen (its rows, top to bottom, as plain text) and returns the
	// permission dialog shown there that only keys answer; ok is false when it shows none.
	KeyDialog(screen []string) (d KeyDialog, ok bool)
}

// KeyDialog is a permission dialog on an agent's screen, as read there.
type KeyDialog struct {
	// Tool and Command are what the agent asks to run, as the dialog shows them (the command's
	// rows joined by "\n"): the same dialog reads the same while it is on screen.
	Tool, Command string
	// Allow are the keys that allow the call once from the dialog as it is drawn now (its
	// selection moved first where it must be); the first is pressed, and the screen read again
	// before the next. Deny refuses it: Escape, which cancels every agent's dialog.
	Allow, Deny []string
	// Always are the keys that allow the call and its like from now on, as the dialog's own
	// option does, and AlwaysSays what that option writes, in the dialog's words; none where
	// the dialog offers no such option.
	Always     []string
	AlwaysSays string
	// DenyWith are the keys that refuse the call with a message the model reads, reason,
	// typed into the dialog's own field for it (session.Typed), from the dialog as drawn now:
	// the selection moved to that field, the reason typed, then Enter once the screen shows
	// it. The same keys are returned while the reason typed is still being drawn, none when
	// the field holds other text. Nil where the dialog takes no message (deny is Escape).
	DenyWith func(reason string) []string
	// Typing: the dialog's field for the model's feedback is open (claude's, after Tab on No).
	// Someone is typing there: hooksup, for a deny's reason, or else the person, whose answer
	// the dialog then is.
	Typing bool
	// Confirm is how long the agent may take to draw the answer (the dialog gone) after the
	// answer's last key before that key is pressed again; 0 for the supervisor's own wait. An
	// agent slow to draw waits longer, so that an answer it is still drawing is not given up on.
	Confirm time.Duration
}

// SelectKeys are the keys of a dialog whose options are chosen with Up and Down and taken with
// Enter that move its selection from option from to option to (numbered from 1), then take it.
func SelectKeys(from, to int) []string {
	var keys []string
	for ; from > to; from-- {
		keys = append(keys, "Up")
	}
	for ; from < to; from++ {
		keys = append(keys, "Down")
	}
	return append(keys, "Enter")
}

// Installer is an Agent whose own settings `hooksup install` registers hooksup's stop hook in,
// so that the agent run without hooksup has its stops decided by the project's checks
// (engine.StandaloneHook), and `hooksup uninstall` removes it again, and nothing else.
type Installer interface {
	// Scopes are the install scopes it takes, the default first; ScopeHelp says them for
	// --help, and InstallHelp where install writes.
	Scopes() []string
	ScopeHelp() string
	InstallHelp() string
	Install(o Install) error
	Uninstall(o Install) error
}

// Install is what an install or uninstall needs: where, and what the hook runs.
type Install struct {
	Scope      string // one of Scopes, "" for the default
	ProjectDir string // the directory hooksup runs in
	Home       string // the person's home, absolute
	Getenv     func(string) string
	Stdout     io.Writer // what was done, for the person
	// Bin is the program the installed hook runs (the hook client beside hooksup, else
	// hooksup), and Timeout the stop hook's timeout: install only asks for them.
	Bin     func() (string, error)
	Timeout func() time.Duration
	// SharedBin is the program the hook runs from a settings file that others share (a
	// project's, kept in git): hooksup by name, as each machine finds it on its PATH, never this
	// machine's path to it. Nil: Bin.
	SharedBin func() string
}

// ScopeError is an install scope the agent does not take: a usage error.
type ScopeError struct{ Msg string }

func (e *ScopeError) Error() string { return e.Msg }

// Doctor is an Agent that `hooksup doctor` examines: the binary hooksup would run, its version,
// and the hooks of the agent's own settings.
type Doctor interface {
	Doctor(ctx context.Context, d Check)
}

// Check is where doctor's findings of an agent go.
type Check struct {
	Bin        string // the binary hooksup would run (Bin)
	ProjectDir string
	Home       string
	Getenv     func(string) string
	Out        io.Writer                     // a note ("  · …")
	OK, Bad    func(format string, a ...any) // a finding, fine or a problem
}

// Hooks is what hooksup wants the agent to run for one session.
type Hooks struct {
	Events  []string                  // the hook events, as hooks names them
	Command func(event string) string // the shell command of each event's hook
	// StopTimeout is the timeout of the Stop and SubagentStop hooks (longer than every check
	// plus decision_timeout), OtherTimeout the others'.
	StopTimeout, OtherTimeout time.Duration
	// Getenv reads the agent's environment (os.Getenv when nil): where its own files are.
	Getenv func(string) string
	// Blocks is the most stops hooksup will block in a row in the session, its own budget (the
	// goal's turns, max_continuations, max_steers): an agent whose cap on blocked stops can be
	// set at launch has it raised in Launch.Env so that hooksup's budget decides, unless the
	// person set the cap themselves. 0 leaves the cap as it is.
	Blocks int
}

// Launch is how the agent starts for one session.
type Launch struct {
	Args  []string // the agent's arguments, hooksup's injection included
	Files []string // files written for the session, to remove when it ends
	Env   []string // variables added to the agent's environment (KEY=VALUE)
	// Cleanup, when set, runs once the agent has exited: what the injection made for the
	// session goes; an error is logged.
	Cleanup func() error
	// Warnings are what the person should know about how the agent will run hooksup's hooks
	// (e.g. an argument of theirs that replaces them).
	Warnings []string
}

// ErrNotFound is returned when the agent's binary cannot be found.
var ErrNotFound = errors.New("not found")

// Find resolves a's binary as exec does: a bare name on PATH, a path as it is. What is wrong is
// said for each (not on PATH, no such file, not a file, not executable), with the fix.
func Find(a Agent, name string) (string, error) {
	bin, err := exec.LookPath(name)
	if err == nil {
		return bin, nil
	}
	point := fmt.Sprintf("point --%s-bin / %s at %s", a.Name(), a.BinEnv(), a.Name())
	install := a.InstallHint()
	notFound := fmt.Errorf("%s %w", a.Name(), ErrNotFound)
	if !strings.Contains(name, "/") {
		return "", fmt.Errorf("%w: %q is not on PATH: %s or %s", notFound, name, install, point)
	}
	fi, serr := os.Stat(name)
	switch {
	case errors.Is(serr, fs.ErrNotExist):
		return "", fmt.Errorf("%w: %q does not exist: %s, or %s", notFound, name, point, install)
	case serr != nil:
		return "", fmt.Errorf("%w: %q: %v", notFound, name, serr)
	case fi.IsDir():
		return "", fmt.Errorf("%w: %q is a directory: %s", notFound, name, point)
	}
	return "", fmt.Errorf("%w: %q is not executable: chmod +x it, or %s", notFound, name, point)
}

// Bin is the binary to run for a: the flag's value, else a.BinEnv()'s, else a.Name() on PATH.
func Bin(a Agent, flag string, getenv func(string) string) string {
	if flag != "" {
		return flag
	}
	if b := getenv(a.BinEnv()); b != "" {
		return b
	}
	return a.Name()
}

// NPMVersion is the version of pkg that an npm install of the program at bin names in its
// package.json, in the directory of bin's real path or one of the two above it: read without
// running the program (a node program takes a second or more to start).
func NPMVersion(bin, pkg string) (hooks.Version, bool) {
	real, err := filepath.EvalSymlinks(bin)
	if err != nil {
		return hooks.Version{}, false
	}
	dir := filepath.Dir(real)
	for range 3 {
		if b, err := os.ReadFile(filepath.Join(dir, "package.json")); err == nil {
			var p struct{ Name, Version string }
			if json.Unmarshal(b, &p) == nil && p.Name == pkg {
				return hooks.ParseVersion(p.Version)
			}
		}
		dir = filepath.Dir(dir)
	}
	return hooks.Version{}, false
}

// PromptBox is an Agent whose empty prompt box shows more than its prompt mark alone (a
// placeholder, dimmed, that plain text cannot tell from typed text but by its words): PromptEmpty
// reads a screen (its rows, top to bottom, as plain text) and reports whether it shows the
// agent's prompt box empty. An agent that is none has the rule of MarkAlone.
type PromptBox interface {
	PromptEmpty(screen []string) bool
}

// PromptEmpty reports whether screen shows a's prompt box empty: its PromptBox's rule, else
// MarkAlone.
func PromptEmpty(a Agent, screen []string) bool {
	if pb, ok := a.(PromptBox); ok {
		return pb.PromptEmpty(screen)
	}
	return MarkAlone(screen)
}

// MarkAlone reports whether a row of screen holds a prompt mark alone ("❯", ">", "›"), inside a
// box's borders or not: an empty prompt box.
func MarkAlone(screen []string) bool { return PromptWith(screen) }

// PromptWith reports whether a row of screen holds a prompt mark ("❯", ">", "›") alone or
// followed by one of placeholders (the whole rest of the row), inside a box's borders or not.
func PromptWith(screen []string, placeholders ...string) bool {
	for _, l := range screen {
		l = strings.TrimSpace(strings.Trim(strings.TrimSpace(l), "│┃|"))
		for _, mark := range []string{"❯", ">", "›"} {
			rest, ok := strings.CutPrefix(l, mark)
			if !ok {
				continue
			}
			rest = strings.TrimSpace(rest)
			if rest == "" || slices.Contains(placeholders, rest) {
				return true
			}
		}
	}
	return false
}
