package supervisor

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/session"
)

// ConfigWatch is what a session needs to follow its project's configuration files while it
// runs (Options.ConfigWatch): a file edited during the session is used from the next stop once
// its exact content is trusted, and never before.
type ConfigWatch struct {
	// Files are the project's configuration files (.hooksup.toml, .hooksup.local.toml in the
	// project's directory), whether they exist or not.
	Files []string
	// InUse is the content of each of Files the session started with: those it uses (trusted).
	InUse map[string][]byte
	// Trust is the trust store, which `hooksup trust` writes from another shell.
	Trust config.TrustStore
	// Load is the session's configuration with the project's files as given (a file missing
	// from the map is no file): every other layer and flag as the session started.
	Load func(project map[string][]byte) (config.Config, error)
	// Describe is what a content would run, as the trust question shows it.
	Describe func(path string, content []byte) string
	// Debounce is how long the files stay quiet before they are read (100ms when 0): an editor's
	// save is several events, and a burst of writes is read once.
	Debounce time.Duration
}

// configWatch follows the project's configuration files for a session: what changed, whether
// its new content may be used, what the session says of it, and the configuration the engine
// switches to at the next stop.
type configWatch struct {
	o        ConfigWatch
	dir      string // the session's directory, which the files are named from
	logger   *slog.Logger
	publish  func(session.Event)
	switchTo func(cfg config.Config, applied func())
	current  config.Config // what the engine runs, or will from the next stop

	mu    sync.Mutex
	inUse map[string][]byte // the content of each file the configuration in effect is made of
	said  map[string]string // per file, the content (digest, or "" when absent) last told of
	asked map[string][]byte // per file, the content a front end was asked to trust
	// failed is the files' contents whose configuration could not be loaded, told once.
	failed string
	// looked is what the files and the trust store were (stamps) as check last read them.
	looked stamps
}

// stamps is what stat says of each file followed and the trust store (nil: absent), and when.
type stamps struct {
	at    time.Time
	files []os.FileInfo
}

// racyStamp is how recent a file's modification time may be, measured from the look before, for
// its stamp to be trusted to change with its content: a file written again within its
// filesystem's time granularity keeps its stamp (git's "racily clean" entries).
const racyStamp = 2 * time.Second

// stamp stats the files followed and the trust store.
func (w *configWatch) stamp() stamps {
	s := stamps{at: time.Now()}
	for _, f := range append(slices.Clone(w.o.Files), w.o.Trust.Path) {
		fi, err := os.Stat(f)
		if err != nil {
			fi = nil
		}
		s.files = append(s.files, fi)
	}
	return s
}

// unchangedSince reports whether s says of every file what before did, and before's look came
// late enough after each file's last write for its stamp to tell.
func (s stamps) unchangedSince(before stamps) bool {
	if before.at.IsZero() || len(s.files) != len(before.files) {
		return false
	}
	for i, a := range s.files {
		b := before.files[i]
		switch {
		case a == nil && b == nil:
			continue
		case a == nil || b == nil:
			return false
		case !os.SameFile(a, b) || a.Size() != b.Size() || a.Mode() != b.Mode() || !a.ModTime().Equal(b.ModTime()):
			return false
		case !a.ModTime().Before(before.at.Add(-racyStamp)):
			return false
		}
	}
	return true
}

// atStop looks at the files as a stop comes, for what the watch has not told yet (or cannot,
// where it misses events): their stamps alone, and check reads them only when a stamp changed
// since check last read them. A stop that finds them as they were reads no file.
func (w *configWatch) atStop() {
	now := w.stamp()
	w.mu.Lock()
	same := now.unchangedSince(w.looked)
	w.mu.Unlock()
	if !same {
		w.check()
	}
}

