//go:build !linux && !darwin

package checks

import "errors"

var errProcUnsupported = errors.New("reading processes is not supported on this system")

// readProc is not implemented here: checks' process groups are not recorded.
func readProc(int) (procInfo, error) { return procInfo{}, errProcUnsupported }

// groupMembers is not implemented here: nothing is swept.
func groupMembers(int) ([]procInfo, error) { return nil, errProcUnsupported }
