package supervisor

// watchesDirs: inotify reports the writes to the files of a watched directory.
const watchesDirs = true
