// Command flood is an attacker's connections to hooksup web, in a process of its own as an
// attacker's are (TestWebUnauthenticatedFloodDoesNotLockTheOwnerOut): -n connections without
// a credential, each kept alive with a cheap GET every 5 s and dialled again the moment the
// server closes it, from the local addresses -from (127.77.x.y, -addrs of them; none: the
// system's choice). Every 100 ms it prints "dials N answers M".
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync/atomic"
	"time"
)

func main() {
	host := flag.String("host", "", "HOST:PORT")
	n := flag.Int("n", 600, "connections")
	addrs := flag.Int("addrs", 0, "local addresses of 127/8 to spread them over")
	flag.Parse()
	var dials, answers atomic.Int64
	for i := range *n {
		d := net.Dialer{Timeout: 5 * time.Second}
		if *addrs > 0 {
			j := i % *addrs
			d.LocalAddr = &net.TCPAddr{IP: net.IPv4(127, 77, byte(j/250), byte(j%250+1))}
		}
		go func() {
			for {
				c, err := d.Dial("tcp", *host)
				if err != nil {
					time.Sleep(10 * time.Millisecond) // ports run short under the churn: a moment, then again
					continue
				}
				dials.Add(1)
				br := bufio.NewReader(c)
				for {
					if _, err := fmt.Fprintf(c, "GET /icon.svg HTTP/1.1\r\nHost: %s\r\n\r\n", *host); err != nil {
						break
					}
					resp, err := http.ReadResponse(br, nil)
					if err != nil {
						break
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					answers.Add(1)
					// Another GET in 5 s, unless the server closes the connection first.
					c.SetReadDeadline(time.Now().Add(5 * time.Second))
					if _, err := br.Peek(1); !errors.Is(err, os.ErrDeadlineExceeded) {
						break
					}
					c.SetReadDeadline(time.Time{})
				}
				c.Close()
			}
		}()
	}
	for range time.Tick(100 * time.Millisecond) {
		fmt.Printf("dials %d answers %d\n", dials.Load(), answers.Load())
	}
}
