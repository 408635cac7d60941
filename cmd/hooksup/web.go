package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"syscall"

	"github.com/charmbracelet/x/term"

	"github.com/hooksup/hooksup/internal/runtimedir"
	"github.com/hooksup/hooksup/web"
	"github.com/skip2/go-qrcode"
)

// defaultWebListen is where hooksup web listens unless --listen says otherwise: loopback only.
const defaultWebListen = "127.0.0.1:7862"

type webArgs struct {
	listen, tlsCert, tlsKey string
	newToken, plainHTTP     bool
	hosts                   hostFlags
}

func webFlagSet(a *webArgs) *flag.FlagSet {
	fs := flag.NewFlagSet("web", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&a.listen, "listen", defaultWebListen, "")
	fs.StringVar(&a.tlsCert, "tls-cert", "", "")
	fs.StringVar(&a.tlsKey, "tls-key", "", "")
	fs.BoolVar(&a.newToken, "new-token", false, "")
	fs.BoolVar(&a.plainHTTP, web.PlainHTTPFlag, false, "")
	hostFlagsOn(fs, &a.hosts)
	return fs
}

// runWeb is `hooksup web`: the page and the API over every live session of this user, on this
// machine and on each host, until ctx ends (SIGINT, SIGTERM, SIGHUP, or its terminal going).
func runWeb(ctx context.Context, g globalFlags, args []string, stdout, stderr io.Writer) (int, error) {
	const usage = "usage: hooksup web [--listen ADDR] [--new-token] [--tls-cert FILE --tls-key FILE] [--" + web.PlainHTTPFlag + "] [--host DEST]... [--local]"
	var a webArgs
	fs := webFlagSet(&a)
	if err := parseFlags(fs, args); err != nil {
		return 2, fmt.Errorf("web: %v (%s)", err, usage)
	}
	if fs.NArg() > 0 {
		return 2, fmt.Errorf("web takes no arguments, got %q (%s)", fs.Args(), usage)
	}
	if (a.tlsCert == "") != (a.tlsKey == "") {
		return 2, fmt.Errorf("web: --tls-cert and --tls-key go together (%s)", usage)
	}
	tls := a.tlsCert != ""
	if err := web.CheckListen(a.listen, tls, a.plainHTTP); err != nil {
		return 2, err
	}
	hc, err := hubConfig(g)
	if err != nil {
		return 1, err
	}
	hosts, err := a.hosts.list(hc)
	if err != nil {
		return 2, err
	}
	env, err := loadEnvironment()
	if err != nil {
		return 1, err
	}
	dir, err := runtimedir.Dir(os.Getenv)
	if err != nil {
		return 1, err
	}
	token, err := web.LoadToken(env.stateDir, a.newToken)
	if err != nil {
		return 1, err
	}
	ln, err := net.Listen("tcp", a.listen)
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return 1, fmt.Errorf("%s is in use (another hooksup web?): choose another address with --listen", a.listen)
		}
		return 1, fmt.Errorf("web: %w", err)
	}
	logger := slog.New(slog.DiscardHandler)
	wh := newWatchHub(dir, hc, hosts, web.By)
	defer wh.close()
	srv := web.New(web.Options{Hub: wh, Token: token, Logger: logger})
	hs := web.HTTPServer(srv.Handler())
	ln = web.LimitListener(ln, web.MaxConns, web.MaxConnsPerAddr)
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	go srv.Run(runCtx)
	served := make(chan error, 1)
	go func() {
		if tls {
			served <- hs.ServeTLS(ln, a.tlsCert, a.tlsKey)
		} else {
			served <- hs.Serve(ln)
		}
	}()
	u := webURL(ln.Addr().(*net.TCPAddr), a.listen, tls)
	link := u + "#token=" + token
	fmt.Fprintf(stdout, "hooksup web: every session at\n\n  %s\n\n", link)
	if f, ok := stdout.(*os.File); ok && term.IsTerminal(f.Fd()) { // for a phone's camera
		if qr, err := qrText(link); err == nil {
			fmt.Fprintln(stdout, qr)
		}
	}
	fmt.Fprintf(stdout, "The token is in %s (hooksup web --new-token makes another). Ctrl-C stops.\n", env.stateDir+"/"+web.TokenFile)
	select {
	case <-ctx.Done():
		hs.Close() // the event streams never end by themselves
		return 0, nil
	case err := <-served:
		return 1, fmt.Errorf("web: %w", err)
	}
}

// webURL is the page's address as a browser reaches it: the host --listen named, this
// machine's name for every interface.
func webURL(addr *net.TCPAddr, listen string, tls bool) string {
	scheme := "http"
	if tls {
		scheme = "https"
	}
	host, _, _ := net.SplitHostPort(listen)
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host, _ = os.Hostname()
	}
	return fmt.Sprintf("%s://%s/", scheme, net.JoinHostPort(host, fmt.Sprint(addr.Port)))
}

// qrText is url as a QR code drawn with half blocks, two rows of modules a line.
func qrText(url string) (string, error) {
	q, err := qrcode.New(url, qrcode.Low)
	if err != nil {
		return "", fmt.Errorf("the URL's QR code: %w", err)
	}
	return q.ToSmallString(false), nil
}
