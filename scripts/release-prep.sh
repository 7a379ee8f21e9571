#!/usr/bin/env bash
# release-prep.sh DIR [VERSION]: the files the release archives and the .deb carry
# beside the binary, made fresh in DIR (GoReleaser's before-hook):
#   DIR/licenses/       the licences of everything linked (licenses.sh)
#   DIR/man/            polyproxy.1 and polyglot.ini.5, plain and gzipped (manpages.sh)
#   DIR/windows/polyglot.ini
#                       polyglot.ini.example made ready for a Windows folder:
#                       Stockfish's usual path as the engine (a placeholder),
#                       a relative BookFile, CRLF line ends; every other line
#                       is the example's, so the two never drift
set -euo pipefail
out=${1:?usage: release-prep.sh DIR [VERSION]}
cd "$(dirname "$0")/.."
rm -rf "$out"
mkdir -p "$out/windows"
./scripts/licenses.sh "$out/licenses"
./scripts/manpages.sh "$out/man" "${2:-}"

# Each line of the example named here is replaced by the lines after it;
# a line not found is an error (the example changed: update this).
awk '
	BEGIN {
		r["; polyglot.ini.example: polyproxy settings that work as is on Debian/Ubuntu with"] = \
			"; polyglot.ini: polyproxy'"'"'s settings. Set EngineCommand to your engine and put\n" \
			"; a Polyglot book named book.bin in this folder (or set BookFile), then add\n" \
			"; polyproxy.exe to the GUI as a UCI engine: started with no argument, it reads"
		r[";   apt-get install stockfish gnuchess-book"] = \
			"; this polyglot.ini from its own folder (Arena starts engines in their folder);"
		r["; Run it:  ./scripts/run.sh   (or: polyproxy polyglot.ini.example)"] = \
			"; or give this file'"'"'s path as the engine'"'"'s parameter (spaces in paths are fine)."
		r["EngineCommand = /usr/games/stockfish"] = \
			"; A placeholder: Stockfish unpacked into C:\\Program Files\\Stockfish. A bare\n" \
			"; name (stockfish.exe) is looked for in EngineDir first, then in PATH.\n" \
			"EngineCommand = \"C:\\Program Files\\Stockfish\\stockfish.exe\""
		r["; a playable move decides), e.g. mine.bin;/usr/share/games/gnuchess/book.bin"] = \
			"; a playable move decides), e.g. mine.bin;C:\\Books\\performance.bin. A relative\n" \
			"; path is relative to this file'"'"'s folder. No book there: the engine plays."
		r["BookFile = /usr/share/games/gnuchess/book.bin"] = "BookFile = book.bin"
	}
	$0 in r { print r[$0]; done[$0] = 1; next }
	{ print }
	END { for (k in r) if (!(k in done)) { print "release-prep.sh: polyglot.ini.example has no line: " k > "/dev/stderr"; bad = 1 } exit bad }
' polyglot.ini.example | sed 's/$/\r/' >"$out/windows/polyglot.ini"
