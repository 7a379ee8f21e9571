// Command gen writes the CTG test books of book/ctg/testdata with the
// test-only writer (ctgwrite): hand-made books for each branch of the
// format, a book of games, corrupt books, and for each the positions the
// oracle's walk starts from (NAME.roots). See README.md there.
//
// Usage: go run ./testdata/gen -dir testdata (from book/ctg).
package main

import (
	"flag"
	"log"

	"github.com/polyproxy/polyproxy/book/ctg/testdata/ctgwrite"
)

func main() {
	dir := flag.String("dir", "testdata", "folder to write the books into")
	games := flag.String("pgn", "../../testdata/pgn/random.pgn", "the games the games book is made from")
	flag.Parse()
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
