#!/bin/sh
# What a release installs beside the binaries: the shell completions and the man page, written by
# hooksup itself from the description of its command line that --help prints. .goreleaser.yaml
# runs this before it builds; the archives and the Homebrew cask take the files from $1.
set -eu
out=${1:-build/share}
rm -rf "$out"
mkdir -p "$out/completions" "$out/man"
# Built as the release builds it (no cgo, -trimpath), so the release's own build of that
# platform finds the packages compiled.
CGO_ENABLED=0 go build -trimpath -o "$out/hooksup" ./cmd/hooksup
"$out/hooksup" completion bash >"$out/completions/hooksup.bash"
"$out/hooksup" completion zsh >"$out/completions/_hooksup"
"$out/hooksup" completion fish >"$out/completions/hooksup.fish"
"$out/hooksup" man >"$out/man/hooksup.1"
rm "$out/hooksup"
