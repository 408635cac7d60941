package hooks

import "strings"

// SessionVars are a session's own variables: the hooks' socket, token and log. An outer
// session's must reach neither a check nor a nested claude, whose hooks would call the outer
// hooksup.
var SessionVars = []string{EnvSocket, EnvToken, EnvLog}

// ScrubEnv returns env without the variables named in drop; a name ending in * drops every
// variable whose name begins with the rest.
func ScrubEnv(env []string, drop []string) []string {
	out := make([]string, 0, len(env))
next:
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		for _, d := range drop {
			if prefix, ok := strings.CutSuffix(d, "*"); ok {
				if strings.HasPrefix(name, prefix) {
					continue next
				}
			} else if name == d {
				continue next
			}
		}
		out = append(out, kv)
	}
	return out
}