func newConfigWatch(o ConfigWatch, dir string, cfg config.Config, logger *slog.Logger, publish func(session.Event), switchTo func(config.Config, func())) *configWatch {
	if o.Debounce == 0 {
		o.Debounce = 100 * time.Millisecond
	}
	w := &configWatch{o: o, dir: dir, logger: logger, publish: publish, switchTo: switchTo, current: cfg,
		inUse: map[string][]byte{}, said: map[string]string{}, asked: map[string][]byte{}}
	for _, f := range o.Files {
		if c, ok := o.InUse[f]; ok {
			w.inUse[f] = c
		}
		// What the session said as it started (ignoring an untrusted file) is not said again.
		content, err := config.ReadFile(f)
		w.said[f] = stateKey(content, err)
	}
	return w
}

// stateKey names a file's content for "told once per change": its digest, "" when it is absent,
// the error when it cannot be read.
func stateKey(content []byte, err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return ""
	case err != nil:
		return "error: " + err.Error()
	}
	return config.Digest(content)
}

// run follows the files until ctx ends: the directories they are in, and the trust store's,
// since editors replace a file by renaming another over it. Where the system cannot watch (or
// misses an event), the next stop looks again (check).
func (w *configWatch) run(ctx context.Context) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		w.logger.Warn("the configuration files are looked at only at each stop", "err", err)
		return
	}
	defer fw.Close()
	for _, p := range w.watchPaths() {
		if err := fw.Add(p); err != nil {
			w.logger.Debug("configuration watch", "path", p, "err", err)
		}
	}
	w.loop(ctx, fw.Events, fw.Errors, time.After, func() {
		w.check()
		if !watchesDirs {
			for _, p := range w.watchPaths() { // a file replaced is another file to watch
				_ = fw.Add(p)
			}
		}
	})
}

// watchPaths is what to watch: the files' directories where a directory's watch reports the
// writes to its files (inotify), else the files that exist (kqueue: one descriptor each, where
// a directory's watch would open every file in it).
func (w *configWatch) watchPaths() []string {
	var out []string
	add := func(p string) {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	for _, f := range append(slices.Clone(w.o.Files), w.o.Trust.Path) {
		if watchesDirs {
			add(filepath.Dir(f))
		} else if _, err := os.Stat(f); err == nil {
			add(f)
		}
	}
	return out
}

// loop reads the watch's events: one that names a file followed arms the timer, which each
// further one pushes back; when it fires, changed runs. after is time.After, which tests replace.
func (w *configWatch) loop(ctx context.Context, events <-chan fsnotify.Event, errs <-chan error, after func(time.Duration) <-chan time.Time, changed func()) {
	var quiet <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-events:
			if !ok {
				return
			}
			if w.follows(ev.Name) {
				quiet = after(w.o.Debounce)
			}
		case err, ok := <-errs:
			if !ok {
				return
			}
			w.logger.Debug("configuration watch", "err", err) // lost events: look now
			quiet = after(w.o.Debounce)
		case <-quiet:
			quiet = nil
			changed()
		}
	}
}

// follows reports whether an event's path is a file followed: a project file or the trust store.
func (w *configWatch) follows(path string) bool {
	return path == w.o.Trust.Path || slices.Contains(w.o.Files, path)
}

// fileState is one file as it is now, judged.
type fileState int

const (
	stateSame      fileState = iota // the content the session runs (or absent, as it started)
	stateTrusted                    // new content, trusted: used from the next stop
	stateUntrusted                  // new content, not trusted: the old checks run on
	stateBroken                     // new content hooksup cannot use
	stateRemoved                    // gone, after the session used it
)

