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
#                    between games once it was written, beside its loop:
#                    with the gnuchess book whole (4 MB as ABK) that takes
#                    seconds on a loaded 2-core machine, while the book as
#                    read before answers
#   POLYPROXY=PATH   a polyproxy binary to run (default: built from here)
#   KEEP=1           keep the folder of a run that passed (one that failed
#                    is always kept)
#   BEFORE=CMD       run CMD (with OUT set to the folder) before the match,
#                    and kill it after: something else working on the book
#                    while the games go on
#   EXPLORE=1        an explorer (polyproxy explore -edit) edits the book
#                    throughout the match, through its HTTP API with the
#                    token it prints: weights (Polyglot; some keep the
#                    moves' order and are written in place, some reorder
#                    them and rewrite the whole book) or ABK statistics of
#                    positions the games never reach (the fake engine's
#                    first move is always its a-pawn's, so no position
#                    after 1.e4 e5 or 1.d4 d5 comes up). At the end the
#                    edits made are replayed in order on a copy of the
#                    starting book through a second explorer, alone, and
#                    learn -pgn counts the host's PGN into that copy: the
#                    live book must equal it byte for byte (every edit kept,
#                    the learning exact)
#   EDITGAP=S        seconds between the explorer's edits (default 0.2)
#
# Each proxy runs behind a small timing wrapper (built from Go source this
# script writes) that notes when the host writes each go and when the
# proxy's bestmove comes back, and each ucinewgame; a sampler reads the
# proxies' and the explorer's memory (RSS) twice a second. The figures are
# given by thousands of games started (the ucinewgames of all proxies in
# time order): the answer time from go to bestmove at p50 and p99, and the
# largest RSS of a proxy and of the explorer, to show that nothing grows
# with the game count.
#
# It reports the games played, the games counted live, the bytes in which
# the live book and learn -pgn's differ, the rate at which the host
# finishes games with the fake engine on both sides and no proxy (its
# first min(GAMES, 2000) games, played first), its rate with the proxies,
# the proxies' learning's games per second (games counted over the time
# from the first count to the last), how long after quit the last proxy
# left, the largest peak memory (RSS) of a proxy (and of the explorer),
# and the table by thousands of games. Everything goes to a new folder
# under ${TMPDIR:-/tmp}, named at the end; report.txt there holds the
# report.
set -euo pipefail
cd "$(dirname "$0")/.."
host=${1:-cutechess}
case $host in
cutechess) hostbin=${2:-cutechess-cli} ;;
fastchess) hostbin=${2:-fastchess} ;;
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
# The timing wrapper: the host starts it as the engine; it runs the proxy
# and writes down, in its own file, "N time" for each ucinewgame and "G
# time ns" for each go with the nanoseconds until the bestmove came back.
mkdir -p "$out/timing"
cat >"$out/timing/main.go" <<'EOF'
package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

func main() {
	cmd := exec.Command(os.Args[2], os.Args[3:]...)
	cmd.Stderr = os.Stderr
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// Unbuffered: the host may kill the wrapper at the end.
	w, _ := os.Create(fmt.Sprintf("%s/timing.%d", os.Args[1], os.Getpid()))
	var mu sync.Mutex
	var sent time.Time
	go func() {
		r := bufio.NewScanner(os.Stdin)
		for r.Scan() {
			l := r.Text()
			mu.Lock()
			now := time.Now()
			switch {
			case strings.HasPrefix(l, "go"):
				sent = now
			case l == "ucinewgame":
				fmt.Fprintf(w, "N %d\n", now.UnixNano())
			}
			mu.Unlock()
			in.Write([]byte(l + "\n"))
		}
		in.Close()
	}()
	r := bufio.NewScanner(out)
	for r.Scan() {
		l := r.Text()
		os.Stdout.Write([]byte(l + "\n"))
		if strings.HasPrefix(l, "bestmove") {
			mu.Lock()
			if !sent.IsZero() {
				now := time.Now()
				fmt.Fprintf(w, "G %d %d\n", sent.UnixNano(), now.Sub(sent).Nanoseconds())
				sent = time.Time{}
			}
			mu.Unlock()
		}
	}
	cmd.Wait()
}
EOF
(cd "$out/timing" && go mod init timing >/dev/null 2>&1 && go build -o "$out/timed" .)
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
	exec "$out/timed" "$out" "$out/polyproxy" -noini -ec "$out/fakeengine" -log true -lf "$out/proxy.\$\$.log" \
		-pg Book=true -pg BookFile="$out/book.$format" -pg BookLearn=true -pg BookLearnPGN="$out/games.pgn"
