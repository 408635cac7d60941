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
