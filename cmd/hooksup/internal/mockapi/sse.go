package mockapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// sseStream writes a streamed reply as server-sent events, the form both the Messages and the
// Responses API stream in: each event is flushed at once, and after the first each waits delay
// (a reply's ChunkDelay) unless done (the client gone, the server closing) comes first.
type sseStream struct {
	w     http.ResponseWriter
	fl    http.Flusher
	delay time.Duration
	done  <-chan struct{}
	sent  bool
}

// startSSE answers 200 with the event-stream headers, idHeader set to id.
func startSSE(w http.ResponseWriter, idHeader, id string, delay time.Duration, done <-chan struct{}) *sseStream {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set(idHeader, id)
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	return &sseStream{w: w, fl: fl, delay: delay, done: done}
}

// send writes one event with data as its JSON; event "" writes a data line alone, the form of
// OpenAI's Chat Completions stream.
func (s *sseStream) send(event string, data any) error {
	b, err := json.Marshal(data)
	if err != nil {
		return err
	}
	return s.sendRaw(event, b)
}

// sendRaw writes one event whose data is b as it is (e.g. the chat stream's "[DONE]").
func (s *sseStream) sendRaw(event string, b []byte) error {
	if s.sent && s.delay > 0 {
		select {
		case <-time.After(s.delay):
		case <-s.done:
			return fmt.Errorf("client gone")
		}
	}
	s.sent = true
	if event != "" {
		if _, err := fmt.Fprintf(s.w, "event: %s\n", event); err != nil {
			return err
		}
	}
	if _, err := fmt.Fprintf(s.w, "data: %s\n\n", b); err != nil {
		return err
	}
	if s.fl != nil {
		s.fl.Flush()
	}
	return nil
}
