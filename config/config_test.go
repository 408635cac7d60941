package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestConfigErrorsNameFileLineAndKey(t *testing.T) {
	for _, tc := range []struct {
		name, content, want string
	}{
		{"unknown top key", "mode = \"auto\"\ncolour = \"red\"\n", "bad.toml:2: colour: unknown key"},
		{"unknown check key", "[[stop.checks]]\nname = \"t\"\ncommand = \"x\"\ntimeout_s = 5\n", `bad.toml:4: stop.checks[0].timeout_s: unknown key (did you mean "timeout"?)`},
		{"unknown key in table", "[stop]\nmax_continuations = 2\nmax_contin = 3\n", "bad.toml:3: stop.max_contin: unknown key"},
		{"unknown key after a commented header", "[ui] # the look\nhold = true\n", "bad.toml:2: ui.hold: unknown key"},
		{"wrong type", "[stop]\nmax_continuations = \"three\"\n", "bad.toml:2: stop.max_continuations:"},
		{"bad duration", "decision_timeout = \"soon\"\n", "bad.toml:1: decision_timeout:"},
		{"syntax", "mode = \n", "bad.toml:1"},
		{"table name not closed", "mode = \"ask\"\n[stop\nmax_continuations = 1\n", "bad.toml:2: expected '.' or ']'"},
		{"value missing before the line ends", "mode = \"ask\"\n\ntheme = \n\n", "bad.toml:3: theme: expected value"},
		{"unknown binding, inline", "mode = \"ask\"\n[keys]\nbindings = { approve = \"y\", aprove = \"n\" }\n",
			`bad.toml:3: keys.bindings.aprove: no such action (did you mean "approve"?)`},
		{"unknown binding, table", "[keys.bindings]\ndeny = \"n\"\naprove = \"y\"\n", "bad.toml:3: keys.bindings.aprove: no such action"},
		{"unknown binding, dotted", "[keys]\nprefix = \"ctrl+b\"\nbindings.aprove = \"y\"\n", "bad.toml:3: keys.bindings.aprove: no such action"},
		{"bad key", "[keys]\nbindings = {\n  approve = \"yes\",\n}\n", `bad.toml:3: keys.bindings.approve: "yes" is not a key`},
		{"bad prefix", "\n[keys]\nprefix = \"cmd+k\"\n", `bad.toml:3: keys.prefix: "cmd+k" is not a key`},
		{"unknown notifier", "[notifications]\nnotifier = \"growl\"\n", `notifications.notifier: "growl" is not one of auto, osc9, osc777, osc99, system`},
		{"misspelt hub key", "[hub]\nhost = [\"devbox\"]\n", `bad.toml:2: hub.host: unknown key (did you mean "hosts"?)`},
		{"hub hosts not a list", "[hub]\nhosts = \"devbox\"\n", "bad.toml:2: hub.hosts:"},
		{"hub host an option", "[hub]\nhosts = [\"-oProxyCommand=x\"]\n", `hub.hosts: "-oProxyCommand=x" is not a host ssh accepts`},
		{"empty hub ssh", "[hub]\nssh = []\n", "hub.ssh: must name a command"},
		{"bad hub timeout", "[hub]\ntimeout = \"soon\"\n", "bad.toml:2: hub.timeout:"},
		{"two actions on one key", "[keys]\nbindings = { approve = \"d\" }\n", `bad.toml:2: keys.bindings.approve: "d" is also the key of deny`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bad.toml")
			write(t, path, tc.content)
			_, _, err := Load(LoadOptions{ExplicitFile: path})
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("err = %v", err)
			}
			if got := err.Error(); !strings.Contains(got, tc.want) {
				t.Fatalf("got %q, want it to contain %q", got, tc.want[strings.Index(tc.want, "bad"):])
			}
		})
	}
}

// Keys that clash only once the files are merged are blamed on the file that made them clash.
func TestKeyConflictAcrossLayers(t *testing.T) {
	user := t.TempDir()
	write(t, filepath.Join(user, "config.toml"), "[keys]\nbindings = { approve = \"y\" }\n")
	flagFile := filepath.Join(t.TempDir(), "f.toml")
	write(t, flagFile, "mode = \"ask\"\n\n[keys]\nprefix = \"y\"\n")
	_, _, err := Load(LoadOptions{UserConfigDir: user, ExplicitFile: flagFile})
	if want := flagFile + `:4: keys.prefix: "y" is also the key of approve`; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v, want %q", err, want)
	}
}

func TestConfigValidation(t *testing.T) {
	for content, want := range map[string]string{
		`mode = "yolo"`:                      "mode",
		"reason_lines = 0":                   "reason_lines: must be 1 or more",
		"[[stop.checks]]\nname = \"a\"\n":    "has no command",
		"[[stop.checks]]\ncommand = \"x\"\n": "needs a name",
		"[[stop.checks]]\nname=\"a\"\ncommand=\"x\"\nagent_types=[\"Explore\"]\n": "only subagent_stop",
	} {
		path := filepath.Join(t.TempDir(), "c.toml")
		write(t, path, content)
		if _, _, err := Load(LoadOptions{ExplicitFile: path}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want %q", content, err, want)
		}
	}
}

