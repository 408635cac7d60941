package hub

import (
	"encoding/json"
	"reflect"
	"regexp"
	"testing"
	"time"

	"github.com/hooksup/hooksup/session"
)

// Every key of every event's data is snake_case, nested ones too (a map's keys are data).
func TestEventKeysAreSnakeCase(t *testing.T) {
	snake := regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	seen := map[reflect.Type]bool{}
	var walk func(path string, t reflect.Type)
	walk = func(path string, ty reflect.Type) {
		for ty.Kind() == reflect.Pointer || ty.Kind() == reflect.Slice || ty.Kind() == reflect.Array || ty.Kind() == reflect.Map {
			ty = ty.Elem()
		}
		if ty.Kind() != reflect.Struct || seen[ty] || reflect.PointerTo(ty).Implements(unmarshalerType) {
			return
		}
		seen[ty] = true
		fields, aliases := map[string]reflect.StructField{}, map[string]string{}
		collectFields(ty, fields, aliases)
		for name, f := range fields {
			if !snake.MatchString(name) {
				t.Errorf("%s.%s is %q on the wire, not snake_case", path, f.Name, name)
			}
			walk(path+"."+name, f.Type)
		}
	}
	for ty, name := range eventNames {
		walk(name, ty)
	}
}

// An event of a session from before the keys were snake_case, with the Go fields' names, is
// read as one with the new keys.
func TestDecodeEventReadsTheGoFieldNames(t *testing.T) {
	at := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, c := range []struct {
		name, old string
		want      any
	}{
		{EventQuestionAsked, `{"Time":"2025-01-02T03:04:05Z","Question":{"ID":3,"Event":"SubagentStop","AgentID":"a1","LastMessage":"done","Reason":"r"}}`,
			session.QuestionAsked{Question: session.Question{ID: 3, Event: "SubagentStop", AgentID: "a1", LastMessage: "done", Reason: "r"}}},
		{EventCheckFinished, `{"Time":"2025-01-02T03:04:05Z","Run":2,"Result":{"Name":"tests","ExitCode":1,"TimedOut":true,"StartErr":{},"Output":"b2s="}}`,
			session.CheckFinished{Run: 2}},
		{EventSubagentsChanged, `{"Time":"2025-01-02T03:04:05Z","Agents":[{"ID":"a1","Type":"Explore","ToolCalls":4}]}`,
			session.SubagentsChanged{Agents: []session.Subagent{{ID: "a1", Type: "Explore", ToolCalls: 4}}}},
		{EventStateChanged, `{"Time":"2025-01-02T03:04:05Z","State":"needs permission","Notification":"permission_prompt"}`,
			session.StateChanged{State: session.StatePermission, Notification: "permission_prompt"}},
	} {
		got, err := DecodeEvent(Event{Type: c.name, Data: json.RawMessage(c.old)})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		switch w := c.want.(type) {
		case session.QuestionAsked:
			w.Time = at
			if !reflect.DeepEqual(got, w) {
				t.Errorf("%s: %+v, want %+v", c.name, got, w)
			}
		case session.CheckFinished:
			r := got.(session.CheckFinished)
			if r.Time != at || r.Run != 2 || r.Result.Name != "tests" || r.Result.ExitCode != 1 || !r.Result.TimedOut || string(r.Result.Output) != "ok" {
				t.Errorf("%s: %+v", c.name, r)
			}
		case session.SubagentsChanged:
			w.Time = at
			if !reflect.DeepEqual(got, w) {
				t.Errorf("%s: %+v, want %+v", c.name, got, w)
			}
		case session.StateChanged:
			w.Time = at
			if !reflect.DeepEqual(got, w) {
				t.Errorf("%s: %+v, want %+v", c.name, got, w)
			}
		}
		// And what it writes now has the new keys, which it reads the same.
		b, _ := json.Marshal(got)
		again, err := DecodeEvent(Event{Type: c.name, Data: b})
		if err != nil || !reflect.DeepEqual(again, got) {
			t.Errorf("%s again from %s: %+v %v", c.name, b, again, err)
		}
	}
}
