// Package session is what a supervised session is and what it tells its front ends (the TUI,
// the headless printer, the hub, hooksup watch and web): the Event every message is, the time
// each carries, the events themselves, and the data they carry. It is data only, so a front end
// names a state or an event without linking the supervisor, the engine, the pty or the agents.
package session
