package gemini

import (
	"bytes"
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
	"runtime"
	"strings"
	"time"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/agent/gemini/wire"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/atomicfile"
	"github.com/hooksup/hooksup/transcript"
)

// Agent is Google's Gemini CLI (npm @google/gemini-cli). Its hooks are modelled on Claude
// Code's, under other names: AfterAgent is the Stop (its answer {"decision":"block","reason":…}
// makes gemini send the reason as the next prompt, and the next AfterAgent carries
// stop_hook_active), BeforeAgent a prompt's start, Notification with notification_type
// ToolPermission a permission dialog. It has no SubagentStop and no cap on blocked stops.
//
// Injection: gemini takes no settings file on its command line, and the one layer an
// environment variable adds for a run (the system defaults) is read only from a root-owned
// file. So hooksup moves gemini's home for the session (GEMINI_CLI_HOME) to a directory of its
// own in the runtime directory that mirrors the person's: the same entries as their home, as
// symbolic links, and a .gemini whose entries are links to theirs except settings.json, which
// is their settings with hooksup's hooks added. gemini reads and writes the person's files
// through the links (credentials, history, chats, trusted folders: GEMINI_CLI_TRUSTED_FOLDERS_PATH
// names their own file, which gemini replaces by a rename). What gemini creates or replaces in
// the session's .gemini instead (a file written by a rename, a new directory) is moved to the
// person's when the session ends, and a change it made to settings.json is applied to theirs
// without hooksup's hooks. Nothing of the person's, nor of the project, is written by hooksup.
//
// Trust stays the person's: gemini runs no settings hook in a folder it does not trust, and
// hooksup never trusts one for them; the supervisor notices the reply without a hook.
type Agent struct{ wire.Dialect }

// MinVersion is the oldest Gemini CLI hooksup supervises: AfterAgent's answer and input as
// 0.61.0 has them. Older ones are refused at start.
var MinVersion = hooks.Version{Major: 0, Minor: 61, Patch: 0}

// geminiEvent is gemini's name of each hook event hooksup injects into it.
var geminiEvent = map[string]string{
	hooks.SessionStart:     "SessionStart",
	hooks.UserPromptSubmit: "BeforeAgent",
	hooks.Notification:     "Notification",
	hooks.Stop:             "AfterAgent",
	hooks.SessionEnd:       "SessionEnd",
}

// geminiEvents are the events hooksup injects into gemini, by hooksup's names, in order.
var geminiEvents = []string{hooks.SessionStart, hooks.UserPromptSubmit, hooks.Notification, hooks.Stop, hooks.SessionEnd}

// HookEvents are the hook events hooksup gemini defines, by gemini's names.
func HookEvents() []string {
	out := make([]string, len(geminiEvents))
	for i, ev := range geminiEvents {
		out[i] = geminiEvent[ev]
	}
	return out
}

// geminiHookName names hooksup's hooks in gemini's settings (gemini shows it while a hook runs).
const geminiHookName = "hooksup"

func (Agent) Product() string     { return "Gemini CLI" }
func (Agent) BinEnv() string      { return "HOOKSUP_GEMINI_BIN" }
func (Agent) InstallHint() string { return "install Gemini CLI (npm install -g @google/gemini-cli)" }
func (Agent) Help() string {
	return "run gemini under supervision (gemini's exit status is hooksup's): the TUI in a terminal, headless for gemini -p"
}

// Events refuses a gemini older than MinVersion and returns the events hooksup injects. A gemini
// that is not found is left for Find to report; one whose version cannot be told gets them all
// (the supervisor warns if its hooks then never arrive).
func (Agent) Events(ctx context.Context, bin string, _ []string, logger *slog.Logger) ([]string, error) {
	path, err := exec.LookPath(bin)
	if err != nil {
		return nil, nil
	}
	start := time.Now()
	v, err := Version(ctx, path, os.Environ(), 20*time.Second)
	logger.Info("gemini version", "path", path, "version", v, "took", time.Since(start), "err", err)
	if v.Known() && v.Less(MinVersion) {
		return nil, fmt.Errorf("%s is Gemini CLI %s, older than %s, the oldest hooksup supervises: update it (npm install -g @google/gemini-cli@latest), or point --gemini-bin / HOOKSUP_GEMINI_BIN at a newer gemini",
			path, v, MinVersion)
	}
	return append([]string(nil), geminiEvents...), nil
}

