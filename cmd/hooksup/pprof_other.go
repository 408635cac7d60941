//go:build !linux && !darwin

package main

import "os"

// profileSignals: none here, so envPprofDir does nothing.
var profileSignals []os.Signal
