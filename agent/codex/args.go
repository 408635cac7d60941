package codex

import "strings"

// HookArgs returns the arguments of a codex command line (without the program name) that
// change which hooks run: -c/--config overrides of hooks or hooks.* (a later override of the
// same key replaces Overrides' — Codex does not append), of features.hooks, --disable/--enable
// hooks, and --dangerously-bypass-hook-trust. Each is returned as one string ("-c
// hooks.Stop=[]", "--disable hooks"). Arguments after "--" are the prompt, not options, and are
// not looked at. hooksup says so instead of silently losing them or its own hooks (see
// Overrides for where its own arguments go).
func HookArgs(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		name, value, inline := a, "", false
		switch {
		case strings.HasPrefix(a, "--") && strings.Contains(a, "="):
			name, value, _ = strings.Cut(a, "=")
			inline = true
		case strings.HasPrefix(a, "-c") && len(a) > 2:
			name, value, inline = "-c", strings.TrimPrefix(strings.TrimPrefix(a, "-c"), "="), true
		}
		takesValue := name == "-c" || name == "--config" || name == "--enable" || name == "--disable"
		if takesValue && !inline {
			if i+1 >= len(args) {
				break
			}
			i++
			value = args[i]
		}
		switch name {
		case "-c", "--config":
			key, _, _ := strings.Cut(value, "=")
			key = strings.TrimSpace(key)
			if key == "hooks" || strings.HasPrefix(key, "hooks.") || key == "features.hooks" {
				out = append(out, name+" "+value)
			}
		case "--enable", "--disable":
			if strings.TrimSpace(value) == "hooks" {
				out = append(out, name+" "+value)
			}
		case "--dangerously-bypass-hook-trust":
			out = append(out, name)
		}
	}
	return out
}