// Version finds the version of the gemini at bin (a path): an npm install names it in the
// package.json of @google/gemini-cli, read without running gemini (which takes seconds to
// start); otherwise `bin --version` runs once, with env, for at most timeout.
func Version(ctx context.Context, bin string, env []string, timeout time.Duration) (hooks.Version, error) {
	if v, ok := agent.NPMVersion(bin, "@google/gemini-cli"); ok {
		return v, nil
	}
	return hooks.RunVersion(ctx, bin, env, timeout)
}

// Home is the home gemini uses as its environment sets it: $GEMINI_CLI_HOME, else $HOME.
// Its settings, credentials and chats are in Home/.gemini.
func Home(getenv func(string) string) string {
	if d := getenv("GEMINI_CLI_HOME"); d != "" {
		return d
	}
	if h := getenv("HOME"); h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return h
}

// HookFiles are the settings files where gemini would read hooks of the person's own for a
// session in projectDir, among those that define some: the system settings, the user's, the
// project's (read only in a trusted folder) and the system defaults.
func HookFiles(getenv func(string) string, projectDir string) []string {
	system := getenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH")
	if system == "" {
		system = "/etc/gemini-cli/settings.json"
		if runtime.GOOS == "darwin" {
			system = "/Library/Application Support/GeminiCli/settings.json"
		}
	}
	files := []string{system, filepath.Join(Home(getenv), ".gemini", "settings.json"), filepath.Join(projectDir, ".gemini", "settings.json")}
	if d := getenv("GEMINI_CLI_SYSTEM_DEFAULTS_PATH"); d != "" {
		files = append(files, d)
	}
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var m struct {
			Hooks map[string]json.RawMessage `json:"hooks"`
		}
		if json.Unmarshal(hooks.StripJSONComments(b), &m) == nil && len(m.Hooks) > 0 {
			out = append(out, f)
		}
	}
	return out
}

// homeSuffix ends the name of the session's home Inject makes in the runtime directory.
const homeSuffix = ".gemini"

// Leftovers: the session's home Inject makes (its links to the person's files are not
// followed by the sweep).
func (Agent) Leftovers() []string { return []string{homeSuffix} }

// Inject makes the session's home for gemini in dir (see Gemini) and points GEMINI_CLI_HOME at
// it. The arguments are the person's.
func (Agent) Inject(h agent.Hooks, args []string, dir, id string) (agent.Launch, error) {
	getenv := h.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	events := h.Events
	if events == nil {
		events = geminiEvents
	}
	home := Home(getenv)
	real := filepath.Join(home, ".gemini")
	// gemini makes these on every run; they must be the person's before the links are.
	for _, d := range []string{real, filepath.Join(real, "tmp"), filepath.Join(real, "history")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return agent.Launch{}, fmt.Errorf("gemini's directory: %w", err)
		}
	}
	theirs, err := os.ReadFile(filepath.Join(real, "settings.json"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return agent.Launch{}, fmt.Errorf("read your gemini settings: %w", err)
	}
	settings, err := geminiSettings(theirs, events, h)
	if err != nil {
		return agent.Launch{}, fmt.Errorf("%s: %w", filepath.Join(real, "settings.json"), err)
	}
	root := filepath.Join(dir, id+homeSuffix)
	s := &geminiSession{root: root, real: real, theirs: theirs, ours: settings}
	if err := s.make(home); err != nil {
		os.RemoveAll(root)
		return agent.Launch{}, err
	}
	env := []string{"GEMINI_CLI_HOME=" + root}
	if getenv("GEMINI_CLI_TRUSTED_FOLDERS_PATH") == "" {
		env = append(env, "GEMINI_CLI_TRUSTED_FOLDERS_PATH="+filepath.Join(real, "trustedFolders.json"))
	}
	return agent.Launch{Args: args, Env: env, Cleanup: s.finish}, nil
}

