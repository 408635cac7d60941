package tomltext

import (
	"strconv"
	"strings"
)

// KeyLine finds the line of a file that sets key ("stop.checks[1].timeout"): the assignment
// itself, under its table's header, as a dotted key or inside an inline table; failing that,
// the line of the closest table or key above it that contains it (a check without a command:
// its [[stop.checks]] header). 0 when nothing of the key is in the file.
func KeyLine(data []byte, key string) int {
	var (
		table    string             // the current table, with indices: "stop.checks[1]"
		counts   = map[string]int{} // [[array]] headers seen, by their key
		outer    string             // the table around an open multi-line inline table
		depth    int                // open braces of that inline table
		best     int
		bestLen  int
		multiStr string // the delimiter of a multi-line string being skipped
	)
	// consider reports whether full, set on line, is the key (or a key inside it), and
	// remembers the longest table or key seen that contains it.
	consider := func(full string, line int) bool {
		if full == key || strings.HasPrefix(full, key+".") {
			best = line
			return true
		}
		if strings.HasPrefix(key, full) && (key[len(full)] == '.' || key[len(full)] == '[') && len(full) > bestLen {
			best, bestLen = line, len(full)
		}
		return false
	}
	// assignments considers the keys a line sets under table: `k = v`, or the keys of a line
	// inside a multi-line inline table.
	assignments := func(t string, line int) bool {
		if depth > 0 {
			for _, k := range inlineKeys("{" + t) {
				if consider(JoinKey(table, k), line) {
					return true
				}
			}
			return false
		}
		lhs, rhs, ok := strings.Cut(t, "=")
		if !ok {
			return false
		}
		full := JoinKey(table, strings.Join(dottedKey(lhs), "."))
		if consider(full, line) {
			return true
		}
		rhs = strings.TrimSpace(rhs)
		for _, q := range []string{`"""`, `'''`} {
			if strings.HasPrefix(rhs, q) && strings.Count(rhs, q) == 1 {
				multiStr = q
			}
		}
		if strings.HasPrefix(rhs, "{") {
			for _, k := range inlineKeys(rhs) {
				if consider(JoinKey(full, k), line) {
					return true
				}
			}
			if n := braces(rhs); n > 0 {
				outer, table, depth = table, full, n
			}
		}
		return false
	}
	for i, raw := range strings.Split(string(data), "\n") {
		line := i + 1
		t := strings.TrimSpace(raw)
		if multiStr != "" {
			if strings.Count(t, multiStr)%2 == 1 {
				multiStr = ""
			}
			continue
		}
		if t == "" || t[0] == '#' {
			continue
		}
		if depth == 0 && t[0] == '[' {
			aot := strings.HasPrefix(t, "[[")
			h := strings.TrimLeft(t, "[")
			if j := strings.IndexByte(h, ']'); j >= 0 {
				h = h[:j]
			}
			table = resolveHeader(dottedKey(h), counts, aot)
			if consider(table, line) {
				return line
			}
			continue
		}
		inside := depth > 0
		if assignments(t, line) {
			return line
		}
		if inside {
			if depth += braces(t); depth <= 0 {
				table, depth = outer, 0
			}
		}
	}
	return best
}

// braces is the balance of { and } in a line of TOML, outside strings and comments.
func braces(s string) int {
	n := 0
	inStr := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inStr != 0:
			if c == '\\' && inStr == '"' {
				i++
			} else if c == inStr {
				inStr = 0
			}
		case c == '"' || c == '\'':
			inStr = c
		case c == '#':
			return n
		case c == '{':
			n++
		case c == '}':
			n--
		}
	}
	return n
}

// resolveHeader gives a table header its indices: the parts naming an array of tables refer
// to its latest table, and a new [[header]] starts the next one.
func resolveHeader(parts []string, counts map[string]int, aot bool) string {
	var plain, out string
	for i, p := range parts {
		plain = JoinKey(plain, p)
		out = JoinKey(out, p)
		last := i == len(parts)-1
		if last && aot {
			counts[plain]++
		}
		if n := counts[plain]; n > 0 && (!last || aot) {
			out += "[" + strconv.Itoa(n-1) + "]"
		}
	}
	return out
}

// inlineKeys lists the keys set at the top level of an inline table that starts a value
// (`{ approve = "y", deny = "n" }`), dotted keys joined.
func inlineKeys(s string) []string {
	var keys []string
	depth, start := 0, 1
	inStr := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inStr != 0:
			if c == '\\' && inStr == '"' {
				i++
			} else if c == inStr {
				inStr = 0
			}
		case c == '"' || c == '\'':
			inStr = c
		case c == '{' || c == '[':
			depth++
			if depth == 1 {
				start = i + 1
			}
		case c == '}' || c == ']':
			depth--
		case c == ',' && depth == 1:
			start = i + 1
		case c == '=' && depth == 1:
			if k := strings.TrimSpace(s[start:i]); k != "" {
				keys = append(keys, strings.Join(dottedKey(k), "."))
			}
			start = len(s)
		}
	}
	return keys
}

// dottedKey splits a TOML key as written (`a . "b"`) into its parts.
func dottedKey(s string) []string {
	var parts []string
	for _, p := range strings.Split(s, ".") {
		parts = append(parts, strings.Trim(strings.TrimSpace(p), `"'`))
	}
	return parts
}

// JoinKey is name inside table ("stop" and "checks" make "stop.checks").
func JoinKey(table, name string) string {
	if table == "" {
		return name
	}
	return table + "." + name
}