EOF
chmod +x "$out/proxy.sh"
# The proxies' and the explorer's memory, read while they run: "R time
# kind pid RSS-kB HWM-kB".
(while sleep 0.5; do
	now=$(date +%s%N)
	for p in $(pgrep -f "^$out/polyproxy " || true); do
		kind=proxy
		tr '\0' ' ' 2>/dev/null <"/proc/$p/cmdline" | grep -q " explore " && kind=explorer
		awk -v t="$now" -v k="$kind" -v p="$p" '/^VmRSS:/ { r = $2 } /^VmHWM:/ { h = $2 } END { if (h) print "R", t, k, p, r, h }' "/proc/$p/status" 2>/dev/null || true
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

# explore BOOK: an explorer that may edit BOOK; sets port and token.
explore() {
	"$out/polyproxy" explore "$1" -edit >"$out/explore.url" 2>>"$out/explore.err" &
	explorer=$!
	for _ in $(seq 100); do
		[ -s "$out/explore.url" ] && break
		sleep 0.1
	done
	url=$(head -1 "$out/explore.url")
	port=$(echo "$url" | sed -E 's|^http://127\.0\.0\.1:([0-9]+)/.*|\1|')
	token=${url##*#token=}
	[ -n "$port" ] && [ -n "$token" ] || { echo "learnsoak: no explorer address in $out/explore.url" >&2; exit 1; }
}
# edit JSON: one change through the explorer's API; true when it was made.
edit() {
	curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$port/api/edit" \
		-H "Origin: http://127.0.0.1:$port" -H "X-Explore-Token: $token" -H 'Content-Type: application/json' \
		--data "$1" | grep -q '^200$'
}
# nthEdit I: the I-th edit, on positions the games never reach.
nthEdit() {
	local i=$1 moves move a b
	case $((i % 2)) in
	0) moves="e2e4 e7e5" move=f2f4 a=1400 b=20000 ;; # g1f3 18106 is first
	1) moves="d2d4 d7d5" move=g1f3 a=2500 b=12000 ;;  # c2c4 11104 is first
	esac
	if [ "$format" = abk ]; then
		printf '{"moves":"%s","column":0,"op":"abk","move":"%s","priority":%d,"games":%d,"won":%d,"lost":%d}' \
			"$moves" "$move" $((i % 3 * 3 + 2)) $((i % 97 + 3)) $((i % 3)) $((i % 2))
	else
		# A position's edits go below the first move twice, then above it
		# twice: the second of each pair keeps the order (written in
		# place), the first reorders the moves (the book is rewritten).
		printf '{"moves":"%s","column":0,"op":"weight","move":"%s","weight":%d}' "$moves" "$move" $(((i / 2) % 4 < 2 ? a + i % 50 : b + i % 50))
	fi
}
editor=
if [ "${EXPLORE:-0}" = 1 ]; then
	explore "$out/book.$format"
	echo "$explorer" >"$out/explorer.pid"
	(i=0
	while :; do
		e=$(nthEdit $i)
		if edit "$e"; then echo "$e"; else echo "$e" >>"$out/edits.failed"; fi
		i=$((i + 1))
		sleep "${EDITGAP:-0.2}"
	done >"$out/edits") &
	editor=$!
