package project

import (
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

// TestDetectMeson: a Meson project is built out of tree and its tests run with meson test, as
// its CI does (json-c's only workflow: meson setup, meson compile, meson test, on
// ${{github.workspace}}/build, --verbose), or as init's own guess where no CI runs it.
func TestDetectMeson(t *testing.T) {
	build := "project('x', 'c')\nt = executable('t', 't.c')\ntest('t', t)\n"
	for _, tc := range []struct {
		name  string
		fsys  fstest.MapFS
		want  []string
		found string
	}{
		{"CI", fstest.MapFS{"meson.build": {Data: []byte(build)}, ".github/workflows/meson.yml": workflow(
			"meson setup \"${{github.workspace}}/build\" -Dwarning_level=3 -Dbuildtype=debug\n" +
				"meson compile -C \"${{github.workspace}}/build\" --verbose\nmeson test -C \"${{github.workspace}}/build\" --verbose")},
			[]string{"test | meson setup build -Dwarning_level=3 -Dbuildtype=debug && meson test -C build --print-errorlogs"},
			"GitHub Actions (.github/workflows/meson.yml): `meson setup build -Dwarning_level=3 -Dbuildtype=debug && meson test -C build --print-errorlogs` stands in for `meson setup build && meson test -C build --print-errorlogs`"},
		{"no CI", fstest.MapFS{"meson.build": {Data: []byte(build)}},
			[]string{"test | meson setup build && meson test -C build --print-errorlogs"}, "Meson project (meson.build): meson test, built out of tree in build"},
		{"no tests", fstest.MapFS{"meson.build": {Data: []byte("project('x', 'c')\nexecutable('t', 't.c')\n")}}, nil,
			"Meson project (meson.build): no tests (no test() in meson.build): no checks"},
		{"beside CMake", fstest.MapFS{"meson.build": {Data: []byte(build)}, "CMakeLists.txt": {Data: []byte("project(x C)\nenable_testing()\n")}},
			[]string{"test | cmake -S . -B build && cmake --build build && ctest --test-dir build --output-on-failure"},
			"Meson project (meson.build): `cmake -S . -B build && cmake --build build && ctest --test-dir build --output-on-failure` stands in for `meson setup build && meson test -C build --print-errorlogs`"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := Detect(tc.fsys)
			if got := checkLines(d.Checks()); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("checks:\n  got  %q\n  want %q\n%s", got, tc.want, d.Summary())
			}
			if !strings.Contains(d.Summary(), tc.found) {
				t.Errorf("summary lacks %q:\n%s", tc.found, d.Summary())
			}
		})
	}
}
