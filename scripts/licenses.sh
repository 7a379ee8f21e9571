#!/usr/bin/env bash
# licenses.sh DIR: gather into DIR the licence files of everything the release
# binaries link, as those licences ask of a binary distribution (MIT, BSD and
# Apache all want their notice shipped with the program): Go's own (the
# runtime and standard library are in every binary) and, for each package of
# another module that a release target links, every LICENSE/COPYING/NOTICE/
# PATENTS file from the package's folder up to its module's root (a module
# such as klauspost/compress carries code under other licences in
# subfolders); and the licence of each third-party file the binary embeds
# (the explorer's chess pieces, explore/page/pieces-LICENSE.txt). DIR/README
# lists the modules and versions, and the embedded files. GoReleaser runs it
# before the build; scripts/release-check.sh checks it against `go version -m`
# of the built binaries.
set -euo pipefail
out=${1:?usage: licenses.sh DIR}
cd "$(dirname "$0")/.."
command -v go >/dev/null || export PATH="/usr/local/go/bin:$PATH"
rm -rf "$out"
mkdir -p "$out"

notice='^(LICEN[CS]E|COPYING|NOTICE|PATENTS)([.-].*)?$'

copy_notices() { # copy_notices FROM_DIR TO_DIR
	local f
	for f in "$1"/*; do
		[ -f "$f" ] || continue
		if [[ $(basename "$f" | tr '[:lower:]' '[:upper:]') =~ $notice ]]; then
			mkdir -p "$2"
			cp "$f" "$2/"
		fi
	done
}

copy_notices "$(go env GOROOT)" "$out/go"
[ -f "$out/go/LICENSE" ] || { echo "licenses.sh: no LICENSE in $(go env GOROOT)" >&2; exit 1; }

# One line per linked package of another module: module, version, module
# root, package folder; the union over the release targets.
# (The targets are listed at once: each go list takes seconds.)
lists=$(mktemp -d)
trap 'rm -rf "$lists"' EXIT
for target in linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64; do
	GOOS=${target%/*} GOARCH=${target#*/} CGO_ENABLED=0 go list -deps \
		-f '{{with .Module}}{{if not .Main}}{{with .Replace}}{{.Path}} {{.Version}} {{.Dir}}{{else}}{{.Path}} {{.Version}} {{.Dir}}{{end}} {{$.Dir}}{{end}}{{end}}' \
		. >"$lists/${target/\//_}" &
done
for job in $(jobs -p); do wait "$job"; done # each failure counts, not only the last
pkgs=$(cat "$lists"/* | sort -u)

modules=
while read -r mod version root dir; do
	[ -n "$mod" ] || continue
	[ -d "$root" ] || { echo "licenses.sh: $mod $version is not in the module cache (go mod download)" >&2; exit 1; }
	modules+="$mod $version"$'\n'
	while :; do
		rel=${dir#"$root"}
		copy_notices "$dir" "$out/$mod$rel"
		[ "$dir" != "$root" ] || break
		dir=$(dirname "$dir")
	done
	[ -n "$(ls "$out/$mod" 2>/dev/null)" ] || { echo "licenses.sh: $mod $version has no licence file at its root" >&2; exit 1; }
done <<<"$pkgs"

# Third-party files embedded in the binary, each with its licence.
mkdir -p "$out/explore-pieces"
cp explore/page/pieces-LICENSE.txt "$out/explore-pieces/LICENSE"

{
	echo "polyproxy links the Go runtime and standard library ($(go env GOVERSION): go/)"
	echo "and these modules; each folder holds the licence files the module ships,"
	echo "from its root and from the folders of the packages polyproxy uses:"
	echo
	sort -u <<<"$modules" | sed '/^$/d; s/^/  /'
	echo
	echo "It embeds the chess pieces of explore's page, by Colin M.L. Burnett,"
	echo "under the BSD licence (explore-pieces/)."
} >"$out/README"
