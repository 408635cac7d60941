package config

import (
	"bytes"
	"encoding"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"github.com/hooksup/hooksup/internal/keymap"
	"github.com/hooksup/hooksup/internal/suggest"
	"github.com/hooksup/hooksup/internal/tomltext"
)

// A configuration file is read in two steps. BurntSushi/toml parses it into plain values (its
// ParseError gives the position of a syntax error); hooksup then walks those values against
// Config's fields itself, so that one pass finds every unknown key and every value of the
// wrong type instead of stopping at the first, and names each by its full key
// ("stop.checks[1].timeout"). The line of a key is found in the file's text by locate: the
// library keeps key positions private, and for a table of an array of tables
// ([[stop.checks]]) it only knows the last one's.

// layerFile is one configuration file that was decoded.
type layerFile struct {
	path  string
	data  []byte
	doc   map[string]any // the file as TOML values
	order int            // its place among the layers
}

// decodeFile decodes one file into a fresh Config, reporting every problem of the file on its
// own. doc is nil when the file is not valid TOML. bad holds the keys whose values were
// refused.
func decodeFile(path string, data []byte) (layer Config, doc map[string]any, bad map[string]bool, probs []*ConfigError) {
	// TOML is UTF-8: a byte that is not (a file saved in Latin-1, a binary) is a problem of its
	// own, named with its line and column, never passed over in a comment or a string.
	if !utf8.Valid(data) {
		line, col := 1, 1
		for i := 0; i < len(data); {
			r, n := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && n == 1 {
				return layer, nil, nil, []*ConfigError{{File: path, Line: line,
					Msg: fmt.Sprintf("byte 0x%02x at column %d is not UTF-8: save the file as UTF-8", data[i], col)}}
			}
			if data[i] == '\n' {
				line, col = line+1, 0
			}
			i += n
			col++
		}
	}
	if _, err := toml.Decode(string(data), &doc); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return layer, nil, nil, []*ConfigError{{File: path, Line: errorLine(data, pe.Position), Key: pe.LastKey, Msg: pe.Message}}
		}
		return layer, nil, nil, []*ConfigError{{File: path, Msg: strings.TrimPrefix(err.Error(), "toml: ")}}
	}
	d := &decoder{path: path, data: data, bad: map[string]bool{}}
	d.table(doc, reflect.ValueOf(&layer).Elem(), "")
	for _, p := range keysProblems(layer.Keys) {
		if !d.bad[p.Key] {
			d.problem(p.Key, p.Msg, p.err)
		}
	}
	sortProblems(d.probs)
	return layer, doc, d.bad, d.probs
}

// keysProblems checks each binding of one file on its own, so that every bad one is reported.
func keysProblems(k KeysConfig) []*ConfigError {
	var out []*ConfigError
	if k.Prefix != "" {
		if err := keymap.Check(k.Prefix, nil); err != nil {
			out = append(out, keysError(err))
		}
	}
	names := make([]string, 0, len(k.Bindings))
	for n := range k.Bindings {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := keymap.Check("", map[string]string{n: k.Bindings[n]}); err != nil {
			out = append(out, keysError(err))
		}
	}
	return out
}

// decoder walks a file's TOML values against Config's fields.
type decoder struct {
	path  string
	data  []byte
	bad   map[string]bool
	probs []*ConfigError
}

func (d *decoder) problem(key, msg string, cause error) {
	d.bad[key] = true
	d.probs = append(d.probs, &ConfigError{File: d.path, Line: tomltext.KeyLine(d.data, key), Key: key, Msg: msg, err: cause})
}

// table decodes the TOML table m into the struct rv; key is the table's own key ("" at the top).
func (d *decoder) table(m map[string]any, rv reflect.Value, key string) {
	fields := tomlFields(rv.Type())
	for _, name := range slices.Sorted(maps.Keys(m)) {
		k := tomltext.JoinKey(key, name)
		i, ok := fields[name]
		if !ok {
			d.problem(k, "unknown key "+didYouMean(key, name, fields), nil)
			continue
		}
		d.value(m[name], rv.Field(i), k)
	}
}

