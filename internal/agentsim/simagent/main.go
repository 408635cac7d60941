// Command simagent is the simulated claude that the end-to-end tests drive where they need no
// real agent (internal/agentsim): a program of its own, built once per package of tests
// (e2e.Main), as a user's programs are built.
package main

import (
	"os"

	"github.com/hooksup/hooksup/internal/agentsim"
)

func main() {
	os.Exit(agentsim.Main(os.Args[1:], os.Stdout, os.Stderr))
}
