#!/bin/sh
# Rewrites NAME.oracle.txt for every NAME.ctg in this folder: what
# DroidFish's CTG reader offers on each position a walk from the FENs of
# NAME.roots reaches (the format is in README.md and in each table's
# header). Run by hand, not in CI: it needs a JDK and DroidFish's source,
# which stays outside the repository; only our harness (oracle/) is ours.
#
#   DROIDFISH=/path/to/droidfish sh oracle.sh [BOOK.ctg ...]
#
# DROIDFISH is a checkout of github.com/peterosterlund2/droidfish or its bare
# git directory. Without it the script says so and does nothing, so that
# `go generate ./book/ctg` still runs the other steps. ORACLE_BUILD names
# the folder to compile in (default: a fresh temporary one); ORACLE_MAX_PLY
# the depth the walk stops at, from each root (default 40).
set -eu
cd "$(dirname "$0")"

if [ -z "${DROIDFISH:-}" ]; then
	echo "oracle.sh: DROIDFISH not set; the CTG oracle tables are left as they are" >&2
	exit 0
fi
if [ -n "${ORACLE_BUILD:-}" ]; then
	build=$ORACLE_BUILD
else
	build=$(mktemp -d)
	trap 'rm -rf "$build"' EXIT
fi
maxply=${ORACLE_MAX_PLY:-40}
sh ../../../scripts/droidfish-oracle.sh "$build" CtgBook.java oracle
source=$(cat "$build/source")

if [ $# -eq 0 ]; then set -- *.ctg; fi
for book in "$@"; do
	name=$(basename "$book" .ctg)
	timeout 600 java -cp "$build/classes" org.petero.droidfish.book.CtgOracle \
		"$name.ctg" "$name.roots" "$maxply" "$name.ctg" "$source" >"$name.oracle.txt.tmp"
	mv "$name.oracle.txt.tmp" "$name.oracle.txt"
	echo "oracle.sh: $name.oracle.txt: $(grep -vc '^#' "$name.oracle.txt") positions" >&2
done