// geminiSettings is the person's settings.json (JSON with comments; empty when there is none)
// with hooksup's hook for each of events appended to the hooks gemini runs for it.
func geminiSettings(theirs []byte, events []string, h agent.Hooks) ([]byte, error) {
	m := map[string]any{}
	if len(bytes.TrimSpace(theirs)) > 0 {
		dec := json.NewDecoder(bytes.NewReader(hooks.StripJSONComments(theirs)))
		dec.UseNumber()
		if err := dec.Decode(&m); err != nil {
			return nil, fmt.Errorf("not a JSON object: %w", err)
		}
	}
	hs, _ := m["hooks"].(map[string]any)
	if hs == nil {
		hs = map[string]any{}
	}
	for _, ev := range events {
		name, ok := geminiEvent[ev]
		if !ok {
			continue
		}
		t := h.OtherTimeout
		if hooks.IsStop(ev) {
			t = h.StopTimeout
		}
		group := map[string]any{"hooks": []any{map[string]any{
			"name": geminiHookName, "type": "command", "command": h.Command(ev), "timeout": t.Milliseconds(),
		}}}
		list, _ := hs[name].([]any)
		hs[name] = append(list, group)
	}
	m["hooks"] = hs
	return json.MarshalIndent(m, "", "  ")
}

// SettingsPath is the person's settings.json, where hooksup install --agent gemini writes.
func SettingsPath(getenv func(string) string) string {
	return filepath.Join(Home(getenv), ".gemini", "settings.json")
}

// ErrComments refuses to rewrite a gemini settings file with comments in it.
var ErrComments = errors.New("it has comments, which hooksup would not keep")

// InstallSettings adds hooksup's installed stop hook, command with its timeout, to the person's
// gemini settings (the document; empty when there is none) as an AfterAgent hook, replacing an
// earlier install and keeping everything else in place. A document with comments is refused
// (ErrComments, with what to add by hand).
func InstallSettings(settings []byte, command string, timeout time.Duration) ([]byte, error) {
	group, _ := json.Marshal(map[string]any{"hooks": []any{map[string]any{
		"name": geminiInstalledName, "type": "command", "command": command, "timeout": timeout.Milliseconds(),
	}}})
	if !bytes.Equal(hooks.StripJSONComments(settings), settings) {
		return nil, fmt.Errorf("%w: add to its \"hooks\": {\"AfterAgent\": [%s]}", ErrComments, group)
	}
	if len(bytes.TrimSpace(settings)) == 0 {
		settings = []byte("{}")
	}
	return hooks.MergeInstallGroup(settings, geminiEvent[hooks.Stop], group)
}

// geminiInstalledName names the hook hooksup install registers.
const geminiInstalledName = "hooksup-installed"

// geminiSession is the home gemini runs with for one session.
type geminiSession struct {
	root   string // GEMINI_CLI_HOME
	real   string // the person's .gemini
	theirs []byte // their settings.json as it was (nil: none)
	ours   []byte // the settings.json gemini reads
}

// make creates root: a link to every entry of home but .gemini, and root/.gemini with a link to
// every entry of real but settings.json, which is ours.
func (s *geminiSession) make(home string) error {
	gdir := filepath.Join(s.root, ".gemini")
	if err := os.MkdirAll(gdir, 0o700); err != nil {
		return fmt.Errorf("gemini's home for the session: %w", err)
	}
	link := func(from, into string, skip string) error {
		ents, err := os.ReadDir(from)
		if err != nil {
			return fmt.Errorf("gemini's home for the session: %w", err)
		}
		for _, e := range ents {
			if e.Name() == skip {
				continue
			}
			if err := os.Symlink(filepath.Join(from, e.Name()), filepath.Join(into, e.Name())); err != nil {
				return fmt.Errorf("gemini's home for the session: %w", err)
			}
		}
		return nil
	}
	if err := link(home, s.root, ".gemini"); err != nil {
		return err
	}
	if err := link(s.real, gdir, "settings.json"); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(gdir, "settings.json"), s.ours, 0o600); err != nil {
		return fmt.Errorf("gemini's settings for the session: %w", err)
	}
	return nil
}

