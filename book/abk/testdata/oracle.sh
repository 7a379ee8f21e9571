#!/bin/sh
# Rewrites NAME.oracle.txt for every NAME.abk in this folder: what
# DroidFish's ABK reader offers on each position of the book (the format is
# in README.md and in each table's header). Run by hand, not in CI: it needs
# a JDK (javac, java) and DroidFish's source, which stays outside the
# repository; only our harness (oracle/) is ours.
#
#   DROIDFISH=/path/to/droidfish sh oracle.sh [BOOK.abk ...]
#
# DROIDFISH is a checkout of github.com/peterosterlund2/droidfish or its bare
# git directory. Without it the script says so and does nothing, so that
# `go generate ./book/abk` still runs the other steps. ORACLE_BUILD names the
# folder to compile in (default: a fresh temporary one); ORACLE_MAX_PLY the
# depth the walk stops at (default 40).
set -eu
cd "$(dirname "$0")"

if [ -z "${DROIDFISH:-}" ]; then
	echo "oracle.sh: DROIDFISH not set; the ABK oracle tables are left as they are" >&2
	exit 0
fi
if [ -n "${ORACLE_BUILD:-}" ]; then
	build=$ORACLE_BUILD
else
	build=$(mktemp -d)
	trap 'rm -rf "$build"' EXIT
fi
maxply=${ORACLE_MAX_PLY:-40}
sh ../../../scripts/droidfish-oracle.sh "$build" AbkBook.java oracle
source=$(cat "$build/source")

if [ $# -eq 0 ]; then set -- *.abk; fi
for book in "$@"; do
	name=$(basename "$book" .abk)
	# The harness times out a looping query itself; this bounds the whole walk.
	timeout 600 java -cp "$build/classes" org.petero.droidfish.book.AbkOracle \
		"$book" "$maxply" "$name.abk" "$source" >"$name.oracle.txt.tmp"
	mv "$name.oracle.txt.tmp" "$name.oracle.txt"
	echo "oracle.sh: $name.oracle.txt: $(grep -vc '^#' "$name.oracle.txt") positions" >&2
done
