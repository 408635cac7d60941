package backend

// Health is what /healthz answers.
func Health() string { return "ok" }
