#!/bin/sh
# Compiles one of DroidFish's book readers with the game logic it needs and
# an oracle harness of ours, for the book format tests' oracle scripts
# (book/abk/testdata/oracle.sh, book/ctg/testdata/oracle.sh). Run by hand,
# not in CI: it needs a JDK (javac; Debian's default-jdk-headless) and
# DroidFish's source, which stays outside the repository.
#
#   DROIDFISH=/path/to/droidfish sh scripts/droidfish-oracle.sh BUILD READER.java HARNESS_DIR
#
# DROIDFISH is a checkout of github.com/peterosterlund2/droidfish or its bare
# git directory. BUILD is the folder to compile in; the classes land in
# BUILD/classes, and BUILD/source says which DroidFish they came from (the
# commit, for a git directory or a checkout). READER is the reader's file in
# DroidFish's book package (AbkBook.java, CtgBook.java); HARNESS_DIR holds
# our Java files (the harness and stand-ins for the DroidFish classes that
# drag Android in).
set -eu
[ $# -eq 3 ] || { echo "usage: DROIDFISH=... $0 BUILD READER.java HARNESS_DIR" >&2; exit 2; }
build=$1 reader=$2 harness=$3
command -v javac >/dev/null || { echo "droidfish-oracle.sh: no javac (apt-get install default-jdk-headless)" >&2; exit 1; }

app=DroidFishApp/src/main/java/org/petero/droidfish
files="book/$reader book/BookOptions.java gamelogic/ChessParseError.java gamelogic/Move.java
gamelogic/MoveGen.java gamelogic/Piece.java gamelogic/Position.java gamelogic/TextIO.java gamelogic/UndoInfo.java"

mkdir -p "$build/src/book" "$build/src/gamelogic" "$build/classes"
if [ -d "$DROIDFISH/$app" ]; then
	for f in $files; do cp "$DROIDFISH/$app/$f" "$build/src/$f"; done
	source="(a work tree)"
	if [ -e "$DROIDFISH/.git" ]; then source=$(git -C "$DROIDFISH" rev-parse HEAD); fi
else
	for f in $files; do git --git-dir="$DROIDFISH" show "HEAD:$app/$f" >"$build/src/$f"; done
	source=$(git --git-dir="$DROIDFISH" rev-parse HEAD)
fi
echo "peterosterlund2/droidfish $source" >"$build/source"

# TextIO's parse errors name Android string resources; any distinct ints do.
{
	echo "package org.petero.droidfish;"
	echo "public final class R { public static final class string {"
	grep -oh 'R\.string\.[A-Za-z0-9_]*' "$build"/src/*/*.java | sort -u |
		awk '{ sub(/R\.string\./, ""); print "public static final int " $0 " = " NR ";" }'
	echo "} }"
} >"$build/src/R.java"

javac -nowarn -encoding UTF-8 -d "$build/classes" "$build"/src/*.java "$build"/src/*/*.java "$harness"/*.java
