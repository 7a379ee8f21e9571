#!/usr/bin/env bash
# setup.sh: install what polyproxy's tests and scripts/run.sh need, only when
# something is missing (safe to run again and again). All output goes to stderr.
#
#   Debian packages: stockfish, gnuchess-book, polyglot (PolyGlot, for the
#                    side-by-side tests), xboard + xvfb (XBoard plays a match
#                    headless through polyproxy's CECP front), bzip2 (compressed
#                    make-book inputs), gcc + libc6-dev (go test -race needs cgo),
#                    wine + wine64 and gcc-mingw-w64-x86-64 (the Windows suite runs
#                    polyproxy.exe under Wine; MinGW builds the stand-in DLL Go needs there),
#                    chromium (the explore page's tests drive it headless),
#                    man-db, groff-base, mandoc and unzip (scripts/release-check.sh
#                    renders and lints the man pages and unpacks the Windows zip)
#   Go:              the official toolchain into /usr/local/go when no go is found
#                    (older Go 1.21+ fetches the version go.mod asks for by itself)
#
# `setup.sh run` installs only what running the proxy needs (Stockfish, the
# gnuchess book, Go): scripts/run.sh has no use for Wine or XBoard.
#
# Without apt-get (macOS, other Linux) it says what is missing and goes on:
# tests that need a missing program skip themselves with a message (and fail
# when CI is set, so CI never passes by skipping).
set -euo pipefail
exec 1>&2 </dev/null

export DEBIAN_FRONTEND=noninteractive
command -v go >/dev/null || export PATH="/usr/local/go/bin:$PATH"

sudo=()
if [ "$(id -u)" != 0 ]; then
	if command -v sudo >/dev/null; then sudo=(sudo); else sudo=(false); fi
fi
# apt waits for dpkg's lock: a fresh machine's unattended upgrades hold it
# for minutes after boot, and apt would otherwise fail at once.
apt=("${sudo[@]}" apt-get -o DPkg::Lock::Timeout=600)

missing=()
[ -x /usr/games/stockfish ] || missing+=(stockfish)
[ -f /usr/share/games/gnuchess/book.bin ] || missing+=(gnuchess-book)
if [ "${1:-}" != run ]; then
	[ -x /usr/games/polyglot ] || missing+=(polyglot)
	[ -x /usr/games/xboard ] || missing+=(xboard)
	command -v xvfb-run >/dev/null || missing+=(xvfb xauth)
	command -v bzip2 >/dev/null || missing+=(bzip2)
	command -v gcc >/dev/null || missing+=(gcc libc6-dev)
	command -v wine >/dev/null || missing+=(wine)
	command -v wine64 >/dev/null || [ -x /usr/lib/wine/wine64 ] || missing+=(wine64)
	command -v x86_64-w64-mingw32-gcc >/dev/null || missing+=(gcc-mingw-w64-x86-64)
	[ -x /usr/bin/chromium ] || missing+=(chromium)
	# the release check (scripts/release-check.sh): the man pages rendered
	# and linted, the Windows zip unpacked
	command -v man >/dev/null || missing+=(man-db)
	command -v groff >/dev/null || missing+=(groff-base)
	command -v mandoc >/dev/null || missing+=(mandoc)
	command -v unzip >/dev/null || missing+=(unzip)
fi
command -v go >/dev/null || { command -v curl >/dev/null || missing+=(curl ca-certificates); }

if [ ${#missing[@]} -gt 0 ]; then
	if ! command -v apt-get >/dev/null; then
		echo "setup: missing ${missing[*]} and no apt-get here: install them by hand; tests that need them will be skipped (or fail under CI)"
	else
		echo "setup: installing ${missing[*]}"
		# Update the package lists only when needed: when apt does not know a
		# package yet (a fresh machine has empty lists), or when installing
		# from the lists there fails (old lists name versions gone from the mirror).
		updated=
		for p in "${missing[@]}"; do
			if ! apt-cache show "$p" >/dev/null 2>&1; then
				"${apt[@]}" update -q
				updated=1
				break
			fi
		done
		if ! "${apt[@]}" install -y -q --no-install-recommends "${missing[@]}"; then
			[ -z "$updated" ] || exit 1
			"${apt[@]}" update -q
			"${apt[@]}" install -y -q --no-install-recommends "${missing[@]}"
		fi
	fi
fi

if ! command -v go >/dev/null; then
	version=$(sed -n 's/^go \([0-9.]*\)$/\1/p' "$(dirname "$0")/../go.mod")
	case "$(uname -m)" in
	x86_64) arch=amd64 ;;
	aarch64 | arm64) arch=arm64 ;;
	*) echo "setup: no go and no official build for $(uname -m): install Go $version by hand"; exit 1 ;;
	esac
	os=$(uname -s | tr '[:upper:]' '[:lower:]')
	echo "setup: installing Go $version into /usr/local/go"
	curl -fsSL "https://go.dev/dl/go$version.$os-$arch.tar.gz" | "${sudo[@]}" tar -C /usr/local -xz
fi
go version
