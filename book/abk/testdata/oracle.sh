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
command -v javac >/dev/null || { echo "oracle.sh: no javac (apt-get install default-jdk-headless)" >&2; exit 1; }

if [ -n "${ORACLE_BUILD:-}" ]; then
	build=$ORACLE_BUILD
else
	build=$(mktemp -d)
	trap 'rm -rf "$build"' EXIT
fi
maxply=${ORACLE_MAX_PLY:-40}
app=DroidFishApp/src/main/java/org/petero/droidfish
files="book/AbkBook.java book/BookOptions.java gamelogic/ChessParseError.java gamelogic/Move.java
gamelogic/MoveGen.java gamelogic/Piece.java gamelogic/Position.java gamelogic/TextIO.java gamelogic/UndoInfo.java"

# Copy the reader and the game logic it needs, from a work tree or a git directory.
mkdir -p "$build/src/book" "$build/src/gamelogic" "$build/classes"
if [ -d "$DROIDFISH/$app" ]; then
	for f in $files; do cp "$DROIDFISH/$app/$f" "$build/src/$f"; done
	source="(a work tree)"
	if [ -e "$DROIDFISH/.git" ]; then source=$(git -C "$DROIDFISH" rev-parse HEAD); fi
else
	for f in $files; do git --git-dir="$DROIDFISH" show "HEAD:$app/$f" >"$build/src/$f"; done
	source=$(git --git-dir="$DROIDFISH" rev-parse HEAD)
fi
source="peterosterlund2/droidfish $source"

# TextIO's parse errors name Android string resources; any distinct ints do.
{
	echo "package org.petero.droidfish;"
	echo "public final class R { public static final class string {"
	grep -oh 'R\.string\.[A-Za-z0-9_]*' "$build"/src/*/*.java | sort -u |
		awk '{ sub(/R\.string\./, ""); print "public static final int " $0 " = " NR ";" }'
	echo "} }"
} >"$build/src/R.java"

javac -nowarn -encoding UTF-8 -d "$build/classes" "$build"/src/*.java "$build"/src/*/*.java oracle/*.java

if [ $# -eq 0 ]; then set -- *.abk; fi
for book in "$@"; do
	name=$(basename "$book" .abk)
	# The harness times out a looping query itself; this bounds the whole walk.
	timeout 600 java -cp "$build/classes" org.petero.droidfish.book.AbkOracle \
		"$book" "$maxply" "$name.abk" "$source" >"$name.oracle.txt.tmp"
	mv "$name.oracle.txt.tmp" "$name.oracle.txt"
	echo "oracle.sh: $name.oracle.txt: $(grep -vc '^#' "$name.oracle.txt") positions" >&2
done
