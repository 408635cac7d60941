// Package tool names things.
package tool

import "strings"

// Name is the tool's name.
const Name = "tool"

// Title is s with its first letter upper-cased.
func Title(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
