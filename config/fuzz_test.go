package config_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/project"
)

// FuzzLoadConfig: any bytes as a config file load or give config.Errors, each naming the file;
// never a panic. A config that loads is valid, and its checks can be run.
// scripts/fuzz.sh runs it for long.
func FuzzLoadConfig(f *testing.F) {
	f.Add([]byte(project.Template))
	f.Add([]byte(project.InitFile(project.Detect(os.DirFS(filepath.Join("..", "project", "testdata", "projects", "monorepo"))))))
	f.Add([]byte("mode = \"auto\"\n[stop]\nmax_continuations = 3\n[[stop.checks]]\nname = \"tests\"\ncommand = \"go test ./...\"\ntimeout = \"2m\"\nenv = { CI = \"true\" }\nretry_on_failure = true\nmax_retries = 10\n"))
	f.Add([]byte("[[subagent_stop.checks]]\nname = \"x\"\ncommand = \"true\"\nagent_types = [\"general-purpose\"]\n[notifications]\non_idle = \"nudge\"\n[keys]\nprefix = \"C-a\"\nbindings = { a = \"b\" }\n"))
	f.Add([]byte("mode = \n"))
	f.Add([]byte("[stop]\nmax_continuations = \"three\"\n"))
	f.Add([]byte("decision_timeout = \"-5m\"\n[stop.\"checks\"]\n"))
	f.Add([]byte("mode = \"yolo\"\n"))
	f.Add([]byte("[[stop.checks]]\nname = \"a\"\ncommand = \"x\"\n[[stop.checks]]\nname = \"a\"\ncommand = \"y\"\n"))
	f.Add([]byte("a.b.c = 1\n\"x y\" = 2\n[ui]\nhold_on_exit = 1979-05-27T07:32:00Z\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "fuzz.toml")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		cfg := config.Defaults()
		namesFile(t, "DecodeFile", path, config.DecodeFile(path, &cfg))
		cfg, _, err := config.Load(config.LoadOptions{ExplicitFile: path})
		namesFile(t, "Load", path, err)
		if err == nil {
			if verr := cfg.Validate(); verr != nil {
				t.Fatalf("Load returned an invalid config: %v", verr)
			}
			_ = cfg.StopHookTimeout()
		}
	})
}

func namesFile(t *testing.T, what, path string, err error) {
	t.Helper()
	if err == nil {
		return
	}
	var ces config.Errors
	if !errors.As(err, &ces) || len(ces) == 0 {
		t.Fatalf("%s: %T is not config.Errors: %v", what, err, err)
	}
	for _, ce := range ces {
		if ce.File != path || !strings.HasPrefix(ce.Error(), path) {
			t.Fatalf("%s: a problem does not name the file %s: %v", what, path, ce)
		}
	}
}
