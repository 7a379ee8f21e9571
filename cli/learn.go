package cli

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/book/pgn"
	"github.com/polyproxy/polyproxy/learn"
	"github.com/polyproxy/polyproxy/uci"
)

// pgnStdin is what "-pgn -" reads (make-book, learn); tests replace it.
var pgnStdin io.Reader = os.Stdin

// openInput opens a PGN or counts file, or standard input for "-".
func openInput(name string) (*pgn.Input, error) {
	if f, ok := pgnStdin.(*os.File); ok && name == "-" {
		// A database piped from a decompressor: reads of up to 1 MB, not
		// 64 KB, took a third off make-book's time on a 714 MB pipe.
		uci.GrowPipe(f)
	}
	return pgn.Open(name, pgnStdin)
}

func runLearn(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("learn", flag.ContinueOnError)
	fs.SetOutput(stderr)
	bookPath := fs.String("book", "", "book `file` to update in place (only learn fields change; not the -pgn file)")
	pgnPath := fs.String("pgn", "", "PGN `file` of the games (cutechess-cli, fastchess): plain, .gz, .bz2 or .zst, - for stdin")
	var players playerList
	fs.Var(&players, "player", "the engine's `name` as in the White/Black tags (commas kept: \"Carlsen, Magnus\")")
	dryRun := fs.Bool("dry-run", false, "change nothing; print what would change")
	verbose := fs.Bool("v", false, "print every skipped game and every entry changed")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: polyproxy learn -book FILE -pgn GAMES.pgn -player NAME [-dry-run] [-v]")
		fmt.Fprintln(stderr, "Each move NAME played from a book position with that move in the book counts the game's")
		fmt.Fprintln(stderr, "Result tag (win 2, draw 1, loss 0 points, from NAME's view) into the entry's learn field.")
		fmt.Fprintln(stderr, "Games without a result (*), without NAME, or with an illegal move are skipped.")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, "book", "pgn", "player"); err != nil {
		return err
	}
	if len(players) > 1 {
		return usageErrorf("-player given %d times: learn counts the moves of one player", len(players))
	}
	player := players[0]
	if err := checkOutputs([]fileArg{{"-pgn", *pgnPath}}, []fileArg{{"-book", *bookPath}}); err != nil {
		return err
	}

	open := formats.OpenLearnFile
	if *dryRun {
		open = formats.OpenLearnFileReadOnly
	}
	lf, err := open(*bookPath)
	if err != nil {
		return err
	}
	defer lf.Close()
	b, err := formats.Open(*bookPath)
	if err != nil {
		return err
	}
	defer b.Close()
	for _, w := range b.Warnings() {
		warnf(stderr, "learn", "%s", w)
	}
	pf, err := openInput(*pgnPath)
	if err != nil {
		return err
	}
	defer pf.Close()

	var skipped []learn.SkippedGame
	kinds := map[string]int{}
	var kindOrder []string
	updates, st, err := learn.FromPGN(pf, b, player, func(s learn.SkippedGame) {
		if kinds[s.Kind] == 0 {
			kindOrder = append(kindOrder, s.Kind)
		}
		kinds[s.Kind]++
		if *verbose || len(skipped) < maxSkipDetails {
			skipped = append(skipped, s)
		}
	})
	if err != nil {
		return fmt.Errorf("%v; nothing learned", err)
	}
	pgnInputs{pf}.warn(stderr, "learn")
	fmt.Fprintf(stdout, "games read: %d\n", st.Games)
	fmt.Fprintf(stdout, "games skipped: %d\n", st.Skipped)
	for _, k := range kindOrder {
		fmt.Fprintf(stdout, "  %s: %d\n", k, kinds[k])
	}
	for _, s := range skipped {
		fmt.Fprintf(stdout, "  skipped %s\n", s)
	}
	if len(skipped) < st.Skipped {
		fmt.Fprintf(stdout, "  (%d more skipped games not listed; -v lists all)\n", st.Skipped-len(skipped))
	}
	fmt.Fprintf(stdout, "games with book moves of %s: %d (%d book moves)\n", player, st.Learned, len(updates))

	var changes []book.LearnChange
	if *dryRun {
		changes, err = lf.Preview(updates)
	} else {
		changes, err = lf.Apply(updates)
		if err == nil {
			err = lf.Sync()
		}
	}
	entries, missing := 0, 0
	for _, c := range changes {
		if c.Results > 0 {
			entries++
		} else if !c.Found() {
			missing++
		}
	}
	if missing > 0 {
		warnf(stderr, "learn", "%d entries vanished from the book while learning (was it rewritten?): not updated", missing)
	}
	verb := "entries updated"
	if *dryRun {
		verb = "entries that would be updated (dry run: book unchanged)"
	}
	fmt.Fprintf(stdout, "%s: %d\n", verb, entries)
	if *dryRun || *verbose {
		for _, c := range changes {
			if c.Results > 0 {
				fmt.Fprintf(stdout, "  key %s move %s: %d game(s): %d games %d points -> %d games %d points\n",
					c.Key, c.Move, c.Results, c.Before.Games(), c.Before.Points(), c.After.Games(), c.After.Points())
			}
		}
	}
	return err
}