// value decodes the TOML value v into rv.
func (d *decoder) value(v any, rv reflect.Value, key string) {
	t := rv.Type()
	if reflect.PointerTo(t).Implements(textUnmarshaler) {
		s, ok := v.(string)
		if !ok {
			d.problem(key, mismatch(t, v), nil)
			return
		}
		if err := rv.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(s)); err != nil {
			d.problem(key, err.Error(), err)
		}
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		if m, ok := v.(map[string]any); ok {
			d.table(m, rv, key)
			return
		}
	case reflect.String:
		if s, ok := v.(string); ok {
			rv.SetString(s)
			return
		}
	case reflect.Int:
		if n, ok := v.(int64); ok {
			rv.SetInt(n)
			return
		}
	case reflect.Bool:
		if b, ok := v.(bool); ok {
			rv.SetBool(b)
			return
		}
	case reflect.Pointer:
		if t.Elem().Kind() == reflect.Bool {
			if b, ok := v.(bool); ok {
				rv.Set(reflect.ValueOf(&b))
				return
			}
		}
	case reflect.Float64:
		switch n := v.(type) {
		case float64:
			rv.SetFloat(n)
			return
		case int64:
			rv.SetFloat(float64(n))
			return
		}
	case reflect.Map:
		if m, ok := v.(map[string]any); ok && t.Key().Kind() == reflect.String {
			out := reflect.MakeMapWithSize(t, len(m))
			for _, name := range slices.Sorted(maps.Keys(m)) {
				e := reflect.New(t.Elem()).Elem()
				before := len(d.probs)
				d.value(m[name], e, tomltext.JoinKey(key, name))
				if len(d.probs) == before {
					out.SetMapIndex(reflect.ValueOf(name).Convert(t.Key()), e)
				}
			}
			rv.Set(out)
			return
		}
	case reflect.Slice:
		if items, ok := listOf(v); ok {
			out := reflect.MakeSlice(t, 0, len(items))
			for i, item := range items {
				e := reflect.New(t.Elem()).Elem()
				d.value(item, e, fmt.Sprintf("%s[%d]", key, i))
				out = reflect.Append(out, e)
			}
			rv.Set(out)
			return
		}
	}
	d.problem(key, mismatch(t, v), nil)
}

// listOf returns the items of a TOML array (of values or of tables).
func listOf(v any) ([]any, bool) {
	switch l := v.(type) {
	case []any:
		return l, true
	case []map[string]any:
		out := make([]any, len(l))
		for i, m := range l {
			out[i] = m
		}
		return out, true
	}
	return nil, false
}

// mismatch says what a key of type t must be, and what it is.
func mismatch(t reflect.Type, v any) string {
	return fmt.Sprintf("must be %s, not %s", want(t), tomlKind(v))
}

// want is the TOML kind of value a Go type takes.
func want(t reflect.Type) string {
	if t == reflect.TypeFor[Duration]() {
		return `a duration like "90s" or "5m"`
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Int:
		return "a whole number"
	case reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "true or false"
	case reflect.Pointer:
		return want(t.Elem())
	case reflect.Map:
		return "a table of " + strings.TrimPrefix(want(t.Elem()), "a ") + "s"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Struct {
			return "a list of tables"
		}
		return "a list of " + strings.TrimPrefix(want(t.Elem()), "a ") + "s"
	case reflect.Struct:
		return "a table"
	}
	return t.String()
}

// tomlKind names the kind of a TOML value.
func tomlKind(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "a whole number"
	case float64:
		return "a fractional number"
	case bool:
		return "true or false"
	case time.Time:
		return "a date"
	case []any, []map[string]any:
		return "a list"
	case map[string]any:
		return "a table"
	}
	return fmt.Sprintf("%T", v)
}

// tomlFields maps the TOML keys of a struct's fields to their indices.
func tomlFields(t reflect.Type) map[string]int {
	out := map[string]int{}
	for i := 0; i < t.NumField(); i++ {
		if name := t.Field(i).Tag.Get("toml"); name != "" && name != "-" {
			out[name] = i
		}
	}
	return out
}