// finish gives the person what gemini wrote into the session's .gemini rather than through a
// link (see Gemini), then removes the session's home. What cannot be given back is said.
func (s *geminiSession) finish() error {
	defer os.RemoveAll(s.root)
	gdir := filepath.Join(s.root, ".gemini")
	ents, err := os.ReadDir(gdir)
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range ents {
		p := filepath.Join(gdir, e.Name())
		if e.Type()&fs.ModeSymlink != 0 {
			continue
		}
		if e.Name() == "settings.json" {
			errs = append(errs, s.settingsBack(p))
			continue
		}
		errs = append(errs, moveInto(p, filepath.Join(s.real, e.Name())))
	}
	return errors.Join(errs...)
}

// settingsBack applies to the person's settings.json a change gemini made to the session's
// (a setting saved during the session), without hooksup's hooks. Their file is left alone when
// gemini changed nothing, and when it changed since the session began (theirs wins).
func (s *geminiSession) settingsBack(p string) error {
	now, err := os.ReadFile(p)
	if err != nil || bytes.Equal(now, s.ours) {
		return nil
	}
	target := filepath.Join(s.real, "settings.json")
	cur, err := os.ReadFile(target)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if !bytes.Equal(cur, s.theirs) {
		return fmt.Errorf("gemini saved settings during the session, but %s changed meanwhile: it is kept as it is, without the session's change", target)
	}
	m := map[string]any{}
	dec := json.NewDecoder(bytes.NewReader(hooks.StripJSONComments(now)))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		return fmt.Errorf("the settings gemini saved: %w", err)
	}
	if hs, ok := m["hooks"].(map[string]any); ok {
		for ev, v := range hs {
			list, _ := v.([]any)
			kept := list[:0]
			for _, g := range list {
				if !isHooksupGroup(g) {
					kept = append(kept, g)
				}
			}
			if len(kept) == 0 {
				delete(hs, ev)
			} else {
				hs[ev] = kept
			}
		}
		if len(hs) == 0 {
			delete(m, "hooks")
		}
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return writeReplacing(target, b)
}

// isHooksupGroup reports a hook group of gemini's settings that holds hooksup's hook alone.
func isHooksupGroup(g any) bool {
	m, _ := g.(map[string]any)
	list, _ := m["hooks"].([]any)
	if len(list) != 1 {
		return false
	}
	h, _ := list[0].(map[string]any)
	return h["name"] == geminiHookName
}

// moveInto puts what gemini made at p (a file or a directory) at target, the person's: a file
// replaces theirs (gemini replaced it through the session's link), a directory goes there if
// they have none.
func moveInto(p, target string) error {
	fi, err := os.Lstat(p)
	if err != nil {
		return err
	}
	if fi.IsDir() {
		if _, err := os.Lstat(target); err == nil {
			return fmt.Errorf("gemini made %s in the session, and %s exists: left as it was", filepath.Base(p), target)
		}
		if err := os.Rename(p, target); err == nil {
			return nil
		}
		return copyTree(p, target)
	}
	if !fi.Mode().IsRegular() {
		return nil
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	return writeReplacing(target, b)
}

// writeReplacing replaces path with b whole (internal/atomicfile), keeping path's permissions
// (0600 for a new file).
func writeReplacing(path string, b []byte) error {
	mode := os.FileMode(0o600)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	return atomicfile.Write(path, b, mode)
}

// copyTree copies the directory src to dst (files, directories and links).
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		fi, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return os.MkdirAll(to, fi.Mode().Perm())
		case d.Type()&fs.ModeSymlink != 0:
			l, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(l, to)
		case fi.Mode().IsRegular():
			in, err := os.Open(p)
			if err != nil {
				return err
			}
			defer in.Close()
			out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fi.Mode().Perm())
			if err != nil {
				return err
			}
			_, err = io.Copy(out, in)
			if cerr := out.Close(); err == nil {
				err = cerr
			}
			return err
		}
		return nil
	})
}

