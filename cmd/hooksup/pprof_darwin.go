package main

import (
	"os"
	"syscall"
)

// profileSignals make hooksup write a heap profile when envPprofDir is set.
var profileSignals = []os.Signal{syscall.SIGUSR1}
