package main

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/supervisor"
)

// configWatch is what a session needs to follow its project's configuration files while it
// runs: the files, the content it started with (the layers it used), the trust store, and how
// its configuration is made again from other contents of those files, every other layer and
// flag as they are.
func configWatch(g globalFlags, env environment, layers []config.Layer) *supervisor.ConfigWatch {
	w := &supervisor.ConfigWatch{Trust: trustStore(env), InUse: map[string][]byte{}, Files: projectFiles(env)}
	for _, l := range layers {
		if !l.Used || !slices.Contains(w.Files, l.Path) {
			continue
		}
		if content, err := config.ReadFile(l.Path); err == nil {
			w.InUse[l.Path] = content
		}
	}
	w.Load = func(project map[string][]byte) (config.Config, error) {
		return loadWithProject(g, env, w.Files, project)
	}
	w.Describe = func(path string, content []byte) string {
		c := config.Defaults()
		_ = config.Decode(path, content, &c) // valid: the session checked it first
		var b strings.Builder
		describeProjectFile(&b, path, c)
		return b.String()
	}
	return w
}

// projectFiles are the project's configuration files, whether they exist or not.
func projectFiles(env environment) []string {
	var out []string
	for _, name := range config.ProjectFiles {
		out = append(out, filepath.Join(env.projectDir, name))
	}
	return out
}

// loadWithProject is the configuration with the project's files holding what project says
// (absent: no file), used as the session decided, and the other layers and flags as
// loadLayers takes them.
func loadWithProject(g globalFlags, env environment, files []string, project map[string][]byte) (config.Config, error) {
	cfg, _, err := config.Load(config.LoadOptions{
		UserConfigDir: env.configDir, ProjectDir: env.projectDir, ExplicitFile: g.config,
		Trusted: func(path string, _ []byte) bool { _, ok := project[path]; return ok },
		Read: func(path string) ([]byte, error) {
			if !slices.Contains(files, path) {
				return config.ReadFile(path)
			}
			if c, ok := project[path]; ok {
				return c, nil
			}
			return nil, &fs.PathError{Op: "open", Path: path, Err: fs.ErrNotExist}
		},
	})
	if err != nil {
		return cfg, err
	}
	if g.mode != "" {
		cfg.Mode = config.Mode(g.mode)
	}
	if g.theme != "" {
		cfg.Theme = g.theme
	}
	var ces config.Errors
	if err := cfg.Validate(); errors.As(err, &ces) {
		return cfg, fmt.Errorf("--%s: %s", ces[0].Key, ces[0].Msg)
	}
	return cfg, nil
}
