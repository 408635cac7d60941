package project

import (
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// A CMake project builds out of tree: its CI makes a build directory, configures it (cmake ..,
// cmake -B build), builds (make, cmake --build) and runs ctest or make test there. init proposes
// the same as one check that needs no directory made beforehand:
//
//	cmake -S . -B build && cmake --build build && ctest --test-dir build --output-on-failure
//
// run in the source directory, with the configure's and the build's options of the CI.

// ciJob is what the steps of one job leave to the next: the directories they made and the build
// trees they configured, relative to the project.
type ciJob struct {
	file, job string
	made      map[string]bool
	builds    map[string]*cmakeBuild // by build directory
	presets   map[string]*cmakeBuild // by source directory and preset: "dir\x00preset"
	mesons    map[string]*cmakeBuild // Meson's build trees, by build directory
	uvSync    []string               // the groups and extras the job's uv sync installs
}

func newCIJob(file, job string) *ciJob {
	return &ciJob{file: file, job: job, made: map[string]bool{}, builds: map[string]*cmakeBuild{}, presets: map[string]*cmakeBuild{},
		mesons: map[string]*cmakeBuild{}}
}

// cmakePreset is the value of a --preset option in the words, "" when there is none.
func cmakePreset(f []string) string {
	for i, w := range f {
		if w == "--preset" && i+1 < len(f) {
			return f[i+1]
		}
		if p, ok := strings.CutPrefix(w, "--preset="); ok {
			return p
		}
	}
	return ""
}

// cmakePresetTestCheck is the test check of a CMake project that its CI configures, builds and
// tests with presets (CMakePresets.json): the build directory is the preset's.
func cmakePresetTestCheck(configure, build, test string, ctestOpts []string) string {
	opts := slices.DeleteFunc(slices.Clone(ctestOpts), func(w string) bool { return w == "--output-on-failure" })
	cmd := "cmake --preset " + configure + " && cmake --build --preset " + build + " && ctest --preset " + test
	for _, o := range opts {
		cmd += " " + o
	}
	return cmd + " --output-on-failure"
}

// cmakeBuild is one build tree a job configured.
type cmakeBuild struct {
	src       string   // its source directory (CMakeLists.txt), relative to the project
	configure []string // cmake's options: -D…, -G …
	build     []string // cmake --build's options
}

// cmakeValued are cmake's options whose value may be the next word.
var cmakeValued = []string{"-D", "-U", "-G", "-T", "-A", "-C", "-S", "-B"}

// cmakeTestCheck is the test check of a CMake project whose source is in the check's cwd: build
// out of tree in build, as its CI does, and run its tests with their output on failure.
func cmakeTestCheck(build string, configure, buildOpts, ctestOpts []string) string {
	words := func(w []string) string {
		if len(w) == 0 {
			return ""
		}
		return " " + strings.Join(w, " ")
	}
	if !slices.Contains(ctestOpts, "--output-on-failure") {
		ctestOpts = append(slices.Clone(ctestOpts), "--output-on-failure")
	}
	return "cmake -S . -B " + build + words(configure) + " && cmake --build " + build + words(buildOpts) +
		" && ctest --test-dir " + build + words(ctestOpts)
}

// cmakePart reads one command of a CI script, run in cwd, as a step of CMake's: mkdir, a
// configure, a build, the tests. ok says it was one; c is the test check when it runs the tests
// of a build tree whose source is here.
func (det *detector) cmakePart(job *ciJob, cwd, part string) (c ciCheck, ok bool) {
	f := strings.Fields(part)
	for len(f) > 0 && strings.Contains(f[0], "=") && !strings.HasPrefix(f[0], "-") {
		f = f[1:] // CTEST_OUTPUT_ON_FAILURE=1 make test
	}
	for i, w := range f {
		if len(w) >= 2 && (w[0] == '"' || w[0] == '\'') && w[len(w)-1] == w[0] && !strings.ContainsAny(w[1:len(w)-1], " \"'") {
			f[i] = w[1 : len(w)-1] // cmake "--preset=ci"
		}
	}
	if len(f) == 0 {
		return c, false
	}
	plain := func(w string) bool { return !strings.ContainsAny(w, "$`~") }
	switch {
	case f[0] == "mkdir":
		for _, a := range f[1:] {
			if !strings.HasPrefix(a, "-") && plain(a) {
				job.made[path.Join(cwd, a)] = true
			}
		}
		return c, true
	case f[0] == "cmake" && cmakePreset(f) != "" && !strings.ContainsAny(strings.Join(f, " "), "$`"):
		if !det.cmakeSource(cwd) {
			return c, true
		}
		if len(f) > 1 && f[1] == "--build" {
			if b := job.presets[cwd+"\x00configure"]; b != nil {
				b.build = []string{cmakePreset(f)}
			}
			return c, true
		}
		job.presets[cwd+"\x00configure"] = &cmakeBuild{src: cwd, configure: []string{cmakePreset(f)}}
		return c, true
	case f[0] == "ctest" && cmakePreset(f) != "" && det.cmakeSource(cwd) && !strings.ContainsAny(strings.Join(f, " "), "$`"):
		b := job.presets[cwd+"\x00configure"]
		test := cmakePreset(f)
		configure, build := test, test
		if b != nil {
			configure = b.configure[0]
			if len(b.build) > 0 {
				build = b.build[0]
			} else {
				build = configure
			}
		}
		var opts []string
		for i := 1; i < len(f); i++ {
			switch w := f[i]; {
			case w == "--preset":
				i++
			case strings.HasPrefix(w, "--preset="), w == "-V", w == "-VV", w == "--verbose", w == "--extra-verbose":
			default:
				opts = append(opts, w)
			}
		}
		return ciCheck{role: "test", long: "ctest", at: cwd, command: cmakePresetTestCheck(configure, build, test, opts)}, true
	case f[0] == "cmake" && len(f) > 2 && f[1] == "--build":
		b := job.builds[path.Join(cwd, f[2])]
		if b == nil {
			return c, false
		}
		opts := f[3:]
		if i := slices.Index(opts, "--target"); i >= 0 && i+1 < len(opts) && opts[i+1] == "test" {
			return det.cmakeTest(job, path.Join(cwd, f[2]), nil)
		}
		b.build = slices.DeleteFunc(slices.Clone(opts), func(w string) bool { return !plain(w) })
		return c, true
	case f[0] == "cmake" && len(f) > 1 && (strings.HasPrefix(f[1], "-E") || f[1] == "-P" || f[1] == "--install" ||
		f[1] == "--version" || f[1] == "--help" || f[1] == "--open"):
		return c, true
	case f[0] == "cmake":
		src, build := "", ""
		var opts []string
		for i := 1; i < len(f); i++ {
			w := f[i]
			switch {
			case strings.Contains(w, "${{"):
				return c, false // the workflow's expressions: classify says so
			case !plain(w):
				continue // a shell variable's options: the script's to know
			case w == "-S" || w == "-B":
				if i+1 < len(f) {
					if w == "-S" {
						src = f[i+1]
					} else {
						build = f[i+1]
					}
					i++
				}
			case strings.HasPrefix(w, "-S"):
				src = w[2:]
			case strings.HasPrefix(w, "-B"):
				build = w[2:]
			case slices.Contains(cmakeValued, w) && i+1 < len(f):
				opts = append(opts, w, f[i+1])
				i++
			case strings.HasPrefix(w, "-"):
				opts = append(opts, w)
			default:
				src = w
			}
		}
		srcDir, buildDir := path.Join(cwd, src), path.Join(cwd, build)
		if !det.cmakeSource(srcDir) {
			return c, true
		}
		job.made[buildDir] = true
		job.builds[buildDir] = &cmakeBuild{src: srcDir, configure: opts}
		return c, true
	case f[0] == "make" && job.builds[cwd] != nil:
		if slices.Contains(f[1:], "test") {
			return det.cmakeTest(job, cwd, nil)
		}
		return c, true // the build
	case f[0] == "ctest":
		dir, opts := cwd, []string{}
		for i := 1; i < len(f); i++ {
			switch w := f[i]; {
			case w == "--test-dir" && i+1 < len(f):
				dir = path.Join(cwd, f[i+1])
				i++
			case strings.HasPrefix(w, "--test-dir="):
				dir = path.Join(cwd, strings.TrimPrefix(w, "--test-dir="))
			case w == "-V" || w == "-VV" || w == "--verbose" || w == "--extra-verbose":
				// Its passes would bury the failure; --output-on-failure prints that.
			default:
				opts = append(opts, w)
			}
		}
		return det.cmakeTest(job, dir, opts)
	}
	return c, false
}

// cmakeTest is the check that runs the tests of the build tree in dir: the job's configure, or
// that of the CMakeLists.txt above a directory the CI makes.
func (det *detector) cmakeTest(job *ciJob, dir string, ctestOpts []string) (ciCheck, bool) {
	b := job.builds[dir]
	if b == nil {
		if fi, err := fs.Stat(det.fsys, dir); (err != nil || !fi.IsDir()) && dir != "." && det.cmakeSource(path.Dir(dir)) {
			b = &cmakeBuild{src: path.Dir(dir)}
		} else {
			return ciCheck{}, false
		}
	}
	rel := dir
	if b.src != "." {
		var ok bool
		if rel, ok = strings.CutPrefix(dir, b.src+"/"); !ok {
			return ciCheck{}, false // a build tree outside its source: no check runs there
		}
	}
	if rel == "." {
		return ciCheck{}, false // built in the source tree
	}
	return ciCheck{role: "test", long: "ctest", at: b.src,
		command: cmakeTestCheck(rel, b.configure, b.build, ctestOpts)}, true
}

// cmakeSource reports whether dir is a CMake project's source directory.
func (det *detector) cmakeSource(dir string) bool {
	if dir == ".." || strings.HasPrefix(dir, "../") || path.IsAbs(dir) {
		return false
	}
	return det.dir(dir).files["CMakeLists.txt"]
}

// cmakeTestsRe matches what makes ctest find a CMake project's tests.
var cmakeTestsRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?im)^\s*(enable_testing\s*\(|add_test\s*\(|include\s*\(\s*CTest\b)`)
})

// cmakeProject proposes the out-of-tree build and ctest for a CMakeLists.txt that has tests.
func (d *dirInfo) cmakeProject(det *detector) *detected {
	if !d.files["CMakeLists.txt"] {
		return nil
	}
	if d.dir != "." && det.dir(path.Dir(d.dir)).files["CMakeLists.txt"] {
		return nil // a subdirectory of the CMake project above it
	}
	p := &detected{Project: Project{Kind: "CMake project (CMakeLists.txt)"}}
	if !cmakeTestsRe().MatchString(det.read(path.Join(d.dir, "CMakeLists.txt"))) {
		p.Detail = "no tests (no enable_testing, add_test or include(CTest)): no checks"
		p.problem = true
		return p
	}
	p.Detail = "ctest, built out of tree in build"
	p.add("test", "ctest", cmakeTestCheck("build", nil, nil, nil), detectRustTimeout, nil)
	return p
}
