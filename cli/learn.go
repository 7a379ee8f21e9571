package cli

import (
	"cmp"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/book/pgn"
	"github.com/polyproxy/polyproxy/internal/suggest"
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

var learnCommand = command{
	name: "learn", summary: "count a tournament's results (PGN) into a book's learn fields",
	usage: `usage: polyproxy learn BOOK GAMES.pgn -player NAME [-dry-run] [-v]      (or -book BOOK -pgn GAMES.pgn)
Each move NAME played from a book position with that move in the book counts the game's
Result tag (win 2, draw 1, loss 0 points, from NAME's view) into the entry's learn field.
Games without a result (*), without NAME, or with an illegal move are skipped.
`,
	required: []string{"book", "pgn", "player"},
	args:     []operand{{flag: "book", name: "BOOK"}, {flag: "pgn", name: "GAMES.pgn"}},
	new:      func() options { return &learnOptions{} },
}

type learnOptions struct {
	book, pgn       string
	players         playerList
	dryRun, verbose bool
}

func (o *learnOptions) define(fs *flag.FlagSet) {
	fs.StringVar(&o.book, "book", "", "book `file` to update in place (only learn fields change; not the -pgn file)")
	fs.StringVar(&o.pgn, "pgn", "", "PGN `file` of the games (cutechess-cli, fastchess): plain, .gz, .bz2 or .zst, - for stdin")
	fs.Var(&o.players, "player", "the engine's `name` as in the White/Black tags (commas kept: \"Carlsen, Magnus\")")
	fs.BoolVar(&o.dryRun, "dry-run", false, "change nothing; print what would change")
	fs.BoolVar(&o.verbose, "v", false, "print every skipped game and every entry changed")
}

func (o *learnOptions) validate(*commandLine) error {
	if len(o.players) > 1 {
		return usageErrorf("-player given %d times: learn counts the moves of one player", len(o.players))
	}
	return nil
}

// files: the book is written in place, never replaced, but must not be
// the games either.
func (o *learnOptions) files() (inputs, outputs []fileArg) {
	return []fileArg{{"-pgn", o.pgn}}, []fileArg{{"-book", o.book}}
}

func (o *learnOptions) writesInPlace() {}

func (o *learnOptions) run(e *env) error {
	open := formats.OpenLearnFile
	if o.dryRun {
		open = formats.OpenLearnFileReadOnly
	}
	read, err := os.Stat(o.book)
	if err != nil {
		return err
	}
	lf, err := open(o.book)
	if err != nil {
		return err
	}
	defer lf.Close()
	b, err := formats.Open(o.book)
	if err != nil {
		return err
	}
	defer b.Close()
	// The games are counted into the book they were read against, or
	// into none.
	lf.ReadAs(read)
	warnBook(e, b, b.Warnings())
	pf, err := openInput(o.pgn)
	if err != nil {
		return err
	}
	defer pf.Close()
	updates, err := o.read(e, pf, b)
	if err != nil {
		return err
	}
	var changes []book.LearnChange
	ctx := e.stop.lockWait(o.book)
	if o.dryRun {
		changes, err = lf.Preview(ctx, updates)
	} else {
		// Every game counted or none: a signal waits for the book to be
		// written, but not for its lock (nothing is written then).
		err = e.stop.finish(func() (err error) {
			if changes, err = lf.Apply(ctx, updates); err == nil {
				err = lf.Sync()
			}
			return err
		})
	}
	o.report(e, changes)
	return err
}

// read reads the games and says what it read and skipped.
func (o *learnOptions) read(e *env, pf *pgn.Input, b *book.Book) ([]book.LearnUpdate, error) {
	player := o.players[0]
	var skipped []learn.SkippedGame
	kinds := map[string]int{}
	var kindOrder []string
	updates, st, err := learn.FromPGN(pf, b, player, func(s learn.SkippedGame) {
		if kinds[s.Kind] == 0 {
			kindOrder = append(kindOrder, s.Kind)
		}
		kinds[s.Kind]++
		if o.verbose || len(skipped) < maxSkipDetails {
			skipped = append(skipped, s)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("%w; nothing learned", err)
	}
	if st.Games > 0 && st.Players[player] == 0 {
		return nil, noSuchPlayer(o.pgn, player, st.Players)
	}
	pgnInputs{pf}.warn(e)
	fmt.Fprintf(e.stdout, "games read: %d\n", st.Games)
	fmt.Fprintf(e.stdout, "games skipped: %d\n", st.Skipped)
	for _, k := range kindOrder {
		fmt.Fprintf(e.stdout, "  %s: %d\n", k, kinds[k])
	}
	for _, s := range skipped {
		fmt.Fprintf(e.stdout, "  skipped %s\n", s)
	}
	if len(skipped) < st.Skipped {
		fmt.Fprintf(e.stdout, "  (%d more skipped games not listed; -v lists all)\n", st.Skipped-len(skipped))
	}
	fmt.Fprintf(e.stdout, "games with book moves of %s: %d (%d book moves)\n", player, st.Learned, len(updates))
	return updates, nil
}

// maxPlayersListed bounds the players an error lists: the most games
// first.
const maxPlayersListed = 10

// noSuchPlayer says that no game of the file has player, and which
// players it has: a mistyped -player learned nothing, silently.
func noSuchPlayer(file, player string, players map[string]int) error {
	names := slices.Collect(maps.Keys(players))
	slices.SortFunc(names, func(a, b string) int {
		return cmp.Or(cmp.Compare(players[b], players[a]), strings.Compare(a, b))
	})
	var list []string
	for _, n := range names[:min(len(names), maxPlayersListed)] {
		list = append(list, fmt.Sprintf("%q (%d)", n, players[n]))
	}
	if len(names) > maxPlayersListed {
		list = append(list, fmt.Sprintf("and %d more", len(names)-maxPlayersListed))
	}
	if file == "-" {
		file = "standard input"
	}
	msg := fmt.Sprintf("no game of %s has a player named %q", file, player)
	if near, ok := suggest.Nearest(player, names); ok {
		msg += fmt.Sprintf(" (a name is matched exactly: did you mean %q?)", near)
	}
	return fmt.Errorf("%s; its players, with their games: %s; nothing learned", msg, strings.Join(list, ", "))
}

// report says which entries changed (or would, with -dry-run).
func (o *learnOptions) report(e *env, changes []book.LearnChange) {
	entries, missing := 0, 0
	for _, c := range changes {
		if c.Results > 0 {
			entries++
		} else if !c.Found() {
			missing++
		}
	}
	if missing > 0 {
		e.warnf("%d entries vanished from the book while learning (was it rewritten?): not updated", missing)
	}
	verb := "entries updated"
	if o.dryRun {
		verb = "entries that would be updated (dry run: book unchanged)"
	}
	fmt.Fprintf(e.stdout, "%s: %d\n", verb, entries)
	if o.dryRun || o.verbose {
		for _, c := range changes {
			if c.Results > 0 {
				fmt.Fprintf(e.stdout, "  key %s move %s: %d game(s): %d games %d points -> %d games %d points\n",
					c.Key, c.Move, c.Results, c.Before.Games(), c.Before.Points(), c.After.Games(), c.After.Points())
			}
		}
	}
}
