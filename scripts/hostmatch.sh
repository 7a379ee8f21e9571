#!/usr/bin/env bash
# hostmatch.sh: a match through polyproxy in a real tournament manager, the
# check run by hand on every protocol change (cutechess-cli and fastchess
# are not Debian packages, so CI cannot run this: build them from their
# public repositories). polyproxy, with the gnuchess book, BookLearn on and
# BookLearnPGN naming the match's PGN, plays Stockfish alone; the script
# then checks the PGN for forfeits, time losses and illegal moves, and that
# the live-learned book equals what `polyproxy learn -pgn` writes from the
# match's PGN, byte for byte.
#
#   scripts/hostmatch.sh cutechess PATH/cutechess-cli [uci|xboard] [GAMES] [TC]
#   scripts/hostmatch.sh fastchess PATH/fastchess [uci] [GAMES] [TC]
#
# Defaults: uci, 100 games, tc 2+0.05, the gnuchess book. Settings from the
# environment:
#   BOOK=PATH        the book played and learned into, .bin or .abk; or a
#                    CTG book named by any of its three files, copied
#                    together: it is read only, so BookLearn is off and the
#                    learn checks are skipped
#   ADJUDICATE=1     adjudicate as rating lists do: draw after move 34 when
#                    8 moves in a row score within 20 cp, resign after 3
#                    moves at 600 cp or more (both hosts' -draw and -resign)
#   CONCURRENCY=N    games at a time (default 1)
#   TIMEMARGIN=MS    cutechess only: each engine may go MS milliseconds over
#                    its time before it loses on time (cutechess's
#                    timemargin, as operators set it on a loaded machine);
#                    the proxy's own cost is microseconds, so a fault of
#                    the proxy still shows
# Everything goes to a new folder under ${TMPDIR:-/tmp}, named at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
host=${1:?cutechess or fastchess}
bin=${2:?path to the host program}
proto=${3:-uci}
games=${4:-100}
tc=${5:-2+0.05}
adjudicate=${ADJUDICATE:-0}
concurrency=${CONCURRENCY:-1}
timemargin=${TIMEMARGIN:-0}
engine=/usr/games/stockfish
gnubook=${BOOK:-/usr/share/games/gnuchess/book.bin}
[ -x "$engine" ] && [ -f "$gnubook" ] || { echo "hostmatch: needs stockfish and gnuchess-book (scripts/setup.sh), or BOOK naming a book" >&2; exit 2; }
ext=${gnubook##*.} # bin, abk or ctg: the copies keep the format's name
learn=true

out=$(mktemp -d "${TMPDIR:-/tmp}/hostmatch.XXXXXX")
go build -o "$out/polyproxy" .
case $(echo "$ext" | tr '[:upper:]' '[:lower:]') in
ctg | cto | ctb)
	for e in ctg cto ctb; do
		f=${gnubook%.*}.$e
		[ -f "$f" ] || f=${gnubook%.*}.$(echo "$e" | tr '[:lower:]' '[:upper:]')
		cp "$f" "$out/book.$e"
	done
	ext=ctg learn=false
	;;
*) cp "$gnubook" "$out/book.$ext" ;;
esac
# Both sides get the same Move Overhead, so a loaded machine costs both alike.
overhead=40
proxyargs=(-noini -ec "$engine" -log true -lf "$out/proxy.log"
	-pg Book=true -pg BookFile="$out/book.$ext" -pg BookLearn=$learn
	-uci Hash=16 -uci Threads=1 -uci "Move Overhead=$overhead")
# The same rules in both hosts' words.
adjudication=()
if [ "$adjudicate" = 1 ]; then
	adjudication=(-draw movenumber=34 movecount=8 score=20 -resign movecount=3 score=600)
fi

case $host in
cutechess)
	args=()
	for a in "${proxyargs[@]}"; do args+=("arg=$a"); done
	# BookLearnPGN as the GUI sets it: the option Polyglot BookLearnPGN.
	"$bin" -engine name=proxy cmd="$out/polyproxy" "${args[@]}" proto="$proto" "option.Polyglot BookLearnPGN=$out/games.pgn" \
		-engine name=sf cmd="$engine" proto=uci option.Hash=16 option.Threads=1 "option.Move Overhead=$overhead" \
		-each tc="$tc" timemargin="$timemargin" -games "$games" -repeat -recover "${adjudication[@]}" -pgnout "$out/games.pgn" \
		-concurrency "$concurrency" >"$out/host.out" 2>&1
	;;
