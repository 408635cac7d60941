package web

import (
	"net/http"
	"time"
)

// listedDevice is a paired device as GET /api/devices gives it: never its key. This is the
// device making the request (the API token is none).
type listedDevice struct {
	ID       string    `json:"id"`
	Name     string    `json:"name"`
	Created  time.Time `json:"created"`
	LastSeen time.Time `json:"last_seen"`
	LastAddr string    `json:"last_addr,omitempty"`
	This     bool      `json:"this"`
}

// devices is GET /api/devices: the paired devices, oldest first, the one asking marked, so a
// page can say which it is.
func (s *Server) devices(w http.ResponseWriter, r *http.Request) {
	var ds []Device
	var err error
	if s.store != nil {
		ds, err = s.store.devices()
	}
	if err != nil {
		s.logger.Error("web: the devices file", "err", err)
		writeError(w, http.StatusInternalServerError, "devices", err.Error())
		return
	}
	given, _ := r.Context().Value(credentialKey{}).(string)
	who, _ := s.logins.device(given) // none for the API token
	list := []listedDevice{}
	for _, d := range ds {
		list = append(list, listedDevice{ID: d.ID, Name: d.Name, Created: d.Created, LastSeen: d.LastSeen, LastAddr: d.LastAddr,
			This: who.device != "" && who.device == d.ID})
	}
	writeJSON(w, http.StatusOK, list)
}
