package web

import (
	"fmt"
	"net/http"
)

// boundHeader refuses (431) a request whose header is over MaxHeaderBytes. net/http's own
// bound is looser: it reads 4096 bytes past http.Server.MaxHeaderBytes, and on a kept-alive
// connection what it buffered of the next request while waiting for it is not counted at all.
// That bound stays, for memory; this one is the documented one, the same for HTTP/2.
func boundHeader(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n := headerSize(r); n > MaxHeaderBytes {
			secure(w.Header())
			w.Header().Set("Connection", "close")
			writeError(w, http.StatusRequestHeaderFieldsTooLarge, "header_too_large",
				fmt.Sprintf("the request's header is %d bytes, over %d", n, MaxHeaderBytes))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// headerSize is r's header as HTTP/1.1 writes it: its request line, Host and each field on a
// line of its own ("Name: value\r\n"), and the empty line that ends it.
func headerSize(r *http.Request) int {
	n := len(r.Method) + 1 + len(r.RequestURI) + 1 + len("HTTP/1.1") + 2
	n += len("Host: ") + len(r.Host) + 2
	for name, values := range r.Header {
		for _, v := range values {
			n += len(name) + 2 + len(v) + 2
		}
	}
	return n + 2
}
