package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/config"
)

// Files writes a project tree into the sandbox's project directory.
func (s *Sandbox) Files(tree map[string]string) {
	s.t.Helper()
	for name, content := range tree {
		p := filepath.Join(s.Project, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			s.t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			s.t.Fatal(err)
		}
	}
}

// loadProjectConfig loads the configuration as hooksup does, with the sandbox's trust store, and
// fails unless the project's .hooksup.toml took part.
func (s *Sandbox) loadProjectConfig() config.Config {
	s.t.Helper()
	cfg, layers, err := config.Load(config.LoadOptions{
		ProjectDir: s.Project,
		Trusted:    config.TrustStore{Path: filepath.Join(s.StateDir(), "trusted")}.Trusted,
	})
	if err != nil {
		s.t.Fatal(err)
	}
	for _, l := range layers {
		if l.Source == "project" && !l.Used {
			s.t.Fatalf("%s not used: %s", l.Path, l.Note)
		}
	}
	return cfg
}

func CheckTriples(checks []config.Check) []string {
	var out []string
	for _, c := range checks {
		line := c.Name + " | " + c.Command
		if c.Cwd != "" {
			line += " | " + c.Cwd
		}
		out = append(out, line)
	}
	return out
}

// Ok runs hooksup with args and fails the test unless it exits 0, naming the subcommand; it
// returns what hooksup printed.
func (s *Sandbox) Ok(args ...string) string {
	s.t.Helper()
	code, out := s.Hooksup(s.t, args...)
	if code != 0 {
		s.t.Fatalf("%s: %d %s", args[0], code, out)
	}
	return out
}

// Says fails the test for each of wants that out, what the command named what printed, lacks.
func Says(t *testing.T, what, out string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(out, w) {
			t.Errorf("%s did not say %q:\n%s", what, w, out)
		}
	}
}

// FileSays reads the project's .hooksup.toml and fails the test for each of wants it lacks; it
// returns the file.
func (s *Sandbox) FileSays(wants ...string) string {
	s.t.Helper()
	b, _ := os.ReadFile(filepath.Join(s.Project, ".hooksup.toml"))
	for _, w := range wants {
		if !strings.Contains(string(b), w) {
			s.t.Errorf("the file lacks %q:\n%s", w, b)
		}
	}
	return string(b)
}

// TrustGives trusts the project's .hooksup.toml and fails the test unless the real loader gives
// exactly the checks want (name | command [| cwd]), in order.
func (s *Sandbox) TrustGives(want ...string) {
	s.t.Helper()
	s.Ok("trust", "--yes")
	if got := CheckTriples(s.loadProjectConfig().Stop.Checks); !reflect.DeepEqual(got, want) {
		s.t.Fatalf("checks in .hooksup.toml:\n  got  %q\n  want %q", got, want)
	}
}

// CheckGives runs hooksup check and fails the test unless it exits code, its output ends in
// last and says each of said; it returns the output.
func (s *Sandbox) CheckGives(code int, last string, said ...string) string {
	s.t.Helper()
	got, out := s.Hooksup(s.t, "check")
	ok := got == code && strings.HasSuffix(out, last)
	for _, w := range said {
		ok = ok && strings.Contains(out, w)
	}
	if !ok {
		s.t.Fatalf("check: exit %d, want %d, ending %q, saying %q:\n%s", got, code, last, said, out)
	}
	return out
}

// Doctor runs hooksup doctor, with a claude that is there.
func (s *Sandbox) Doctor() (int, string) {
	s.t.Helper()
	return s.Hooksup(s.t, "--claude-bin", "/bin/true", "doctor")
}

// PathOf makes the PATH of the sandbox's commands a new directory of links to those of programs
// this machine has, and nothing else; it returns the directory.
func (s *Sandbox) PathOf(programs ...string) string {
	s.t.Helper()
	bin := s.t.TempDir()
	for _, p := range programs {
		if path, err := exec.LookPath(p); err == nil {
			os.Symlink(path, filepath.Join(bin, p))
		}
	}
	for i, e := range s.Env {
		if strings.HasPrefix(e, "PATH=") {
			s.Env[i] = "PATH=" + bin
		}
	}
	return bin
}

// PathFirst puts dir first on the PATH of the sandbox's commands.
func (s *Sandbox) PathFirst(dir string) {
	for i, e := range s.Env {
		if p, ok := strings.CutPrefix(e, "PATH="); ok {
			s.Env[i] = "PATH=" + dir + ":" + p
		}
	}
}

// TinyModule is a Go module in dir ("" for the project's root) whose test of Add fails with
// "Add(2, 3) = -1" while tinyGo's sum is "a - b".
func TinyModule(dir, sum string) map[string]string {
	return map[string]string{
		filepath.Join(dir, "go.mod"):       "module example.com/tiny\n\ngo 1.21\n",
		filepath.Join(dir, "tiny.go"):      TinyGo(sum),
		filepath.Join(dir, "tiny_test.go"): "package tiny\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif got := Add(2, 3); got != 5 {\n\t\tt.Fatalf(\"Add(2, 3) = %d\", got)\n\t}\n}\n",
	}
}

// TinyGo is tinyModule's tiny.go, whose Add returns sum.
func TinyGo(sum string) string {
	return "package tiny\n\n// Add adds.\nfunc Add(a, b int) int { return " + sum + " }\n"
}