// check reads the files, says what changed (once per change), and has the engine switch at the
// next stop to the configuration made of each file's trusted content. It never fails: a file
// that cannot be used keeps what the session runs, and says why.
func (w *configWatch) check() {
	looked := w.stamp() // before the files are read: a write after it changes the stamp
	w.mu.Lock()
	defer w.mu.Unlock()
	w.looked = looked
	target := map[string][]byte{}
	for f, c := range w.inUse {
		target[f] = c
	}
	changed := false
	var notes []string
	for _, f := range w.o.Files {
		content, err := config.ReadFile(f)
		key := stateKey(content, err)
		st, why := w.judge(f, content, err)
		if st == stateTrusted {
			target[f] = content
			changed = true
		}
		if st != stateUntrusted {
			w.settle(f)
		}
		if w.said[f] == key {
			continue
		}
		w.said[f] = key
		name := w.name(f)
		switch st {
		case stateUntrusted:
			notes = append(notes, fmt.Sprintf("%s changed, and its new content is not trusted: the session still runs %s until it is (hooksup trust trusts it)",
				name, w.checksText(w.current)))
			w.ask(f, content)
		case stateBroken:
			notes = append(notes, fmt.Sprintf("%s changed, but hooksup cannot use it: %s; the session still runs %s",
				name, why, w.checksText(w.current)))
		case stateRemoved:
			notes = append(notes, fmt.Sprintf("%s was removed: the session still runs %s until it ends (a new session starts without them)",
				name, w.checksText(w.current)))
		}
	}
	for _, n := range notes {
		w.notice(n)
	}
	if !changed {
		return
	}
	cfg, err := w.o.Load(target)
	if err != nil {
		key := targetKey(w.o.Files, target)
		if key == w.failed {
			return
		}
		w.failed = key
		w.notice(fmt.Sprintf("the project's configuration changed, but hooksup cannot use it: %s; the session still runs %s",
			termsafe.Text(err.Error()), w.checksText(w.current)))
		return
	}
	var names []string
	for _, f := range w.o.Files {
		if !bytes.Equal(target[f], w.inUse[f]) || (target[f] == nil) != (w.inUse[f] == nil) {
			names = append(names, w.name(f))
		}
	}
	start := w.current
	w.inUse, w.current = target, cfg
	msg := fmt.Sprintf("%s changed, and this content is trusted: from the next stop, hooksup %s", strings.Join(names, " and "), w.runsText(cfg))
	if cfg.StopHookTimeout() > start.StopHookTimeout() {
		msg += fmt.Sprintf("; the agent waits at most %s for a stop's hook (set as the session started), less than these checks may take at their timeouts: a new session waits long enough",
			start.StopHookTimeout().Round(time.Second))
	}
	w.notice(msg)
	w.logger.Info("configuration changed", "files", names)
	applied := w.appliedEvent(cfg, target)
	w.switchTo(cfg, func() {
		w.logger.Info("the new configuration decides from this stop on", "files", names)
		applied.Time = time.Now()
		w.publish(applied)
	})
}

// appliedEvent is what the front ends are told as cfg, made of the files' contents in target,
// takes effect: its mode, its checks, the files in use.
func (w *configWatch) appliedEvent(cfg config.Config, target map[string][]byte) session.ConfigApplied {
	ev := session.ConfigApplied{Mode: termsafe.String(string(cfg.Mode))}
	list := func(cs []config.Check) []session.ConfiguredCheck {
		var out []session.ConfiguredCheck
		for _, c := range cs {
			out = append(out, session.ConfiguredCheck{Name: termsafe.String(c.Name), Command: termsafe.String(c.Command)})
		}
		return out
	}
	ev.Checks, ev.SubagentChecks = list(cfg.Stop.Checks), list(cfg.SubagentStop.Checks)
	for _, f := range w.o.Files {
		if _, ok := target[f]; ok {
			ev.Files = append(ev.Files, w.name(f))
		}
	}
	return ev
}

// targetKey names the contents of files in target, for telling a failure once.
func targetKey(files []string, target map[string][]byte) string {
	var b strings.Builder
	for _, f := range files {
		if c, ok := target[f]; ok {
			b.WriteString(config.Digest(c))
		}
		b.WriteString(";")
	}
	return b.String()
}

