package hooks

import "fmt"

// Outcome is what one hook run came to, as claude recorded it.
type Outcome uint8

// Outcomes, from least to most consequential; merging two records of the same hook run keeps
// the larger.
const (
	OutcomeSuccess   Outcome = iota // exit 0, nothing blocked
	OutcomeCancelled                // killed, e.g. on timeout (hook_cancelled)
	OutcomeError                    // non-blocking error (hook_non_blocking_error, failed exit code)
	OutcomeBlocked                  // blocked: {"decision":"block"} or exit 2; claude continues
	OutcomeStopped                  // {"continue":false}: the turn ended at once
)

// String returns the outcome's lowercase name.
func (o Outcome) String() string {
	switch o {
	case OutcomeSuccess:
		return "success"
	case OutcomeCancelled:
		return "cancelled"
	case OutcomeError:
		return "error"
	case OutcomeBlocked:
		return "blocked"
	case OutcomeStopped:
		return "stopped"
	}
	return "unknown"
}

// MarshalText encodes the outcome as its name.
func (o Outcome) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// UnmarshalText reads an outcome's name.
func (o *Outcome) UnmarshalText(b []byte) error {
	for c := OutcomeSuccess; c <= OutcomeStopped; c++ {
		if c.String() == string(b) {
			*o = c
			return nil
		}
	}
	return fmt.Errorf("unknown hook outcome %q (want success, cancelled, error, blocked or stopped)", b)
}
