package main

import (
	"context"
	"flag"
	"io"
	"os"

	"github.com/hooksup/hooksup/hub"
	"github.com/hooksup/hooksup/internal/runtimedir"
)

// liveSessions lists this user's live sessions, found through the runtime directory.
func liveSessions() ([]hub.Live, error) {
	dir, err := runtimedir.Dir(os.Getenv)
	if err != nil {
		return nil, err
	}
	return hub.List(dir)
}

// hostFlagsOn defines --host and --local on fs.
func hostFlagsOn(fs *flag.FlagSet, hf *hostFlags) {
	fs.Var(hostList{&hf.hosts}, "host", "")
	fs.BoolVar(&hf.local, "local", false, "")
}

// hubSessions lists the sessions of this machine and of the hosts hf and [hub] hosts name,
// each host's failure written on stderr under cmd's name. The caller closes the scope.
func hubSessions(ctx context.Context, g globalFlags, cmd string, hf hostFlags, stderr io.Writer) ([]hostLive, *hubScope, error) {
	hc, err := hubConfig(g)
	if err != nil {
		return nil, nil, err
	}
	hosts, err := hf.list(hc)
	if err != nil {
		return nil, nil, err
	}
	all, scope, err := gatherSessions(ctx, hc, hosts)
	if err != nil {
		scope.close()
		return nil, nil, err
	}
	scope.printFailed(cmd, stderr)
	return all, scope, nil
}
