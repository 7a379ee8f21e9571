#!/usr/bin/env bash
# learnsoak.sh: live learning under a fast tournament, by hand (not CI: the
# hosts are not Debian packages). polyproxy, with the test suite's fake
# engine behind it, a book, BookLearn on and BookLearnPGN naming the
# match's PGN, plays the fake engine alone; each game ends by repetition in
# a few milliseconds, so the host finishes games as fast as it can and
# every proxy learns every game it played while the next ones go on. At
# the end the script checks that the live-learned book equals what
# `polyproxy learn -pgn` writes from the host's PGN, byte for byte, and
# that every game was counted live.
#
#   scripts/learnsoak.sh [cutechess|fastchess] [PATH/host]
#
# Settings from the environment:
#   GAMES=N          games in the match (default 10000)
#   CONCURRENCY=N    games at a time (default 8)
#   BOOK=PATH        the book played and learned into (default the gnuchess
#                    book); a copy is used
#   FORMAT=bin|abk   the copy's format (default bin; abk: the book
#                    converted with convert-book)
#   MAXPLY=N         the ABK book's depth (convert-book -max-ply; default
#                    the whole book). The proxy reads an ABK book again
#                    between games once it was written, on its loop: with
#                    the gnuchess book whole (4 MB as ABK) that takes 1-10 s
#                    on a loaded 2-core machine, and cutechess-cli ends
#                    proxies that do not answer its ping in time, with the
#                    games they had still to count
#   POLYPROXY=PATH   a polyproxy binary to run (default: built from here)
#   KEEP=1           keep the folder of a run that passed (one that failed
#                    is always kept)
#   BEFORE=CMD       run CMD (with OUT set to the folder) before the match,
#                    and kill it after: something else working on the book
#                    (an explorer's edits, say) while the games go on
#
# It reports the games played, the games counted live, the bytes in which
# the live book and learn -pgn's differ, the rate at which the host
# finishes games with the fake engine on both sides and no proxy (its
# first min(GAMES, 2000) games, played first), its rate with the proxies,
# the proxies' learning's games per second (games counted over the time
# from the first count to the last), how long after quit the last proxy
# left, and the largest peak memory (RSS) of a proxy. Everything goes to a
# new folder under ${TMPDIR:-/tmp}, named at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
host=${1:-cutechess}
case $host in
cutechess) hostbin=${2:-/work/tools/cutechess/build/cutechess-cli} ;;
fastchess) hostbin=${2:-/work/tools/fastchess/fastchess} ;;
*)
	echo "learnsoak: host is cutechess or fastchess, not $host" >&2
	exit 2
	;;
esac
games=${GAMES:-10000}
concurrency=${CONCURRENCY:-8}
book=${BOOK:-/usr/share/games/gnuchess/book.bin}
format=${FORMAT:-bin}
[ -x "$hostbin" ] || { echo "learnsoak: no host program at $hostbin" >&2; exit 2; }
[ -f "$book" ] || { echo "learnsoak: no book at $book (scripts/setup.sh installs gnuchess-book)" >&2; exit 2; }

out=$(mktemp -d "${TMPDIR:-/tmp}/learnsoak.XXXXXX")
if [ -n "${POLYPROXY:-}" ]; then
	cp "$POLYPROXY" "$out/polyproxy"
else
	go build -o "$out/polyproxy" .
fi
go build -o "$out/fakeengine" ./testdata/fakeengine
case $format in
bin) cp "$book" "$out/book.bin" ;;
abk) "$out/polyproxy" convert-book -in "$book" -out "$out/book.abk" -max-ply "${MAXPLY:-9999}" >"$out/convert.out" 2>&1 ;;
*)
	echo "learnsoak: FORMAT is bin or abk, not $format" >&2
	exit 2
	;;
esac
cp "$out/book.$format" "$out/start.$format"

# Each proxy its own log, by its pid (exec: the host's kill reaches it).
cat >"$out/proxy.sh" <<-EOF
	#!/bin/sh
	exec "$out/polyproxy" -noini -ec "$out/fakeengine" -log true -lf "$out/proxy.\$\$.log" \
		-pg Book=true -pg BookFile="$out/book.$format" -pg BookLearn=true -pg BookLearnPGN="$out/games.pgn"
EOF
chmod +x "$out/proxy.sh"
# The proxies' peak memory: their high-water marks, read while they run.
(while sleep 0.2; do
	for p in $(pgrep -f "^$out/polyproxy " || true); do
		awk '/^VmHWM:/ { print $2 }' "/proc/$p/status" 2>/dev/null || true
	done
done >"$out/rss.samples") &
sampler=$!

