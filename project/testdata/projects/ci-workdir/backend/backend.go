package backend
