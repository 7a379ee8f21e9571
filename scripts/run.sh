#!/usr/bin/env bash
# run.sh: build polyproxy and run it as a UCI engine on polyglot.ini.example
# (Stockfish with the gnuchess book), installing those first when missing.
# stdout carries UCI only: setup and build talk on stderr and never read
# stdin, so this script can itself be a GUI's engine command.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh run </dev/null >&2
command -v go >/dev/null || export PATH="/usr/local/go/bin:$PATH"
go build -o polyproxy . </dev/null >&2
exec ./polyproxy polyglot.ini.example "$@"
