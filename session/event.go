package session

import "time"

// Event is something a session tells its front ends.
type Event interface{ eventTime() time.Time }

// At is the time an event happened; embedded in every event.
type At struct {
	Time time.Time `json:"time"`
}

func (a At) eventTime() time.Time { return a.Time }

// Time is when ev happened.
func Time(ev Event) time.Time { return ev.eventTime() }

// Notice: something the person should know that is not a verdict (a config problem, a
// failure hooksup recovered from).
type Notice struct {
	At
	Level NoticeLevel `json:"level"`
	Text  string      `json:"text"`
}

// NoticeLevel says how much a notice matters.
type NoticeLevel string

// Notice levels.
const (
	NoticeInfo  NoticeLevel = "info" // for the log; front ends need not show it
	NoticeWarn  NoticeLevel = "warn"
	NoticeError NoticeLevel = "error"
)
