#!/bin/sh
# Rewrites learned.abk: small.abk after polyproxy's learn has counted the
# games of learned.pgn (Engine's moves) into its records in place, so that
# oracle.sh can check that DroidFish's reader reads the learned statistics
# as polyproxy does. POLYPROXY names a binary to use instead of building
# this tree's. With a polyproxy that cannot learn into an ABK book it says
# so and leaves learned.abk as it is.
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
polyproxy=${POLYPROXY:-$tmp/polyproxy}
[ -n "${POLYPROXY:-}" ] || go build -o "$polyproxy" ../../..
cp small.abk "$tmp/learned.abk"
if ! "$polyproxy" learn -book "$tmp/learned.abk" -pgn learned.pgn -player Engine >"$tmp/log" 2>&1 ||
	cmp -s small.abk "$tmp/learned.abk"; then
	echo "learned.sh: this polyproxy did not learn into an ABK book ($(tail -n 1 "$tmp/log")); learned.abk is left as it is" >&2
	exit 0
fi
cp "$tmp/learned.abk" learned.abk
