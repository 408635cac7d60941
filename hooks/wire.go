package hooks

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The wire protocol between `hooksup hook EVENT` and the supervisor, over a unix socket.
// It is plain text so the client needs no encoder at start-up:
//
//	request:  "HOOKSUP/1 <token> <event> <n>\n" followed by n bytes of hook input (claude's stdin)
//	response: "HOOKSUP/1 <status> <exit> <n>\n" followed by n bytes for the hook's stdout
//
// status is "ok", or a word saying why the request was refused ("token", "size", "bad").
// One request and one response per connection.

// WireVersion is the first word of every request and response line.
const WireVersion = "HOOKSUP/1"

// MaxPayload is the largest hook input the supervisor accepts. Claude's Stop input carries the
// last assistant message, which can be long, so the cap is generous; larger input is refused
// from its header, without reading it.
const MaxPayload = 8 << 20

// maxHeader bounds a header line.
const maxHeader = 512

// Environment variables through which the supervisor reaches its hooks.
const (
	EnvSocket = "HOOKSUP_SOCKET"
	EnvToken  = "HOOKSUP_TOKEN"
	EnvLog    = "HOOKSUP_LOG"
)

// Errors a supervisor's refusal maps to.
var (
	ErrBadToken  = errors.New("wrong or missing session token")
	ErrTooLarge  = errors.New("hook input over the size cap")
	ErrMalformed = errors.New("malformed request")
	// ErrWrongVersion: the peer speaks another version of the wire protocol.
	ErrWrongVersion = errors.New("another wire protocol version")
)

// Request is one hook call on the wire.
type Request struct {
	Token   string
	Event   string
	Payload []byte
}

// Response is the supervisor's answer: what the hook prints and its exit code, or a refusal.
type Response struct {
	Status string // "ok" or the refusal's word
	Exit   int
	Stdout []byte
}

// WriteRequest sends r on w.
func WriteRequest(w io.Writer, r Request) error {
	if strings.ContainsAny(r.Token, " \n") || strings.ContainsAny(r.Event, " \n") || r.Event == "" {
		return fmt.Errorf("write request: %w: token or event has white space", ErrMalformed)
	}
	tok := r.Token
	if tok == "" {
		tok = "-"
	}
	hdr := WireVersion + " " + tok + " " + r.Event + " " + strconv.Itoa(len(r.Payload)) + "\n"
	buf := make([]byte, 0, len(hdr)+len(r.Payload))
	buf = append(append(buf, hdr...), r.Payload...)
	_, err := w.Write(buf)
	return err
}

// ReadRequestHeader reads a request's header line; the caller checks the token before reading
// the payload with ReadPayload, so a stranger's bytes are never read in full.
func ReadRequestHeader(br *bufio.Reader) (token, event string, n int, err error) {
	f, err := readHeader(br, 4)
	if err != nil {
		return "", "", 0, err
	}
	n, err = strconv.Atoi(f[3])
	if err != nil || n < 0 {
		return "", "", 0, fmt.Errorf("read request: %w: bad length %q", ErrMalformed, f[3])
	}
	if f[1] == "-" {
		f[1] = ""
	}
	return f[1], f[2], n, nil
}

// ReadPayload reads exactly n bytes.
func ReadPayload(br *bufio.Reader, n int) ([]byte, error) {
	if n > MaxPayload {
		return nil, ErrTooLarge
	}
	p := make([]byte, n)
	if _, err := io.ReadFull(br, p); err != nil {
		return nil, fmt.Errorf("read payload: %w", err)
	}
	return p, nil
}

// WriteResponse sends r on w.
func WriteResponse(w io.Writer, r Response) error {
	st := r.Status
	if st == "" {
		st = "ok"
	}
	hdr := WireVersion + " " + st + " " + strconv.Itoa(r.Exit) + " " + strconv.Itoa(len(r.Stdout)) + "\n"
	buf := make([]byte, 0, len(hdr)+len(r.Stdout))
	buf = append(append(buf, hdr...), r.Stdout...)
	_, err := w.Write(buf)
	return err
}

// ReadResponse reads a response.
func ReadResponse(br *bufio.Reader) (Response, error) {
	f, err := readHeader(br, 4)
	if err != nil {
		return Response{}, err
	}
	exit, err1 := strconv.Atoi(f[2])
	n, err2 := strconv.Atoi(f[3])
	if err1 != nil || err2 != nil || n < 0 || n > MaxPayload {
		return Response{}, fmt.Errorf("read response: %w", ErrMalformed)
	}
	out := make([]byte, n)
	if _, err := io.ReadFull(br, out); err != nil {
		return Response{}, fmt.Errorf("read response: %w", err)
	}
	return Response{Status: f[1], Exit: exit, Stdout: out}, nil
}

func readHeader(br *bufio.Reader, fields int) ([]string, error) {
	var line []byte
	for {
		chunk, isPrefix, err := br.ReadLine()
		if err != nil {
			return nil, fmt.Errorf("read header: %w", err)
		}
		line = append(line, chunk...)
		if len(line) > maxHeader {
			return nil, fmt.Errorf("read header: %w: too long", ErrMalformed)
		}
		if !isPrefix {
			break
		}
	}
	f := strings.Split(string(line), " ")
	if strings.HasPrefix(f[0], "HOOKSUP/") && f[0] != WireVersion {
		return nil, fmt.Errorf("read header: %w: %s", ErrWrongVersion, clipString(f[0], 60))
	}
	if len(f) != fields || f[0] != WireVersion {
		return nil, fmt.Errorf("read header: %w: %q", ErrMalformed, clipString(string(line), 60))
	}
	return f, nil
}
