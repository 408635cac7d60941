package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/internal/keymap"
)

// The tables of keys in docs/keys.md and of settings in docs/configuration.md are made from the
// keymap and the configuration's schema, as the man page is: they cannot drift from the code.
// HOOKSUP_UPDATE_DOCS=1 go test -run TestDocsAreGenerated ./cmd/hooksup/ writes them anew.
func TestDocsAreGenerated(t *testing.T) {
	t.Parallel()
	for _, doc := range []struct{ file, table string }{
		{"keys.md", keysTable()},
		{"configuration.md", settingsTable()},
	} {
		path := filepath.Join("..", "..", "docs", doc.file)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		const begin, end = "<!-- generated: begin -->\n", "<!-- generated: end -->\n"
		i, j := strings.Index(text, begin), strings.Index(text, end)
		if i < 0 || j < i {
			t.Fatalf("docs/%s has no %q … %q block", doc.file, begin, end)
		}
		want := text[:i+len(begin)] + doc.table + text[j:]
		if want == text {
			continue
		}
		if os.Getenv("HOOKSUP_UPDATE_DOCS") != "" {
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		t.Errorf("docs/%s is not what the code says: run HOOKSUP_UPDATE_DOCS=1 go test -run TestDocsAreGenerated ./cmd/hooksup/\nwant:\n%s", doc.file, doc.table)
	}
}

// keysTable is the table of every key of the TUI, from the keymap.
func keysTable() string {
	var b strings.Builder
	b.WriteString("| key | where | action | what it does |\n| --- | --- | --- | --- |\n")
	fmt.Fprintf(&b, "| `%s` | always | | interrupts the agent: every waiting question is answered \"let it stop\", running checks are killed, the rest of the turn may stop (the Escape that closes the help stays hooksup's) |\n", keymap.Escape)
	for _, a := range keymap.Actions() {
		keys := make([]string, len(a.Keys))
		for i, k := range a.Keys {
			keys[i] = "`" + k + "`"
		}
		fmt.Fprintf(&b, "| %s | %s | `%s` | %s |\n", strings.Join(keys, ", "), a.Scope, a.Name, a.Help)
	}
	fmt.Fprintf(&b, "| `%s` | after the prefix | | sends %s itself to the agent |\n", keymap.DefaultPrefix, keymap.DefaultPrefix)
	return b.String()
}

// settingsTable is the table of every configuration key, from config.Schema.
func settingsTable() string {
	var b strings.Builder
	b.WriteString("| key | default | what it does |\n| --- | --- | --- |\n")
	for _, k := range config.Schema() {
		def := ""
		if k.Default != "" {
			def = "`" + k.Default + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", k.Key, def, strings.ReplaceAll(k.Help, "|", `\|`))
	}
	return b.String()
}
