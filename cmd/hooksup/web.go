package main

import (
	"bytes"
	"context"
	cryptotls "crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/charmbracelet/x/term"

	"github.com/hooksup/hooksup/hub"
	"github.com/hooksup/hooksup/internal/cli"
	"github.com/hooksup/hooksup/internal/hangup"
	"github.com/hooksup/hooksup/internal/portowner"
	"github.com/hooksup/hooksup/internal/runtimedir"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/web"
	"github.com/skip2/go-qrcode"
)

// defaultWebListen is where hooksup web listens unless --listen says otherwise: loopback only.
const defaultWebListen = "127.0.0.1:7862"

type webArgs struct {
	listen, tlsCert, tlsKey, publicURL string
	newToken, plainHTTP                bool
	allowHosts                         []string
	hosts                              hostFlags
}

// allowHostList is a repeatable --allow-host.
type allowHostList struct{ hosts *[]string }

func (h allowHostList) String() string { return "" }
func (h allowHostList) Set(v string) error {
	// An IP address, IPv6's bare or in a URL's brackets: fd00::5, [fd00::5].
	if ip := net.ParseIP(strings.TrimSuffix(strings.TrimPrefix(v, "["), "]")); ip != nil && strings.HasPrefix(v, "[") == strings.HasSuffix(v, "]") {
		*h.hosts = append(*h.hosts, ip.String())
		return nil
	}
	if v == "" || strings.ContainsAny(v, "/:@ []%") {
		return fmt.Errorf("--%s takes a host name or address (devbox.example, 100.64.0.5, fd00::5)", web.AllowHostFlag) // parseFlags names the value
	}
	*h.hosts = append(*h.hosts, v)
	return nil
}

func webFlagSet(a *webArgs) *flag.FlagSet {
	fs := flag.NewFlagSet("web", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&a.listen, "listen", defaultWebListen, "")
	fs.StringVar(&a.tlsCert, "tls-cert", "", "")
	fs.StringVar(&a.tlsKey, "tls-key", "", "")
	fs.StringVar(&a.publicURL, "public-url", "", "")
	fs.Var(allowHostList{&a.allowHosts}, web.AllowHostFlag, "")
	fs.BoolVar(&a.newToken, "new-token", false, "")
	fs.BoolVar(&a.plainHTTP, web.PlainHTTPFlag, false, "")
	hostFlagsOn(fs, &a.hosts)
	return fs
}

