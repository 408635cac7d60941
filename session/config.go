package session

// ConfigTrustAsked: a project's configuration file changed during the session to content that
// is not trusted, and the session still runs the checks it ran. A front end that can ask the
// person shows Description (what the content would run, as the trust question shows it, every
// control character already shown visibly) and, on a yes, trusts exactly that content
// (the supervisor's TrustConfig with Path and Digest).
type ConfigTrustAsked struct {
	At
	Path        string `json:"path"`
	Name        string `json:"name"` // Path as the person knows it: relative to the session's directory
	Digest      string `json:"digest"`
	Description string `json:"description"`
}

// ConfigTrustSettled: nothing is asked of Path any more: its content was trusted (here or from
// another shell), changed again, or went back to what the session runs.
type ConfigTrustSettled struct {
	At
	Path string `json:"path"`
}

// ConfigApplied: the configuration a project file's trusted edit made (said in a Notice when
// the edit was seen) decides the session's stops from now on: the stop being decided as it
// took effect is the first. Until this event, the checks the session started with (or last
// switched to) still run. Every name and command is shown visibly.
type ConfigApplied struct {
	At
	Mode           string            `json:"mode"`
	Checks         []ConfiguredCheck `json:"checks"`          // at the main agent's stops
	SubagentChecks []ConfiguredCheck `json:"subagent_checks"` // at a subagent's stops
	// Files are the project's configuration files the session now uses, as the person knows them
	// (relative to the session's directory).
	Files []string `json:"files"`
}

// ConfiguredCheck is a check a configuration runs.
type ConfiguredCheck struct {
	Name    string `json:"name"`
	Command string `json:"command"`
}
