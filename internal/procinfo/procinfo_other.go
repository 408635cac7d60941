//go:build !linux && !darwin

package procinfo

import "errors"

var errProcUnsupported = errors.New("reading processes is not supported on this system")

// Read is not implemented here: checks' process groups are not recorded.
func Read(int) (Info, error) { return Info{}, errProcUnsupported }

// Group is not implemented here: nothing is swept.
func Group(int) ([]Info, error) { return nil, errProcUnsupported }