fi

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
[ -z "$editor" ] || { kill "$editor"; wait "$editor" 2>/dev/null || true; }
kill "$sampler" 2>/dev/null || true
[ -z "$before" ] || kill "$before" 2>/dev/null || true
if [ -n "$editor" ]; then
	kill "$explorer"
	wait "$explorer" 2>/dev/null || true
fi

played=$(grep -c '^\[Result "' "$out/games.pgn" || true)
cp "$out/start.$format" "$out/learned.$format"
edits=0 editsfailed=0
if [ -n "$editor" ]; then
	# The edits replayed in order on the starting book, by an explorer alone.
	edits=$(wc -l <"$out/edits")
	[ ! -f "$out/edits.failed" ] || editsfailed=$(wc -l <"$out/edits.failed")
	: >"$out/explore.url"
	explore "$out/learned.$format"
	replayed=0
	while read -r e; do
		edit "$e" && replayed=$((replayed + 1))
	done <"$out/edits"
	kill "$explorer"
	wait "$explorer" 2>/dev/null || true
	[ "$replayed" = "$edits" ] || { echo "learnsoak: $replayed of $edits edits replayed" >&2; exit 1; }
fi
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
rss=$(awk '$3 == "proxy" && $6 > m { m = $6 } END { print m }' "$out/rss.samples")
xrss=$(awk '$3 == "explorer" && $6 > m { m = $6 } END { print m }' "$out/rss.samples")
# By thousands of games started: answer times and memory.
cat "$out"/timing.* "$out/rss.samples" | sort -k2,2n | awk -v dir="$out" '
	$1 == "N" { n++; next }
	$1 == "G" { b = int(n / 1000); print $3 > (dir "/answers." b); next }
	$1 == "R" { b = int(n / 1000); if ($3 == "proxy" && $5 > p[b]) p[b] = $5; if ($3 == "explorer" && $5 > x[b]) x[b] = $5; if (b > last) last = b }
	END { for (b = 0; b <= last; b++) print b, p[b] + 0, x[b] + 0 > (dir "/rss.bythousand") }'
table=$(printf '%-12s %7s %9s %9s %9s %12s\n' games answers p50_ms p99_ms max_ms proxy/expl_MB
	for f in $(ls "$out"/answers.* | awk -F. '{ print $NF, $0 }' | sort -n | cut -d' ' -f2-); do
		b=${f##*.}
		sort -n "$f" | awk -v b="$b" -v r="$(awk -v b="$b" '$1 == b { printf "%.0f/%.0f", $2 / 1024, $3 / 1024 }' "$out/rss.bythousand")" '
			{ v[NR] = $1 }
			END {
				i50 = int(NR * 0.5); if (i50 < 1) i50 = 1
				i99 = int(NR * 0.99); if (i99 < 1) i99 = 1
				printf "%5d-%-6d %7d %9.3f %9.3f %9.1f %12s\n", b * 1000, b * 1000 + 999, NR, v[i50] / 1e6, v[i99] / 1e6, v[NR] / 1e6, r
			}'
	done)
{
	echo "learnsoak: $host, $format book of $(wc -c <"$out/start.$format") bytes, $played of $games games, concurrency $concurrency;" \
		"counted live $counted, not learned $lost; live book vs learn -pgn: $differ bytes differ;" \
		"host $trivialrate games/s with the fake engine alone, $hostrate with the proxies; learning $rate games/s;" \
		"last proxy left ${quitwait:-?} s after quit;" \
		"peak RSS of a proxy ${rss:-?} KB${editor:+, of the explorer ${xrss:-?} KB; explorer edits made $edits, refused $editsfailed, all replayed}; files in $out"
	echo "$table"
} | tee "$out/report.txt"
[ "$played" = "$games" ] && [ "$counted" = "$games" ] && [ "$differ" = 0 ] && [ "$editsfailed" = 0 ] || exit 1
[ "${KEEP:-0}" = 1 ] || rm -rf "$out"
