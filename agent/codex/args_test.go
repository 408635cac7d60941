package codex

import (
	"slices"
	"testing"
)

func TestHookArgs(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{nil, nil},
		{[]string{"exec", "hi"}, nil},
		{[]string{"-c", "model=o3", "exec", "--json", "fix the hooks.Stop thing"}, nil},
		{[]string{"-c", `hooks.Stop=[]`, "exec", "hi"}, []string{`-c hooks.Stop=[]`}},
		{[]string{"exec", "-c", `hooks.state={}`, "hi"}, []string{`-c hooks.state={}`}},
		{[]string{`-chooks.Stop=[]`, `--config=hooks.PreToolUse=[]`, "--config", " hooks = {}"}, []string{`-c hooks.Stop=[]`, `--config hooks.PreToolUse=[]`, `--config  hooks = {}`}},
		{[]string{"-c", "features.hooks=false"}, []string{"-c features.hooks=false"}},
		{[]string{"--disable", "hooks", "--enable=hooks", "--disable", "plugins"}, []string{"--disable hooks", "--enable hooks"}},
		{[]string{"exec", "--dangerously-bypass-hook-trust", "hi"}, []string{"--dangerously-bypass-hook-trust"}},
		// After "--" everything is the prompt.
		{[]string{"exec", "--", "-c", "hooks.Stop=[]"}, nil},
		// A value that looks like an option is still the value of -c.
		{[]string{"-c", "hooksup=1", "-c"}, nil},
		{[]string{"-c", "model=x", "--disable"}, nil},
	} {
		if got := HookArgs(tc.args); !slices.Equal(got, tc.want) {
			t.Errorf("HookArgs(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
}