// didYouMean suggests the key a misspelt one meant: a near miss in the same table, else the
// same name, or a near miss, in exactly one other table (a key put in the wrong table).
func didYouMean(table, name string, fields map[string]int) string {
	if best := suggest.Closest(name, slices.Collect(maps.Keys(fields))); best != "" {
		return fmt.Sprintf("(did you mean %q?)", best)
	}
	table = plainKey(table)
	var elsewhere []string
	for _, k := range schemaKeys(reflect.TypeFor[Config](), "") {
		parent, leaf := "", k
		if i := strings.LastIndexByte(k, '.'); i >= 0 {
			parent, leaf = k[:i], k[i+1:]
		}
		if parent != table && suggest.Closest(name, []string{leaf}) != "" {
			elsewhere = append(elsewhere, k)
		}
	}
	if len(elsewhere) == 1 {
		return fmt.Sprintf("(did you mean %q?)", elsewhere[0])
	}
	return "(see `hooksup init` for every key hooksup knows)"
}

// plainKey drops the indices of a key: "stop.checks[1].env" is "stop.checks.env".
func plainKey(key string) string {
	parts := splitKey(key)
	names := make([]string, len(parts))
	for i, p := range parts {
		names[i] = p.name
	}
	return strings.Join(names, ".")
}

// schemaKeys lists every key of Config, tables of checks included ("stop.checks.name").
func schemaKeys(t reflect.Type, prefix string) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		name := t.Field(i).Tag.Get("toml")
		if name == "" || name == "-" {
			continue
		}
		k := tomltext.JoinKey(prefix, name)
		out = append(out, k)
		ft := t.Field(i).Type
		switch {
		case ft.Kind() == reflect.Struct && !reflect.PointerTo(ft).Implements(textUnmarshaler):
			out = append(out, schemaKeys(ft, k)...)
		case ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct:
			out = append(out, schemaKeys(ft.Elem(), k)...)
		}
	}
	return out
}

// sortProblems orders problems by layer, then line (problems without a line last), then key.
func sortProblems(ps []*ConfigError) {
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := ps[i], ps[j]
		if a.order != b.order {
			return a.order < b.order
		}
		if (a.Line == 0) != (b.Line == 0) {
			return b.Line == 0
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Key < b.Key
	})
}

var textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()

// mergeDefined copies into dst each field of src that the file defines (doc) with a value that
// was not refused (bad). Tables are merged key by key; everything else (values, lists, inline
// maps) is replaced whole.
func mergeDefined(dst, src reflect.Value, doc map[string]any, bad map[string]bool, path string) {
	t := dst.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name := f.Tag.Get("toml")
		if name == "" || name == "-" {
			continue
		}
		v, ok := doc[name]
		if !ok {
			continue
		}
		key := tomltext.JoinKey(path, name)
		isTable := f.Type.Kind() == reflect.Struct && !reflect.PointerTo(f.Type).Implements(textUnmarshaler)
		switch {
		case isTable:
			if m, ok := v.(map[string]any); ok {
				mergeDefined(dst.Field(i), src.Field(i), m, bad, key)
			}
		case !bad[key]:
			dst.Field(i).Set(src.Field(i))
		}
	}
}

// defines reports whether a file's values set the value at key (indices and the keys under
// a list or an inline map count as the list or the map: they are replaced whole).
func defines(doc map[string]any, key string) bool {
	var cur any = doc
	for _, part := range splitKey(key) {
		m, ok := cur.(map[string]any)
		if !ok {
			return true // inside a list or a map of values: the whole of it is this file's
		}
		if cur, ok = m[part.name]; !ok {
			return false
		}
		if part.index >= 0 {
			return true
		}
	}
	return true
}

// keyPart is one part of a configuration key: a name, and an index into a list (-1 for none).
type keyPart struct {
	name  string
	index int
}

// splitKey splits "stop.checks[1].timeout" into its parts.
func splitKey(key string) []keyPart {
	var parts []keyPart
	for _, p := range strings.Split(key, ".") {
		kp := keyPart{name: p, index: -1}
		if i := strings.IndexByte(p, '['); i > 0 && strings.HasSuffix(p, "]") {
			if n, err := strconv.Atoi(p[i+1 : len(p)-1]); err == nil {
				kp = keyPart{name: p[:i], index: n}
			}
		}
		parts = append(parts, kp)
	}
	return parts
}

// errorLine is the line of a syntax error: the line of the byte it starts at. The parser's own
// line has already moved past a line break it found where something else should be ("[stop"
// then a new line), and would blame the next line.
func errorLine(data []byte, p toml.Position) int {
	if p.Start < 0 || p.Start > len(data) || p.Line <= 0 {
		return p.Line
	}
	return 1 + bytes.Count(data[:p.Start], []byte("\n"))
}