# match ENGINE GAMES PGN OUT: the host plays GAMES games of ENGINE against
# the fake engine.
match() {
	case $host in
	cutechess)
		"$hostbin" -engine name=proxy cmd="$1" -engine name=fake cmd="$out/fakeengine" \
			-each proto=uci tc=10+0.1 -games "$2" -concurrency "$concurrency" -recover \
			-pgnout "$3" >"$4" 2>&1
		;;
	fastchess)
		(cd "$out" && "$hostbin" -engine name=proxy cmd="$1" -engine name=fake cmd="$out/fakeengine" \
			-each tc=10+0.1 -rounds $(($2 / 2)) -games 2 -repeat -concurrency "$concurrency" -force-concurrency \
			-recover -pgnout file="$3" >"$4" 2>&1)
		;;
	esac
}
trivial=$((games < 2000 ? games : 2000))
start=$(date +%s.%N)
match "$out/fakeengine" "$trivial" "$out/trivial.pgn" "$out/trivial.out"
end=$(date +%s.%N)
trivialrate=$(echo "$(grep -c '^\[Result "' "$out/trivial.pgn" || true) $start $end" | awk '{ printf "%.0f", $1 / ($3 - $2) }')
rm -f "$out/config.json" # fastchess's saved state

before=
if [ -n "${BEFORE:-}" ]; then
	OUT=$out bash -c "$BEFORE" >"$out/before.out" 2>&1 &
	before=$!
fi
start=$(date +%s.%N)
match "$out/proxy.sh" "$games" "$out/games.pgn" "$out/host.out"
end=$(date +%s.%N)
# The host waited for its engines to leave, or killed them.
sleep 1
kill "$sampler" 2>/dev/null || true
[ -z "$before" ] || kill "$before" 2>/dev/null || true

played=$(grep -c '^\[Result "' "$out/games.pgn" || true)
cp "$out/start.$format" "$out/learned.$format"
"$out/polyproxy" learn -book "$out/learned.$format" -pgn "$out/games.pgn" -player proxy >"$out/learn.out" 2>&1
differ=$(cmp -l "$out/learned.$format" "$out/book.$format" | wc -l || true)
logs=("$out"/proxy.*.log)
counted=$(cat "${logs[@]}" | grep -c 'learn: game [0-9]* (ended by .*) is "' || true)
lost=$(cat "${logs[@]}" | grep -cE 'learn: game [0-9]* .*(not found|not learned)' || true)
# Learning's rate: the games counted over the time from the first count to
# the last, across the proxies (log times are of the day, to the ms).
rate=$(cat "${logs[@]}" | awk '/learn: game [0-9]* \(ended by .*\) is "/ {
		split($1, t, ":"); s = t[1] * 3600 + t[2] * 60 + t[3]
		if (n == 0 || s < lo) lo = s
		if (s > hi) hi = s
		n++
	} END { if (n > 1 && hi > lo) printf "%.0f", n / (hi - lo); else print "-" }')
hostrate=$(echo "$played $start $end" | awk '{ printf "%.0f", $1 / ($3 - $2) }')
# How long after quit each proxy left: its log's last line against the line
# that says quit came.
quitwait=$(for l in "${logs[@]}"; do
	awk '/ gui> quit$/ && !q { split($1, t, ":"); q = t[1] * 3600 + t[2] * 60 + t[3] }
		{ split($1, t, ":"); last = t[1] * 3600 + t[2] * 60 + t[3] }
		END { if (q) printf "%.3f\n", last - q }' "$l"
done | sort -n | tail -1)
rss=$(sort -n "$out/rss.samples" | tail -1)
echo "learnsoak: $host, $format book of $(wc -c <"$out/start.$format") bytes, $played of $games games, concurrency $concurrency;" \
	"counted live $counted, not learned $lost; live book vs learn -pgn: $differ bytes differ;" \
	"host $trivialrate games/s with the fake engine alone, $hostrate with the proxies; learning $rate games/s;" \
	"last proxy left ${quitwait:-?} s after quit;" \
	"peak RSS of a proxy ${rss:-?} KB; files in $out"
[ "$played" = "$games" ] && [ "$counted" = "$games" ] && [ "$differ" = 0 ] || exit 1
[ "${KEEP:-0}" = 1 ] || rm -rf "$out"