// runWeb is `hooksup web`: the page and the API over every live session of this user, on this
// machine and on each host, until ctx ends (SIGINT, SIGTERM, SIGHUP, or its terminal going);
// or one of its subcommands.
func runWeb(ctx context.Context, g globalFlags, args []string, stdout, stderr io.Writer) (int, error) {
	const usage = "usage: hooksup web [--listen ADDR] [--public-url URL] [--allow-host HOST]... [--new-token] [--tls-cert FILE --tls-key FILE] [--" +
		web.PlainHTTPFlag + "] [--host DEST]... [--local], or hooksup web pair [--listen ADDR] | devices | revoke ID|--all | token"
	if len(args) > 0 {
		switch args[0] {
		case "pair", "devices", "revoke", "token":
			return runWebCommand(args[0], args[1:], stdout)
		}
	}
	var a webArgs
	fs := webFlagSet(&a)
	if err := parseFlags(fs, args); err != nil {
		return 2, fmt.Errorf("web: %v (%s)", err, usage)
	}
	if fs.NArg() > 0 {
		return 2, fmt.Errorf("web: unknown command %q (%s)", fs.Arg(0), usage)
	}
	if (a.tlsCert == "") != (a.tlsKey == "") {
		return 2, fmt.Errorf("web: --tls-cert and --tls-key go together (%s)", usage)
	}
	tls := a.tlsCert != ""
	if err := web.CheckListen(a.listen, tls, a.plainHTTP); err != nil {
		return 2, err
	}
	var public *url.URL
	if a.publicURL != "" {
		u, err := url.Parse(a.publicURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || (u.Path != "" && u.Path != "/") ||
			u.RawQuery != "" || u.Fragment != "" || u.User != nil {
			return 2, fmt.Errorf("web: --public-url takes the URL the page is reached at, as https://host[:port]/, got %q", a.publicURL)
		}
		u.Path = "/"
		public = u
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
	store := web.NewStore(env.stateDir)
	if err := store.Check(); err != nil {
		return 1, err
	}
	token, err := web.LoadToken(env.stateDir, a.newToken)
	if err != nil {
		return 1, err
	}
	// The key and certificate are loaded before anything is printed: a URL is never shown for
	// a server that then fails to start.
	var tlsConfig *cryptotls.Config
	if tls {
		cert, err := cryptotls.LoadX509KeyPair(a.tlsCert, a.tlsKey)
		if err != nil {
			return 1, fmt.Errorf("web: --tls-cert %s and --tls-key %s: %w", termsafe.String(a.tlsCert), termsafe.String(a.tlsKey), err)
		}
		tlsConfig = &cryptotls.Config{Certificates: []cryptotls.Certificate{cert}, MinVersion: cryptotls.VersionTLS12}
	}
	ln, err := net.Listen("tcp", a.listen)
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return 1, portInUse(a.listen)
		}
		return 1, fmt.Errorf("web: %w", err)
	}
	logger, closeLog := openLogger(env.stateDir, g.debug)
	defer closeLog()
	base := webURL(ln.Addr().(*net.TCPAddr), a.listen, tls)
	allow := append([]string{}, a.allowHosts...)
	if u, err := url.Parse(base); err == nil {
		allow = append(allow, u.Hostname()) // the listen address's host, or this machine's name
	}
	if public != nil {
		base = public.String()
		allow = append(allow, public.Hostname())
	}
	sessions := hub.NewMultiHost(dir, transport(hc), hosts, web.By)
	defer sessions.Close()
	srv := web.New(web.Options{Sessions: sessions, Token: token, Store: store, Listen: ln.Addr().String(), AllowHosts: allow,
		LocalAddrs: everyInterface(a.listen), Logger: logger})
	hs := web.HTTPServer(srv.Handler())
	ln = web.LimitListener(ln, web.MaxConns, web.MaxConnsPerAddr)
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	go srv.Run(runCtx)
	served := make(chan error, 1)
	go func() {
		if tls {
			hs.TLSConfig = tlsConfig
			served <- hs.ServeTLS(ln, "", "")
		} else {
			served <- hs.Serve(ln)
		}
	}()
	// Its URL and pid, for hooksup web pair, which tells a running server from one killed.
	unannounce, err := web.Announce(env.stateDir, web.Running{URL: base, Listen: a.listen, Addr: ln.Addr().String(),
		PID: os.Getpid(), Started: time.Now()})
	if err != nil {
		return 1, err
	}
	defer unannounce()
	logger.Info("web: serving", "url", base, "listen", ln.Addr().String(), "allow_hosts", allow)
	fmt.Fprintf(stdout, "hooksup web: every session at\n\n")
	if err := printPairing(store, base, stdout); err != nil {
		return 1, err
	}
	fmt.Fprintf(stdout, "That link pairs one browser, once, within %v (hooksup web pair prints another).\n", web.PairingTTL)
	fmt.Fprintf(stdout, "hooksup web devices lists the paired browsers; scripts use the token hooksup web token prints. Ctrl-C stops.\n")
	select {
	case <-ctx.Done():
		hs.Close() // the event streams never end by themselves
		return 0, nil
	case err := <-served:
		return 1, fmt.Errorf("web: %w", err)
	}
}

// portInUse is the error of a listen address in use: who holds it, and, when it is another
// user, that the page there is not hooksup's and what a browser that opened it may have given
// away.
func portInUse(addr string) error {
	o, ok, err := portowner.Of(addr)
	switch {
	case err != nil || !ok:
		return fmt.Errorf("%s is in use: choose another address with --listen", addr)
	case o.UID != os.Getuid():
		return fmt.Errorf("%s is held by another user, %s: the page there is not hooksup's. "+
			"A browser that opened it since hooksup web last ran there was shown that user's page and sent it its requests: "+
			"it gave away nothing that opens hooksup web later (a paired browser keeps no token, only a key no page can read out), "+
			"but what that page showed or asked was not hooksup's, and while such a tab stays open its script can sign with the browser's key. "+
			"Close those tabs; if in doubt, run hooksup web revoke --all and pair again. Choose another address with --listen",
			addr, termsafe.String(o.Name()))
	case o.PID > 0:
		return fmt.Errorf("%s is in use by another of your processes (pid %d; another hooksup web?): choose another address with --listen", addr, o.PID)
	default:
		return fmt.Errorf("%s is in use by another of your processes (another hooksup web?): choose another address with --listen", addr)
	}
}

