package hub

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/hooksup/hooksup/session"
)

// DecodeEvent is ev's data as the session's event it names. The data's keys are snake_case
// (json tags on the events' types); a session of protocol 1 from before they were wrote the Go
// fields' names ("AgentID", "Verdict"), which are read too, so a newer client still reads an
// older session's events over ssh. Errors' values (Err, StartErr) are not read: the wire
// carries only that there was one.
func DecodeEvent(ev Event) (session.Event, error) {
	t, ok := eventTypes[ev.Type]
	if !ok {
		return nil, fmt.Errorf("no event named %q", ev.Type)
	}
	dec := json.NewDecoder(bytes.NewReader(ev.Data))
	dec.UseNumber()
	var raw any
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("event %s: %w", ev.Type, err)
	}
	b, err := json.Marshal(currentKeys(t, raw))
	if err != nil {
		return nil, fmt.Errorf("event %s: %w", ev.Type, err)
	}
	p := reflect.New(t)
	if err := json.Unmarshal(b, p.Interface()); err != nil {
		return nil, fmt.Errorf("event %s: %w", ev.Type, err)
	}
	return p.Elem().Interface().(session.Event), nil
}

// eventTypes is eventNames the other way round.
var eventTypes = func() map[string]reflect.Type {
	m := make(map[string]reflect.Type, len(eventNames))
	for t, name := range eventNames {
		m[name] = t
	}
	return m
}()

var (
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	rawType         = reflect.TypeFor[json.RawMessage]()
)

// currentKeys renames, in v decoded as t, the keys that are a field's Go name to the field's
// json name, and leaves out the values of interface fields (errors), which cannot be decoded.
// A map's keys are data, never renamed.
func currentKeys(t reflect.Type, v any) any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == rawType || reflect.PointerTo(t).Implements(unmarshalerType) {
		return v
	}
	switch t.Kind() {
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return v
		}
		fields := map[string]reflect.StructField{}
		aliases := map[string]string{}
		collectFields(t, fields, aliases)
		out := make(map[string]any, len(obj))
		for k, x := range obj {
			name := k
			if _, ok := fields[k]; !ok {
				if n, ok := aliases[k]; ok {
					name = n
				}
			}
			f, ok := fields[name]
			switch {
			case !ok:
				out[k] = x
			case f.Type.Kind() == reflect.Interface:
			default:
				out[name] = currentKeys(f.Type, x)
			}
		}
		return out
	case reflect.Slice, reflect.Array:
		arr, ok := v.([]any)
		if !ok || t.Elem().Kind() == reflect.Uint8 {
			return v
		}
		for i := range arr {
			arr[i] = currentKeys(t.Elem(), arr[i])
		}
		return arr
	case reflect.Map:
		obj, ok := v.(map[string]any)
		if !ok {
			return v
		}
		for k, x := range obj {
			obj[k] = currentKeys(t.Elem(), x)
		}
		return obj
	}
	return v
}

// collectFields lists t's fields as encoding/json names them, an embedded struct's among
// them, and each one's Go name as an alias.
func collectFields(t reflect.Type, fields map[string]reflect.StructField, aliases map[string]string) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			collectFields(f.Type, fields, aliases)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fields[name] = f
		if f.Name != name {
			aliases[f.Name] = name
		}
	}
}
