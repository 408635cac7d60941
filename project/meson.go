package project

import (
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// A Meson project builds out of tree, as a CMake one does: its CI configures a build directory
// (meson setup build), builds (meson compile -C build) and runs the tests there (meson test -C
// build). init proposes the same as one check, run in the source directory, with the CI's
// configure options:
//
//	meson setup build && meson test -C build --print-errorlogs
//
// meson setup on a directory it configured before says so and succeeds; meson test builds what
// changed before it tests.

// mesonTestCheck is the test check of a Meson project whose source is the check's cwd, built in
// build with the configure options, with the options of meson test.
func mesonTestCheck(build string, configure, testOpts []string) string {
	words := func(w []string) string {
		if len(w) == 0 {
			return ""
		}
		return " " + strings.Join(w, " ")
	}
	if !slices.Contains(testOpts, "--print-errorlogs") {
		testOpts = append(slices.Clone(testOpts), "--print-errorlogs")
	}
	return "meson setup " + build + words(configure) + " && meson test -C " + build + words(testOpts)
}

// mesonValued are meson setup's and meson test's options whose value may be the next word.
var mesonValued = []string{"-D", "-C", "--buildtype", "--backend", "--prefix", "--wrap-mode", "--native-file", "--cross-file",
	"--suite", "--no-suite", "--setup", "--num-processes", "--repeat", "-t", "--timeout-multiplier", "--wrapper"}

// mesonPart reads one command of a CI script, run in cwd, as a step of Meson's: a configure, a
// build, the tests. ok says it was one; c is the test check when it runs the tests of a build
// tree whose source is here.
func (det *detector) mesonPart(job *ciJob, cwd, part string) (c ciCheck, ok bool) {
	f := strings.Fields(part)
	for len(f) > 0 && strings.Contains(f[0], "=") && !strings.HasPrefix(f[0], "-") {
		f = f[1:]
	}
	for i, w := range f {
		if len(w) >= 2 && (w[0] == '"' || w[0] == '\'') && w[len(w)-1] == w[0] && !strings.ContainsAny(w[1:len(w)-1], " \"'") {
			f[i] = w[1 : len(w)-1] // meson setup "./build"
		}
	}
	if len(f) < 2 || f[0] != "meson" {
		return c, false
	}
	if strings.ContainsAny(strings.Join(f, " "), "$`") {
		return c, false // the workflow's expressions, a shell variable: classify's to say
	}
	sub, args := f[1], f[2:]
	switch {
	case sub == "setup" || !strings.HasPrefix(sub, "-") && !slices.Contains([]string{"compile", "test", "configure", "install", "dist", "init", "introspect", "subprojects", "wrap", "rewrite", "devenv", "env2mfile", "format", "fmt", "help"}, sub):
		if sub != "setup" {
			args = f[1:] // meson BUILD: the old form of meson setup
		}
		var dirs, opts []string
		for i := 0; i < len(args); i++ {
			switch w := args[i]; {
			case w == "--reconfigure" || w == "--wipe":
			case slices.Contains(mesonValued, w) && i+1 < len(args):
				opts = append(opts, w, args[i+1])
				i++
			case strings.HasPrefix(w, "-"):
				opts = append(opts, w)
			default:
				dirs = append(dirs, w)
			}
		}
		if len(dirs) == 0 {
			return c, true
		}
		build, src := path.Join(cwd, dirs[0]), cwd
		if len(dirs) > 1 {
			src = path.Join(cwd, dirs[1])
		}
		if !det.mesonSource(src) {
			return c, true
		}
		job.made[build] = true
		job.mesons[build] = &cmakeBuild{src: src, configure: opts}
		return c, true
	case sub == "test":
		dir := cwd
		var opts []string
		for i := 0; i < len(args); i++ {
			switch w := args[i]; {
			case w == "-C" && i+1 < len(args):
				dir = path.Join(cwd, args[i+1])
				i++
			case strings.HasPrefix(w, "-C"):
				dir = path.Join(cwd, w[2:])
			case slices.Contains(verbosityFlags, w):
				// Its passes would bury the failure; --print-errorlogs prints that.
			case slices.Contains(mesonValued, w) && i+1 < len(args):
				opts = append(opts, w, args[i+1])
				i++
			default:
				opts = append(opts, w)
			}
		}
		b := job.mesons[dir]
		if b == nil {
			fi, err := fs.Stat(det.fsys, dir)
			if (err == nil && fi.IsDir()) || dir == "." || !det.mesonSource(path.Dir(dir)) {
				return c, true
			}
			b = &cmakeBuild{src: path.Dir(dir)}
		}
		rel := dir
		if b.src != "." {
			var ok bool
			if rel, ok = strings.CutPrefix(dir, b.src+"/"); !ok {
				return c, true // a build tree outside its source: no check runs there
			}
		}
		return ciCheck{role: "test", long: "meson test", at: b.src, command: mesonTestCheck(rel, b.configure, opts)}, true
	}
	return c, true // meson compile, meson --version, …: no check
}

// mesonSource reports whether dir is a Meson project's source directory.
func (det *detector) mesonSource(dir string) bool {
	if dir == ".." || strings.HasPrefix(dir, "../") || path.IsAbs(dir) {
		return false
	}
	return det.dir(dir).files["meson.build"]
}

// mesonTestsRe matches a test (or benchmark's sibling) declared in a meson.build: test('name', exe).
var mesonTestsRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)(?:^|[^\w.'"])test\s*\(`) })

// mesonProject proposes the out-of-tree build and meson test for a meson.build that declares
// tests.
func (d *dirInfo) mesonProject(det *detector) *detected {
	if !d.files["meson.build"] {
		return nil
	}
	if d.dir != "." && det.dir(path.Dir(d.dir)).files["meson.build"] {
		return nil // a subdir() of the Meson project above it
	}
	p := &detected{Project: Project{Kind: "Meson project (meson.build)"}}
	// Its tests may be declared in the meson.build files of its subdirectories.
	found := false
	fs.WalkDir(det.fsys, d.dir, func(name string, e fs.DirEntry, err error) error {
		switch {
		case err != nil || found:
			return fs.SkipDir
		case e.IsDir() && name != d.dir && (strings.HasPrefix(e.Name(), ".") || skipDirs[e.Name()] || e.Name() == "subprojects"):
			return fs.SkipDir
		case e.Name() == "meson.build" && mesonTestsRe().MatchString(det.read(name)):
			found = true
		}
		return nil
	})
	if !found {
		p.Detail = "no tests (no test() in meson.build): no checks"
		p.problem = true
		return p
	}
	p.Detail = "meson test, built out of tree in build"
	p.add("test", "meson test", mesonTestCheck("build", nil, nil), detectRustTimeout, nil)
	return p
}