// printPairing makes a pairing code and prints the URL that carries it, and in a terminal its
// QR code, for a phone's camera. A loopback URL gets no QR code (a phone would open its own
// 127.0.0.1): it says how to reach the page from a phone instead.
func printPairing(store *web.Store, base string, stdout io.Writer) error {
	code, _, err := store.NewPairingCode(time.Now())
	if err != nil {
		return fmt.Errorf("web: a pairing code: %w", err)
	}
	link := base + "#pair=" + code
	fmt.Fprintf(stdout, "  %s\n\n", link)
	if u, err := url.Parse(base); err == nil && web.IsLoopback(u.Hostname()) {
		fmt.Fprintf(stdout, "That address is this machine's own, for a browser here: a phone would open its own %s.\n"+
			"So no QR code: a phone needs --public-url, with tailscale serve or ssh -L (docs/web.md).\n", u.Hostname())
		return nil
	}
	if f, ok := stdout.(*os.File); ok && term.IsTerminal(f.Fd()) {
		if qr, err := qrText(link); err == nil {
			fmt.Fprintln(stdout, qr)
		}
	}
	return nil
}

// webPairFlagSet parses hooksup web pair's flags.
func webPairFlagSet(listen *string) *flag.FlagSet {
	fs := flag.NewFlagSet("web pair", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(listen, "listen", "", "")
	return fs
}

// runWebPair is hooksup web pair: a pairing link for each running hooksup web, or for the one
// --listen names.
func runWebPair(store *web.Store, stateDir string, args []string, stdout io.Writer) (int, error) {
	const usage = "usage: hooksup web pair [--listen ADDR]"
	var listen string
	fs := webPairFlagSet(&listen)
	if err := parseFlags(fs, args); err != nil {
		return 2, fmt.Errorf("web pair: %v (%s)", err, usage)
	}
	if fs.NArg() > 0 {
		return 2, fmt.Errorf("web pair takes no arguments, got %q (%s)", fs.Args(), usage)
	}
	running, gone, err := web.Servers(stateDir)
	if err != nil {
		return 1, fmt.Errorf("web pair: %w", err)
	}
	if len(running) == 0 {
		if len(gone) > 0 {
			g := gone[len(gone)-1]
			return 1, fmt.Errorf("web pair: the hooksup web on %s at %s (pid %d) is gone: start hooksup web again",
				termsafe.String(g.Addr), termsafe.String(g.URL), g.PID)
		}
		return 1, fmt.Errorf("web pair: no hooksup web is running (each writes its URL into %s when it starts): start it first",
			filepath.Join(stateDir, web.ServersDir))
	}
	if listen != "" {
		var picked []web.Running
		var all []string
		for _, r := range running {
			if r.Addr == listen || r.Listen == listen {
				picked = append(picked, r)
			}
			all = append(all, fmt.Sprintf("%s (pid %d)", r.Addr, r.PID))
		}
		if len(picked) == 0 {
			return 1, fmt.Errorf("web pair: no hooksup web listens on %s; running: %s", termsafe.String(listen), termsafe.String(strings.Join(all, ", ")))
		}
		running = picked
	}
	if len(running) == 1 {
		fmt.Fprintf(stdout, "Open this in the browser to pair with hooksup web:\n\n")
		if err := printPairing(store, running[0].URL, stdout); err != nil {
			return 1, err
		}
		fmt.Fprintf(stdout, "That link pairs one browser, once, within %v (hooksup web pair prints another).\n", web.PairingTTL)
		return 0, nil
	}
	fmt.Fprintf(stdout, "%d hooksup webs are running: open the link of the one to pair with (hooksup web pair --listen ADDR prints one's alone).\n",
		len(running))
	for _, r := range running {
		fmt.Fprintf(stdout, "\nhooksup web on %s (pid %d, started %s):\n", termsafe.String(r.Addr), r.PID, r.Started.Local().Format("2006-01-02 15:04"))
		if err := printPairing(store, r.URL, stdout); err != nil {
			return 1, err
		}
	}
	fmt.Fprintf(stdout, "Each link pairs one browser, once, within %v (hooksup web pair prints others).\n", web.PairingTTL)
	return 0, nil
}

// runWebCommand is hooksup web pair, devices, revoke and token.
func runWebCommand(cmd string, args []string, stdout io.Writer) (int, error) {
	env, err := loadEnvironment()
	if err != nil {
		return 1, err
	}
	store := web.NewStore(env.stateDir)
	if err := store.Check(); err != nil {
		return 1, err
	}
	if cmd == "pair" {
		return runWebPair(store, env.stateDir, args, stdout)
	}
	if cmd != "revoke" && len(args) > 0 {
		return 2, fmt.Errorf("web %s takes no arguments, got %q", cmd, args)
	}
	switch cmd {
	case "token":
		tok, err := web.LoadToken(env.stateDir, false)
		if err != nil {
			return 1, err
		}
		fmt.Fprintln(stdout, tok)
	case "devices":
		ds, err := store.Devices()
		if err != nil {
			return 1, err
		}
		if len(ds) == 0 {
			fmt.Fprintln(stdout, "No paired device (hooksup web pair pairs one).")
			return 0, nil
		}
		var b bytes.Buffer
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tNAME\tPAIRED\tLAST SEEN\tFROM")
		for _, d := range ds {
			from := d.LastAddr
			if from == "" {
				from = "-" // not used since it was paired
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", termsafe.String(d.ID), termsafe.String(d.Name), d.Created.Local().Format(time.DateTime),
				d.LastSeen.Local().Format(time.DateTime), termsafe.String(from))
		}
		tw.Flush()
		for _, d := range ds {
			if d.Key == "" {
				fmt.Fprintf(&b, "\n%s (%s) was paired before device keys and logs in no more: pair it again (open the page there and run hooksup web pair), or hooksup web revoke %s\n",
					termsafe.String(d.ID), termsafe.String(d.Name), termsafe.String(d.ID))
			}
		}
		stdout.Write(b.Bytes())
	case "revoke":
		const usage = "usage: hooksup web revoke ID|--all (hooksup web devices lists the IDs)"
		if len(args) != 1 || args[0] == "" || (strings.HasPrefix(args[0], "-") && args[0] != "--all" && args[0] != "-all") {
			return 2, fmt.Errorf("web revoke: %s", usage)
		}
		id := args[0]
		if id == "--all" || id == "-all" {
			id = ""
		}
		gone, err := store.Revoke(id)
		if err != nil {
			return 1, fmt.Errorf("web revoke: %w", err)
		}
		if len(gone) == 0 {
			fmt.Fprintln(stdout, "No paired device to revoke.")
		}
		for _, d := range gone {
			fmt.Fprintf(stdout, "revoked %s (%s): its next request is refused\n", d.ID, d.Name)
		}
	}
	return 0, nil
}

// everyInterface reports whether listen (host:port) is every interface's: 0.0.0.0, [::] or
// no host.
func everyInterface(listen string) bool {
	host, _, _ := net.SplitHostPort(listen)
	ip := net.ParseIP(host)
	return host == "" || (ip != nil && ip.IsUnspecified())
}

// webURL is the page's address as a browser reaches it: the host --listen named, this
// machine's name for every interface.
func webURL(addr *net.TCPAddr, listen string, tls bool) string {
	scheme := "http"
	if tls {
		scheme = "https"
	}
	host, _, _ := net.SplitHostPort(listen)
	if everyInterface(listen) {
		host, _ = os.Hostname()
	}
	return fmt.Sprintf("%s://%s/", scheme, net.JoinHostPort(host, fmt.Sprint(addr.Port)))
}

// qrText is url as a QR code drawn with half blocks, two rows of modules a line, with its quiet
// zone (four light modules all round) and its own colours — black modules on white, set on
// every line — so that it scans alike on a light or a dark terminal.
func qrText(url string) (string, error) {
	q, err := qrcode.New(url, qrcode.Low)
	if err != nil {
		return "", fmt.Errorf("the URL's QR code: %w", err)
	}
	return qrRows(q.Bitmap()), nil
}

// qrRows draws bits (true: a dark module) two rows a line: the upper half block's foreground
// is the upper module, its background the lower.
func qrRows(bits [][]bool) string {
	const colours, reset = "\x1b[38;5;16;48;5;231m", "\x1b[0m" // black on white, in the 256 colours every terminal has
	var b strings.Builder
	for y := 0; y < len(bits); y += 2 {
		b.WriteString(colours)
		for x := range bits[y] {
			top, bottom := bits[y][x], y+1 < len(bits) && bits[y+1][x]
			switch {
			case top && bottom:
				b.WriteString("█")
			case top:
				b.WriteString("▀")
			case bottom:
				b.WriteString("▄")
			default:
				b.WriteString(" ")
			}
		}
		b.WriteString(reset + "\n")
	}
	return b.String()
}

func webCommand(s shared) command {
	return command{
		Command: cli.Command{Name: "web", Group: groupSessions, Args: "[pair | devices | revoke ID|--all | token]", Subcommands: []cli.Command{
			{Name: "pair", Flags: []cli.Flag{{Name: "listen", Arg: "ADDR", Values: cli.Values{Dynamic: completeServers},
				Help: "only the server listening on ADDR, when several run"}},
				Summary: "a new pairing URL for each running server",
				Help:    "a new pairing URL for each running server, naming its address"},
			{Name: "devices", Summary: "list the paired browsers", Help: "the paired browsers"},
			{Name: "revoke", Args: "ID", ArgValues: cli.Values{Dynamic: completeDevices},
				Flags: []cli.Flag{{Name: "all", Help: "every paired browser"}}, Summary: "end a paired browser's access, or every one",
				Help: "end a paired browser's access, or every one's"},
			{Name: "token", Summary: "print the API token for scripts", Help: "the API token for scripts"},
		},
			Flags: append([]cli.Flag{
				{Name: "listen", Arg: "ADDR", Help: "the address to serve (default " + defaultWebListen + ", loopback only)"},
				{Name: "public-url", Arg: "URL", Help: "the URL the page is reached at (tailscale serve, a proxy): printed, in the QR code, and its host served",
					Summary: "the page's public URL"},
				{Name: web.AllowHostFlag, Arg: "HOST", Help: "also answer requests that name HOST, a name or an address (repeatable; loopback's\nnames always, and on every interface this machine's)"},
				{Name: "new-token", Help: "make a new API token (scripts' old token stops working)"},
				{Name: "tls-cert", Arg: "FILE", Values: cli.Values{Files: true}, Help: "serve HTTPS with this certificate"},
				{Name: "tls-key", Arg: "FILE", Values: cli.Values{Files: true}, Help: "and this key", Summary: "the key of the TLS certificate"},
				{Name: web.PlainHTTPFlag, Help: "accept plain HTTP beyond loopback"},
			}, s.hostFlags...),
			Summary: "every live session in a browser or on a phone",
			Help: `a page and a JSON API over every live session, here and on the [hub] hosts, to answer them
from a browser or a phone; a card per host that is disconnected, tried again with a growing
wait; it prints a URL that pairs one browser, once, within 10 minutes (docs/web.md). pair
prints another for each running server (--listen ADDR: that one's); devices lists the paired
browsers, where they were last seen from; revoke ends one, or --all; token prints the API token
for scripts. Served over HTTPS, the page offers "notify this device": a Web Push reaches the
device, page closed, when a question starts waiting or a goal ends (docs/web.md)`},
		flagSet: func() *flag.FlagSet { return webFlagSet(&webArgs{}) },
		run: func(ctx context.Context, g globalFlags, args []string, std stdio) (int, error) {
			// Only its context ends the server: SIGINT, SIGTERM, SIGHUP, or its terminal going.
			ctx, stopInt := signal.NotifyContext(ctx, os.Interrupt)
			defer stopInt()
			ctx, stop := hangup.Context(ctx, std.in, std.out, std.err)
			defer stop()
			return runWeb(ctx, g, args, std.out, std.err)
		},
	}
}
