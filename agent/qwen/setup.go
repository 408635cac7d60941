package qwen

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/atomicfile"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/internal/userdirs"
)

// installedName names the hook hooksup install registers.
const installedName = "hooksup-installed"

// Scopes: hooksup installs in the person's own settings only.
func (Agent) Scopes() []string { return []string{"user"} }

func (Agent) ScopeHelp() string { return "user only" }

func (Agent) InstallHelp() string { return "~/.qwen/settings.json" }

// Install is `hooksup install --agent qwen`: hooksup's stop hook (standalone, as for claude) as
// a Stop hook in the person's ~/.qwen/settings.json, where plain qwen reads it.
func (Agent) Install(o agent.Install) error {
	if err := userScope(o.Scope); err != nil {
		return err
	}
	path := UserSettingsPath(o.Getenv)
	bin, err := o.Bin()
	if err != nil {
		return err
	}
	command := hooks.InstalledCommand(bin, Agent{}.Name(), hooks.Stop)
	timeout := o.Timeout()
	before, _ := os.ReadFile(path)
	changed, err := hooks.EditSettingsFile(path, func(b []byte) ([]byte, error) {
		return InstallSettings(b, command, timeout)
	})
	if err != nil {
		return err
	}
	if changed {
		after, _ := os.ReadFile(path)
		keepOriginal(o.Getenv, path, before, after)
	}
	if changed {
		fmt.Fprintf(o.Stdout, "installed hooksup's stop hook (Stop) in %s\n", termsafe.String(path))
	} else {
		fmt.Fprintf(o.Stdout, "hooksup's hooks are already installed in %s\n", termsafe.String(path))
	}
	fmt.Fprintln(o.Stdout, "plain `qwen` now runs your checks when it wants to stop (see .hooksup.toml; `hooksup init` writes one)")
	return nil
}

// Uninstall is `hooksup uninstall --agent qwen`: it removes exactly the hook Install added. A
// file left with nothing but qwen's "$version" is one install made (qwen keeps a "$version" in
// every settings file it reads): it is removed.
func (Agent) Uninstall(o agent.Install) error {
	if err := userScope(o.Scope); err != nil {
		return err
	}
	path := UserSettingsPath(o.Getenv)
	if _, err := os.Stat(path); err != nil {
		fmt.Fprintf(o.Stdout, "no hooksup hooks in %s\n", termsafe.String(path))
		return nil
	}
	if restoreOriginal(o.Getenv, path) {
		fmt.Fprintf(o.Stdout, "removed hooksup's hooks from %s: it is as it was before the install\n", termsafe.String(path))
		return nil
	}
	changed, err := hooks.EditSettingsFile(path, hooks.MergeUninstall)
	if err != nil {
		return err
	}
	if !changed {
		fmt.Fprintf(o.Stdout, "hooksup's hooks were not in %s\n", termsafe.String(path))
		return nil
	}
	var rest map[string]json.RawMessage
	fi, lerr := os.Lstat(path)
	if b, err := os.ReadFile(path); lerr == nil && fi.Mode().IsRegular() && err == nil && json.Unmarshal(b, &rest) == nil {
		delete(rest, "$version")
		if len(rest) == 0 && os.Remove(path) == nil {
			fmt.Fprintf(o.Stdout, "removed hooksup's hooks from %s, and the file, which held nothing else\n", termsafe.String(path))
			return nil
		}
	}
	fmt.Fprintf(o.Stdout, "removed hooksup's hooks from %s\n", termsafe.String(path))
	return nil
}

func userScope(scope string) error {
	if scope != "" && scope != "user" {
		return &agent.ScopeError{Msg: fmt.Sprintf("--scope %s: for qwen hooksup installs in your own settings only (--scope user): "+
			"a project's .qwen/settings.json is the project's", scope)}
	}
	return nil
}

// InstallSettings adds hooksup's installed stop hook, command with its timeout (in
// milliseconds, as qwen reads 1000 and more), to the person's qwen settings (the document;
// empty when there is none) as a Stop hook, replacing an earlier install and keeping everything
// else in place. A new file gets qwen's "$version", so that qwen does not rewrite it. A document
// with comments is refused, with what to add by hand.
func InstallSettings(settings []byte, command string, timeout time.Duration) ([]byte, error) {
	group, _ := json.Marshal(map[string]any{"hooks": []any{map[string]any{
		"name": installedName, "type": "command", "command": command, "timeout": Millis(timeout),
	}}})
	if !bytes.Equal(hooks.StripJSONComments(settings), settings) {
		return nil, fmt.Errorf("it has comments, which hooksup would not keep: add to its \"hooks\": {\"Stop\": [%s]}", group)
	}
	if len(bytes.TrimSpace(settings)) == 0 {
		settings = []byte("{}")
	}
	out, err := hooks.MergeInstallGroup(settings, hooks.Stop, group)
	if err != nil {
		return nil, err
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(out, &top) == nil {
		if _, ok := top["$version"]; !ok {
			i := bytes.IndexByte(out, '{')
			out = slices.Concat(out[:i+1], []byte(fmt.Sprintf("\n  \"$version\": %d,", settingsVersion)), out[i+1:])
		}
	}
	return out, nil
}

// The settings file as it was before install, kept in hooksup's state directory with the file
// install wrote, so that uninstall gives it back byte for byte while qwen has not changed it
// (install writes qwen's "$version" for that: without it qwen rewrites the file it reads).
type original struct {
	Path      string `json:"path"`
	Existed   bool   `json:"existed"`
	Before    []byte `json:"before"`
	Installed []byte `json:"installed"`
}

// originalPath is where install keeps the original of the settings file at path.
func originalPath(getenv func(string) string, path string) (string, error) {
	state, err := userdirs.State(getenv)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(path))
	return filepath.Join(state, "install", "qwen-"+hex.EncodeToString(sum[:8])+".json"), nil
}

