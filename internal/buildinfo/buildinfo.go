// Package buildinfo says which build of hooksup is running: the version, commit and date a
// release stamps through the linker (-X main.version=… -X main.commit=… -X main.date=…), else
// what Go recorded in the binary (the module version of `go install …@v1.2.3`, the commit and its
// time of a build inside a clone).
package buildinfo

import (
	"fmt"
	"runtime/debug"
)

// String is the version line of the program called name: "hooksup v1.2.3 (commit 0123abc,
// 2026-11-23T12:00:00Z, go1.26.8)". Empty arguments are filled in from the build info.
func String(name, version, commit, date string) string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = nil
	}
	return format(name, version, commit, date, bi)
}

// Version is the version alone, as String says it: "v1.2.3", or, for a build without one, "dev"
// and its commit: "dev 0123abcd+changes".
func Version(version, commit string) string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = nil
	}
	return short(version, commit, bi)
}

func short(version, commit string, bi *debug.BuildInfo) string {
	b := resolve(version, commit, "", bi)
	if b.version != "dev" || b.commit == "unknown" {
		return b.version
	}
	return "dev " + b.commit
}

func format(name, version, commit, date string, bi *debug.BuildInfo) string {
	b := resolve(version, commit, date, bi)
	out := fmt.Sprintf("%s %s (commit %s", name, b.version, b.commit)
	if b.date != "" {
		out += ", " + b.date
	}
	return out + ", " + b.goVersion + ")"
}

// build is what String says of a build.
type build struct{ version, commit, date, goVersion string }

// resolve fills in from bi what the linker did not stamp.
func resolve(version, commit, date string, bi *debug.BuildInfo) build {
	goVersion := "unknown Go"
	if bi != nil {
		goVersion = bi.GoVersion
		if version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			version = bi.Main.Version
		}
		modified := false
		vcsCommit, vcsTime := "", ""
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				vcsCommit = s.Value
			case "vcs.time":
				vcsTime = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		if commit == "" && vcsCommit != "" {
			commit = vcsCommit
			if modified {
				commit += "+changes"
			}
		}
		if date == "" {
			date = vcsTime
		}
	}
	if version == "" {
		version = "dev"
	}
	if commit == "" {
		commit = "unknown"
	}
	return build{version, commit, date, goVersion}
}
