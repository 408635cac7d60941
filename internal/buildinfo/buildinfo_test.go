package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestFormat(t *testing.T) {
	inClone := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123abcd"}, {Key: "vcs.time", Value: "2026-11-23T12:00:00Z"}, {Key: "vcs.modified", Value: "false"},
	}}
	edited := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123abcd"}, {Key: "vcs.modified", Value: "true"},
	}}
	goInstalled := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.4.0"}}
	for _, tc := range []struct {
		name                  string
		version, commit, date string
		bi                    *debug.BuildInfo
		want                  string
	}{
		{"release build: the linker's values win", "v1.5.0", "feedbeef", "2026-12-01T08:00:00Z", inClone,
			"hooksup v1.5.0 (commit feedbeef, 2026-12-01T08:00:00Z, go1.26.8)"},
		{"go build in a clone", "", "", "", inClone, "hooksup dev (commit 0123abcd, 2026-11-23T12:00:00Z, go1.26.8)"},
		{"go build with uncommitted changes", "", "", "", edited, "hooksup dev (commit 0123abcd+changes, go1.26.8)"},
		{"go install …@v1.4.0", "", "", "", goInstalled, "hooksup v1.4.0 (commit unknown, go1.26.8)"},
		{"no build info", "", "", "", nil, "hooksup dev (commit unknown, unknown Go)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := format("hooksup", tc.version, tc.commit, tc.date, tc.bi); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestVersion(t *testing.T) {
	inClone := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123abcd"}, {Key: "vcs.modified", Value: "true"},
	}}
	for _, tc := range []struct {
		version, commit string
		bi              *debug.BuildInfo
		want            string
	}{
		{"v1.5.0", "feedbeef", inClone, "v1.5.0"},
		{"", "", inClone, "dev 0123abcd+changes"},
		{"", "", &debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}}, "v1.4.0"},
		{"", "", nil, "dev"},
	} {
		if got := short(tc.version, tc.commit, tc.bi); got != tc.want {
			t.Errorf("short(%q, %q): %q, want %q", tc.version, tc.commit, got, tc.want)
		}
	}
}