// judge says what a file's content now means for the session, and why it cannot be used.
func (w *configWatch) judge(f string, content []byte, err error) (fileState, string) {
	old, used := w.inUse[f]
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if used {
			return stateRemoved, ""
		}
		return stateSame, ""
	case err != nil:
		var fe *config.FileError
		if errors.As(err, &fe) {
			return stateBroken, termsafe.String(fe.Problem())
		}
		return stateBroken, termsafe.String(err.Error())
	case used && bytes.Equal(content, old):
		return stateSame, ""
	}
	if err := config.ValidateFile(f, content); err != nil {
		return stateBroken, termsafe.Text(err.Error())
	}
	if w.o.Trust.Trusted(f, content) {
		return stateTrusted, ""
	}
	return stateUntrusted, ""
}

// ask has a front end that can ask the person whether to trust f's content.
func (w *configWatch) ask(f string, content []byte) {
	w.asked[f] = content
	desc := ""
	if w.o.Describe != nil {
		desc = w.o.Describe(f, content)
	}
	w.publish(session.ConfigTrustAsked{At: session.At{Time: time.Now()}, Path: f, Name: w.name(f), Digest: config.Digest(content), Description: desc})
}

// settle tells the front ends that nothing is asked of f any more.
func (w *configWatch) settle(f string) {
	if _, ok := w.asked[f]; !ok {
		return
	}
	delete(w.asked, f)
	w.publish(session.ConfigTrustSettled{At: session.At{Time: time.Now()}, Path: f})
}

// trust trusts the content of path a front end asked about, if it is still the one with
// digest, and switches to it at the next stop.
func (w *configWatch) trust(path, digest string) error {
	w.mu.Lock()
	content, ok := w.asked[path]
	w.mu.Unlock()
	if !ok || config.Digest(content) != digest {
		return ErrConfigChanged
	}
	if err := w.o.Trust.TrustContent(path, content); err != nil {
		return err
	}
	w.check()
	return nil
}

// ErrConfigChanged is TrustConfig's answer when the content asked about is no longer the one
// to trust: it changed again, or was trusted or settled meanwhile.
var ErrConfigChanged = errors.New("the configuration file changed again: its new content is asked about")

func (w *configWatch) notice(text string) {
	w.publish(session.Notice{At: session.At{Time: time.Now()}, Level: session.NoticeWarn, Text: text})
}

// name is f as the person knows it: relative to the session's directory when inside it.
func (w *configWatch) name(f string) string {
	if rel, err := filepath.Rel(w.dir, f); err == nil && !strings.HasPrefix(rel, "..") {
		return termsafe.String(rel)
	}
	return termsafe.String(f)
}

// checksText names the checks cfg runs: "the checks it ran (tests, lint)", "no checks".
func (w *configWatch) checksText(cfg config.Config) string {
	names := checkNames(cfg)
	if len(names) == 0 {
		return "no checks"
	}
	return "the checks it ran (" + strings.Join(names, ", ") + ")"
}

// runsText says what cfg runs: "runs the checks tests, lint", "runs no checks".
func (w *configWatch) runsText(cfg config.Config) string {
	var stop, sub []string
	for _, c := range cfg.Stop.Checks {
		stop = append(stop, termsafe.String(c.Name))
	}
	for _, c := range cfg.SubagentStop.Checks {
		sub = append(sub, termsafe.String(c.Name))
	}
	s := "runs no checks"
	if len(stop) > 0 {
		s = "runs the checks " + strings.Join(stop, ", ")
	}
	if len(sub) > 0 {
		s += " (at a subagent's stop: " + strings.Join(sub, ", ") + ")"
	}
	return s
}

// checkNames are the names of every check cfg runs, shown visibly.
func checkNames(cfg config.Config) []string {
	var out []string
	for _, c := range slices.Concat(cfg.Stop.Checks, cfg.SubagentStop.Checks) {
		out = append(out, termsafe.String(c.Name))
	}
	return out
}

// TrustConfig trusts the content of a project's configuration file that the session asked about
// (session.ConfigTrustAsked, by its path and digest), as `hooksup trust` would, and switches to
// it at the next stop. ErrConfigChanged when that is no longer the content to trust.
func (s *Supervisor) TrustConfig(path, digest string) error {
	if s.config == nil {
		return ErrConfigChanged
	}
	return s.config.trust(path, digest)
}