// Headless reports gemini's -p/--prompt: no full-screen UI of its own. (-i/--prompt-interactive
// runs the TUI.)
func (Agent) Headless(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "-p" || a == "--prompt" || strings.HasPrefix(a, "--prompt=") {
			return true
		}
	}
	return false
}

// TitleState reads gemini's window title (0.61.0: "◇  Ready (dir)", "✦  Working… (dir)",
// "⏲  Working… (dir)" while a long shell command runs, "✋  Action Required (dir)" at a
// permission dialog).
func (Agent) TitleState(title string) (state, kind, msg string, ok bool) {
	t := strings.TrimSpace(title)
	msg = t
	if i := strings.LastIndex(t, " ("); i > 0 {
		msg = t[:i]
	}
	msg = strings.TrimSpace(strings.TrimLeft(msg, "◇✦⏲✋ "))
	switch {
	case strings.HasPrefix(t, "◇"):
		return "idle", "", msg, true
	case strings.HasPrefix(t, "✦"), strings.HasPrefix(t, "⏲"):
		return "working", "", msg, true
	case strings.HasPrefix(t, "✋"):
		return "blocked", "permission", msg, true
	}
	return "", "", "", false
}

// geminiUntrusted is gemini's exit status for a folder it does not trust, headless.
const geminiUntrusted = 55

// NoHooksWhy: gemini exits 55 in a folder it does not trust when it is run headless, before it
// runs anything, hooks included. hooksup leaves that decision to the person.
func (Agent) NoHooksWhy(code int) string {
	if code != geminiUntrusted {
		return ""
	}
	return "gemini does not trust this folder (exit 55), and runs none of its settings' hooks in a folder it does not trust: " +
		"trust it in gemini (its dialog when run in a terminal, or --skip-trust for one run) to have hooksup decide its stops"
}

// BlockCap: gemini has no limit of its own on blocked stops.
func (Agent) BlockCap(func(string) string) int { return 0 }

// Transcripts are the chats under ~/.gemini/tmp/<project>/chats.
func (Agent) Transcripts(getenv func(string) string, _ string) string {
	return filepath.Join(Home(getenv), ".gemini", "tmp", "*", "chats", "session-*.jsonl")
}

// Reply: a record of the model's.
func (Agent) Reply(line []byte) bool { return bytes.Contains(line, []byte(`"type":"gemini"`)) }

// Transcript: the chat (chat.go).
func (Agent) Transcript() func(maxText int) transcript.Decoder {
	return func(maxText int) transcript.Decoder { return &chat{maxText: maxText, seen: map[string]struct{}{}} }
}

// ResumeID is the session a chat holds, from its first line (the file's name has only the
// start of the id).
func (Agent) ResumeID(transcriptPath string) string {
	f, err := os.Open(transcriptPath)
	if err != nil {
		return ""
	}
	defer f.Close()
	b := make([]byte, 4096)
	n, _ := io.ReadFull(f, b)
	first, _, _ := bytes.Cut(b[:n], []byte("\n"))
	var h struct {
		SessionID string `json:"sessionId"`
	}
	if json.Unmarshal(first, &h) != nil {
		return ""
	}
	return h.SessionID
}

// Resume is `hooksup gemini --resume`, which takes gemini's session id.
func (Agent) Resume() string { return "hooksup gemini --resume" }

// ResumeHint turns gemini's `gemini --resume ID` into `hooksup gemini --resume ID`, in place.
func (Agent) ResumeHint(line string) (string, bool) {
	// Gemini CLI 0.61.0 prints "To resume this session: gemini --resume ID" as it exits.
	l := strings.TrimRight(line, " ")
	i := strings.Index(l, "gemini --resume ")
	if i < 0 || (i > 0 && l[i-1] != ' ') || strings.HasSuffix(l[:i], "hooksup ") {
		return "", false
	}
	return l[:i] + "hooksup " + l[i:], true
}

// PromptEmpty: gemini's empty input shows its placeholder after its mark (0.61.0:
// ">   Type your message or @path/to/file").
func (Agent) PromptEmpty(screen []string) bool { return agent.PromptWith(screen, placeholder) }

// placeholder is what gemini's empty input shows.
const placeholder = "Type your message or @path/to/file"
