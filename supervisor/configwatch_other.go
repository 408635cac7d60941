//go:build !linux

package supervisor

// watchesDirs: kqueue reports a directory's entries, not the writes to its files, and fsnotify
// would open every file of a watched directory: the files are watched themselves.
const watchesDirs = false