// keepOriginal records the file at path before and after install (an error only loses the
// byte-for-byte uninstall: the hook's removal stays).
func keepOriginal(getenv func(string) string, path string, before, after []byte) {
	p, err := originalPath(getenv, path)
	if err != nil {
		return
	}
	if b, err := os.ReadFile(p); err == nil {
		var o original
		if json.Unmarshal(b, &o) == nil && o.Path == path {
			before = o.Before // a second install keeps the first original
			if !o.Existed {
				before = nil
			}
		}
	}
	b, _ := json.Marshal(original{Path: path, Existed: before != nil, Before: before, Installed: after})
	if os.MkdirAll(filepath.Dir(p), 0o700) == nil {
		_ = atomicfile.Write(p, b, 0o600)
	}
}

// restoreOriginal puts back the file at path as it was before install, when it is still what
// install wrote; it reports whether it did.
func restoreOriginal(getenv func(string) string, path string) bool {
	p, err := originalPath(getenv, path)
	if err != nil {
		return false
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return false
	}
	defer os.Remove(p)
	var o original
	now, err := os.ReadFile(path)
	if json.Unmarshal(b, &o) != nil || o.Path != path || err != nil || !bytes.Equal(now, o.Installed) {
		return false
	}
	if !o.Existed {
		return os.Remove(path) == nil
	}
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	return atomicfile.Write(path, o.Before, mode) == nil
}

// Doctor reports the qwen hooksup qwen would run, the Node.js it runs on, and what in the
// settings would keep hooksup's gate from deciding its stops alone. A qwen that is not installed
// is no problem: only hooksup qwen needs it.
func (Agent) Doctor(ctx context.Context, d agent.Check) {
	path, err := exec.LookPath(d.Bin)
	if err != nil {
		fmt.Fprintf(d.Out, "  · %s not found (only hooksup qwen needs it: npm install -g %s, or --qwen-bin / HOOKSUP_QWEN_BIN)\n", d.Bin, npmPackage)
		return
	}
	v, err := Version(ctx, path, os.Environ(), 20*time.Second)
	switch {
	case err != nil:
		d.Bad("%s: cannot tell its version (%v): hooksup qwen gives it its hooks and says so if none arrives", path, err)
	case v.Less(MinVersion):
		d.Bad("%s: Qwen Code %s, older than %s: hooksup qwen refuses it (npm install -g %s@latest)", path, v, MinVersion, npmPackage)
	default:
		d.OK("%s: Qwen Code %s (hooksup supports %s and newer)", path, v, MinVersion)
	}
	if node, nv, err := nodeVersion(ctx, d.Getenv); err != nil {
		d.Bad("node: %v: Qwen Code needs Node.js %d or newer on PATH", err, MinNode)
	} else if nv.Major < MinNode {
		d.Bad("%s: Node.js %s, older than %d, which Qwen Code needs: put a newer node first on PATH", node, nv, MinNode)
	} else {
		d.OK("%s: Node.js %s", node, nv)
	}
	fmt.Fprintf(d.Out, "  · hooksup qwen gives qwen its hooks in system defaults of its own for the session (QWEN_CODE_SYSTEM_DEFAULTS_PATH; nothing of yours is written): %s\n",
		strings.Join(HookEvents(), ", "))
	for _, w := range Warnings(nil, d.Getenv, d.ProjectDir) {
		d.Bad("%s", w)
	}
	trust := false
	for _, s := range layers(d.Getenv, d.ProjectDir) {
		trust = trust || s.FolderTrust
	}
	if !trust {
		fmt.Fprintf(d.Out, "  · qwen's folder trust is off (security.folderTrust.enabled): it runs any project's .qwen/settings.json hooks without asking\n")
	}
	if c := (Agent{}).BlockCap(d.Getenv); c > 0 {
		fmt.Fprintf(d.Out, "  · qwen honours %d continuations in a row (its stopHookBlockingCap less one): keep max_continuations at %d or less\n", c, c)
	}
}

// nodeVersion is the version of the node on PATH (qwen's "#!/usr/bin/env node").
func nodeVersion(ctx context.Context, getenv func(string) string) (string, hooks.Version, error) {
	node, err := lookPath("node", getenv("PATH"))
	if err != nil {
		return "", hooks.Version{}, err
	}
	v, err := hooks.RunVersion(ctx, node, os.Environ(), 10*time.Second)
	return node, v, err
}

// lookPath finds name on path (a PATH's value).
func lookPath(name, path string) (string, error) {
	for _, dir := range filepath.SplitList(path) {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s is not on PATH", name)
}
