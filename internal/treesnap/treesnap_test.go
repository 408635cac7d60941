package treesnap

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v %s", args, err, out)
	}
}

// A command's changes to the project, in a git work tree and in a plain directory: a file
// rewritten, one created, one deleted, one made executable are named; what git ignores, the
// caches tools keep, a CMake build tree (out of the source, as a check builds it), a file
// rewritten with the same content are not.
func TestDiffNamesWhatACommandChanged(t *testing.T) {
	for _, inGit := range []bool{true, false} {
		name := "walk"
		if inGit {
			name = "git"
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, map[string]string{
				"README.md": "# x\n", "same.txt": "same\n", "gone.txt": "x\n", "run.sh": "true\n",
				".gitignore": "dist/\n", "dist/out.js": "1\n", "src/a.go": "package a\n",
			})
			if inGit {
				git(t, dir, "init", "-q")
				git(t, dir, "add", "README.md", "same.txt", "gone.txt", "run.sh", ".gitignore")
			}
			ctx := context.Background()
			before, err := Take(ctx, dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			if before.Git() != inGit {
				t.Errorf("Git() = %t", before.Git())
			}
			if d := Diff(before, before); len(d) != 0 {
				t.Fatalf("a tree differs from itself: %v", d)
			}
			later := time.Now().Add(time.Second)
			write(t, dir, map[string]string{"README.md": "# x, rewritten\n", "same.txt": "same\n", "new.md": "n\n",
				"__pycache__/a.pyc": "c", "dist/out.js": "2\n", ".pytest_cache/v": "1",
				"build/CMakeCache.txt": "CMAKE_HOME_DIRECTORY:INTERNAL=x\n", "build/.ninja_log": "1\n", "build/CMakeFiles/t.dir/t.c.o": "o"})
			os.Chtimes(filepath.Join(dir, "same.txt"), later, later)
			os.Remove(filepath.Join(dir, "gone.txt"))
			os.Chmod(filepath.Join(dir, "run.sh"), 0o755)
			after, err := Take(ctx, dir, before)
			if err != nil {
				t.Fatal(err)
			}
			want := "README.md, gone.txt (deleted), new.md (created), run.sh (mode changed)"
			if !inGit {
				want = "README.md, dist/out.js, gone.txt (deleted), new.md (created), run.sh (mode changed)"
			}
			if got := Summary(Diff(before, after), 10); got != want {
				t.Errorf("changes %q, want %q", got, want)
			}
			if got := Summary(Diff(before, after), 2); got != "README.md, "+map[bool]string{true: "gone.txt (deleted) and 2 more", false: "dist/out.js and 3 more"}[inGit] {
				t.Errorf("cut to 2: %q", got)
			}
		})
	}
}

// A path with a control character is quoted: it is safe to print, and to write in a comment.
func TestChangeQuotesAControl(t *testing.T) {
	for _, tc := range []struct {
		c    Change
		want string
	}{
		{Change{"README.md", "changed"}, "README.md"},
		{Change{"a\x1b[2Jb.md", "created"}, `"a\x1b[2Jb.md" (created)`},
		{Change{"new\nline", "changed"}, `"new\nline"`},
		{Change{"é.txt", "deleted"}, "é.txt (deleted)"},
	} {
		if got := tc.c.String(); got != tc.want {
			t.Errorf("%q: %s, want %s", tc.c.Path, got, tc.want)
		}
	}
}
