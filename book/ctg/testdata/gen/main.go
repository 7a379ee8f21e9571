// Command gen writes the CTG test books of book/ctg/testdata with the
// test-only writer (ctgwrite): hand-made books for each branch of the
// format, a book of games, corrupt books, and for each the positions the
// oracle's walk starts from (NAME.roots). See README.md there.
//
// Usage: go run ./testdata/gen -dir testdata (from book/ctg).
//
// With -out it writes one book of the games of -pgn instead, as ChessBase
// builds a book from a database, for benchmarks and matches by hand:
//
//	go run ./book/ctg/testdata/gen -pgn games.pgn -out games.ctg -max-ply 30
package main

import (
	"flag"
	"log"
	"os"

	"github.com/polyproxy/polyproxy/book/ctg/testdata/ctgwrite"
)

func main() {
	dir := flag.String("dir", "testdata", "folder to write the books into")
	games := flag.String("pgn", "../../testdata/pgn/random.pgn", "the games the games book is made from")
	out := flag.String("out", "", "write one book of the games of -pgn, named by any of its three files")
	maxPly := flag.Int("max-ply", 30, "with -out: the plies of each game the book holds")
	flag.Parse()
	if *out != "" {
		f, err := os.Open(*games)
		if err != nil {
			log.Fatal(err)
		}
		defer f.Close()
		st, err := ctgwrite.FromGames(f, *maxPly, *out)
		if err != nil {
			log.Fatal(err)
		}
		log.Printf("%s: %+v", *out, st)
		return
	}
	books, err := ctgwrite.TestBooks(*games)
	if err != nil {
		log.Fatal(err)
	}
	for _, b := range books {
		if err := ctgwrite.WriteTestBook(*dir, b); err != nil {
			log.Fatal(err)
		}
	}
}