fastchess)
	[ "$proto" = uci ] || { echo "hostmatch: fastchess speaks UCI only" >&2; exit 2; }
	# fastchess splits args at blanks, so the settings go in a polyglot.ini.
	cat >"$out/polyglot.ini" <<-EOF
		[PolyGlot]
		EngineCommand = $engine
		Book = true
		BookFile = $out/book.$ext
		BookLearn = $learn
		BookLearnPGN = $out/games.pgn
		Log = true
		LogFile = $out/proxy.log
		[Engine]
		Hash = 16
		Threads = 1
		Move Overhead = $overhead
	EOF
	# fastchess saves its state as config.json in its working folder.
	(cd "$out" && "$bin" -engine name=proxy cmd="$out/polyproxy" args="$out/polyglot.ini" \
		-engine name=sf cmd="$engine" option.Hash=16 option.Threads=1 "option.Move Overhead=$overhead" \
		-each tc="$tc" -rounds $((games / 2)) -games 2 -repeat -recover "${adjudication[@]}" -pgnout file="$out/games.pgn" \
		-concurrency "$concurrency" >"$out/host.out" 2>&1)
	;;
*)
	echo "hostmatch: host is cutechess or fastchess, not $host" >&2
	exit 2
	;;
esac

played=$(grep -c '^\[Result "' "$out/games.pgn" || true)
adjudicated=$(grep -c '^\[Termination "adjudication"\]' "$out/games.pgn" || true)
# Each game lost by a forfeit (time, an illegal move, a disconnection, a
# stall, a crash), once, with who lost it and how: "proxy on time",
# "sf illegal", "proxy other".
forfeits=$(awk '
	/^\[Event / { done = 0 }
	/^\[White "/ { w = $0; sub(/^\[White "/, "", w); sub(/"\]\r?$/, "", w) }
	/^\[Black "/ { b = $0; sub(/^\[Black "/, "", b); sub(/"\]\r?$/, "", b) }
	!/^\[/ && !done && tolower($0) ~ /loses on time|illegal|disconnect|stalls|crash|forfeit/ {
		who = $0 ~ /White (loses|makes|disconnects|stalls|crash)/ ? w : b
		how = tolower($0) ~ /on time/ ? "on time" : tolower($0) ~ /illegal/ ? "illegal" : "other"
		print who, how; done = 1
	}' "$out/games.pgn")
bad=$(printf '%s\n' "$forfeits" | grep -c '^proxy ' || true)
timeouts=$(printf '%s\n' "$forfeits" | grep -c '^proxy on time' || true)
illegal=$(printf '%s\n' "$forfeits" | grep -c '^proxy illegal' || true)
opponent=$(printf '%s\n' "$forfeits" | grep -c '^sf ' || true)
bookmoves=$(grep -v '>gui' "$out/proxy.log" | grep -cE ': [a-h][1-8][a-h][1-8][qrbn]? chosen \(' || true)
if [ "$learn" = false ]; then
	echo "hostmatch: $host $proto, $played games ($adjudicated adjudicated), concurrency $concurrency, $bookmoves book moves," \
		"$bad forfeits of the proxy ($timeouts on time, $illegal illegal), $opponent of sf alone; the book is read only (no learning); files in $out"
	[ "$played" = "$games" ] && [ "$bad" = 0 ] || exit 1
	exit 0
fi
cp "$gnubook" "$out/learned.$ext"
"$out/polyproxy" learn -book "$out/learned.$ext" -pgn "$out/games.pgn" -player proxy >"$out/learn.out" 2>&1
differ=$(cmp -l "$out/learned.$ext" "$out/book.$ext" | wc -l || true)
found=$(grep -v '>gui' "$out/proxy.log" | grep -c 'learn: game [0-9]* (ended by .*) is "' || true)
lost=$(grep -v '>gui' "$out/proxy.log" | grep -cE 'learn: game [0-9]* .*(not found|not learned)' || true)
echo "hostmatch: $host $proto, $played games ($adjudicated adjudicated), concurrency $concurrency, $bookmoves book moves, $bad forfeits of the proxy ($timeouts on time, $illegal illegal), $opponent of sf alone;" \
	"live learning found $found games in the PGN, $lost not learned; live learning vs learn -pgn: $differ bytes differ; files in $out"
[ "$played" = "$games" ] && [ "$bad" = 0 ] && [ "$differ" = 0 ] && [ "$found" = "$games" ] || exit 1