func TestConfigLayers(t *testing.T) {
	user, proj := t.TempDir(), t.TempDir()
	write(t, filepath.Join(user, "config.toml"), "mode = \"auto\"\ndecision_timeout = \"1m\"\n[stop]\nmax_continuations = 5\n")
	write(t, filepath.Join(proj, ".hooksup.toml"), "[[stop.checks]]\nname = \"tests\"\ncommand = \"go test ./...\"\ntimeout = \"90s\"\n")
	write(t, filepath.Join(proj, ".hooksup.local.toml"), "[stop]\nmax_continuations = 2\n")
	flagFile := filepath.Join(t.TempDir(), "flag.toml")
	write(t, flagFile, "decision_timeout = \"10s\"\n")
	trustAll := func(string, []byte) bool { return true }
	cfg, layers, err := Load(LoadOptions{UserConfigDir: user, ProjectDir: proj, ExplicitFile: flagFile, Trusted: trustAll})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Mode != "auto" || cfg.Stop.MaxContinuations != 2 || cfg.DecisionTimeout.D != 10*time.Second || cfg.SubagentStop.MaxSteers != 3 {
		t.Fatalf("merged: %+v", cfg)
	}
	if len(cfg.Stop.Checks) != 1 || cfg.Stop.Checks[0].Timeout.D != 90*time.Second || !cfg.Stop.Checks[0].Retries() {
		t.Fatalf("checks: %+v", cfg.Stop.Checks)
	}
	for _, l := range layers {
		if !l.Used {
			t.Errorf("layer %s not used", l.Path)
		}
	}
}

// A project file runs commands: untrusted, it is not used at all.
func TestUntrustedProjectConfigIsIgnored(t *testing.T) {
	proj := t.TempDir()
	path := filepath.Join(proj, ".hooksup.toml")
	write(t, path, "[[stop.checks]]\nname = \"evil\"\ncommand = \"rm -rf ~\"\n")
	store := TrustStore{Path: filepath.Join(t.TempDir(), "trusted")}
	cfg, layers, err := Load(LoadOptions{ProjectDir: proj, Trusted: store.Trusted})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Stop.Checks) != 0 {
		t.Fatal("an untrusted project config was used")
	}
	if layers[0].Used || !strings.Contains(layers[0].Note, "hooksup trust") {
		t.Fatalf("layer %+v", layers[0])
	}
	if err := store.Trust(path); err != nil {
		t.Fatal(err)
	}
	if cfg, _, _ = Load(LoadOptions{ProjectDir: proj, Trusted: store.Trusted}); len(cfg.Stop.Checks) != 1 {
		t.Fatal("trusted config not used")
	}
	// A change makes it untrusted again.
	write(t, path, "[[stop.checks]]\nname = \"evil\"\ncommand = \"rm -rf /\"\n")
	if cfg, _, _ = Load(LoadOptions{ProjectDir: proj, Trusted: store.Trusted}); len(cfg.Stop.Checks) != 0 {
		t.Fatal("a changed config stayed trusted")
	}
}

// The stop hook's timeout covers a wait for another session's run of the checks in the project
// (at most one run: ChecksTimeout), the stop's own run and the person's answer.
func TestStopHookTimeoutCoversAWaitChecksAndPerson(t *testing.T) {
	c := Defaults()
	c.Stop.Checks = []Check{{Name: "a", Command: "x", Timeout: Duration{2 * time.Minute}}, {Name: "b", Command: "y"}}
	c.SubagentStop.Checks = []Check{{Name: "c", Command: "z", Timeout: Duration{time.Minute}}}
	if got := c.ChecksTimeout(); got != 4*time.Minute {
		t.Fatalf("one run of the checks may take %v, want the stop's 4m0s", got)
	}
	if got, min := c.StopHookTimeout(), 4*time.Minute+4*time.Minute+c.DecisionTimeout.D; got <= min {
		t.Fatalf("hook timeout %v does not exceed a wait + checks + decision timeout %v", got, min)
	}
}

// A higher layer's checks replace the lower layer's list whole: nothing of a lower layer's
// check (env, cwd, retry) leaks into the check at the same position.
func TestConfigLayersDoNotLeak(t *testing.T) {
	user := t.TempDir()
	write(t, filepath.Join(user, "config.toml"), `
[[stop.checks]]
name = "tests"
command = "go test ./..."
env = { LEAK = "from-user" }
cwd = "/nonexistent"
retry_on_failure = false
required = true
[keys]
prefix = "ctrl+b"
bindings = { zoom = "Z", quit = "Q" }
`)
	flagFile := filepath.Join(t.TempDir(), "f.toml")
	write(t, flagFile, "[[stop.checks]]\nname = \"lint\"\ncommand = \"echo $LEAK\"\n[keys.bindings]\nzoom = \"y\"\n")
	cfg, _, err := Load(LoadOptions{UserConfigDir: user, ExplicitFile: flagFile})
	if err != nil {
		t.Fatal(err)
	}
	c := cfg.Stop.Checks
	if len(c) != 1 || c[0].Name != "lint" || len(c[0].Env) != 0 || c[0].Cwd != "" || !c[0].Retries() || c[0].Required {
		t.Fatalf("checks %+v", c)
	}
	// Tables merge key by key; an inline map is replaced whole.
	if cfg.Keys.Prefix != "ctrl+b" || len(cfg.Keys.Bindings) != 1 || cfg.Keys.Bindings["zoom"] != "y" {
		t.Fatalf("keys %+v", cfg.Keys)
	}
	if cfg.Mode != ModeAsk || cfg.DecisionTimeout.D != 5*time.Minute {
		t.Fatalf("defaults lost: %+v", cfg)
	}
}

func TestReasonLines(t *testing.T) {
	if Defaults().ReasonLines != 40 {
		t.Fatalf("default reason_lines %d", Defaults().ReasonLines)
	}
	path := filepath.Join(t.TempDir(), "c.toml")
	write(t, path, "reason_lines = 5\n")
	cfg, _, err := Load(LoadOptions{ExplicitFile: path})
	if err != nil || cfg.ReasonLines != 5 {
		t.Fatalf("reason_lines %d, err %v", cfg.ReasonLines, err)
	}
}
