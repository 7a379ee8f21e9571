// Command lichessgen writes lichessgames' seeded games to standard
// output, for by-hand runs such as make-book's counts recipe on the
// games the bench streams (go run ./internal/lichessgames/lichessgen
// -games 300000 | polyproxy make-book -pgn - ...).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"

	"github.com/polyproxy/polyproxy/internal/lichessgames"
)

func main() {
	var o lichessgames.Options
	flag.Uint64Var(&o.Seed, "seed", 1, "seed")
	flag.IntVar(&o.First, "first", 0, "number of the first game (0-based): parts of one collection")
	flag.IntVar(&o.Games, "games", 1000, "games to write")
	flag.Parse()
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	err := lichessgames.Write(w, o)
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "lichessgen:", err)
		os.Exit(1)
	}
}
