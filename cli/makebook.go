package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/build"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/book/pgn"
	"github.com/polyproxy/polyproxy/internal/flagval"
	"github.com/polyproxy/polyproxy/internal/plainerr"
)

// maxSkipDetails bounds the per-game skip messages; the summary counts all.
const maxSkipDetails = 20

// maxThreads bounds -threads: more threads than cores only add pieces
// in flight (about 3 × 160 KB a thread) and scheduling; 256 covers the
// largest machines and keeps that under about 125 MB. -threads 100000000
// took 5 GB and 100 s before anything was read.
const maxThreads = 256

var makeBookCommand = command{
	name: "make-book", summary: "build a book from PGN games (PolyGlot's make-book, same bytes)",
	usage: `usage: polyproxy make-book GAMES.pgn... [-bin OUT] [-abk OUT] [-counts OUT] [-max-ply N] [-min-game N]
         [-min-score PCT] [-only-white] [-only-black] [-uniform] [-min-share PCT] [-threads N]
         [-memory SIZE] [-tmp DIR] [game filters] [-q]
       polyproxy make-book -from-counts FILE [-from-counts FILE]... [-bin OUT] [-abk OUT] [move rules]
The games are read from the GAMES files in order (also -pgn FILE, repeated).
Weight = 2 per win + 1 per draw from the mover's view (Result tag; missing or * = draw).
Games with an illegal, ambiguous or null move, a bad tag or no result are skipped and counted.
Any number of games fits in -memory: when the counts outgrow it they go to sorted runs in -tmp
(removed at the end, on error and on Ctrl-C), and the book is then the counts recipe's (-counts
on parts, sum-counts, -from-counts), which differs from PolyGlot's only where a move passes 16384 games.
`,
	args: []operand{{flag: "pgn", name: "GAMES.pgn", many: true}},
	new:  func() options { return &makeBookOptions{} },
}

// readingFlags are make-book's flags of reading PGN, which -from-counts
// does not do.
var readingFlags = []string{"pgn", "counts", "threads", "memory", "tmp"}

type makeBookOptions struct {
	build            build.Options
	pgns, fromCounts flagval.Strings
	bin, abk, counts string
	memory           sizeFlag
	quiet            bool
}

func (o *makeBookOptions) define(fs *flag.FlagSet) {
	o.build = build.DefaultOptions()
	fs.Var(&o.pgns, "pgn", "PGN `file` to read: plain, .gz, .bz2 or .zst (told by content), - for stdin; repeat for several")
	fs.StringVar(&o.bin, "bin", "", "book `file` to write (replaced atomically; not an input)")
	fs.StringVar(&o.abk, "abk", "", "also (or instead of -bin) write the book as an ABK book, Arena's format, to `file`: the tree of its lines from the start position to -max-ply (replaced atomically; not an input)")
	fs.StringVar(&o.counts, "counts", "", "also (or, without -bin, only) write every position-move's full games and points to counts `file` (not an input, not -bin), for sum-counts and -from-counts")
	fs.Var(&o.fromCounts, "from-counts", "make the book from counts `file`s instead of PGN (repeat; in the order of the games)")
	settings := build.Settings()
	for i := range settings {
		settings[i].Define(fs, &o.build)
	}
	intFlag(fs, &o.build.Threads, "threads", min(runtime.GOMAXPROCS(0), maxThreads), 1, maxThreads, "read, parse and replay on `N` threads (the book is the same bytes)")
	o.memory = sizeFlag{defaultMemory}
	fs.Var(&o.memory, "memory", "keep the whole run under about `SIZE` (e.g. 512M, 4G): beyond it the counts go to sorted runs in -tmp, merged at the end")
	fs.StringVar(&o.build.TempDir, "tmp", "", "`folder` for the sorted runs when the counts outgrow -memory (default: the system's temporary folder)")
	fs.BoolVar(&o.quiet, "q", false, "no progress and no per-game skip messages")
}

func (o *makeBookOptions) validate(cl *commandLine) error {
	switch {
	case len(o.fromCounts) > 0:
		refused := slices.Clone(readingFlags)
		for _, s := range build.Settings() {
			if s.Counted() {
				refused = append(refused, s.Flag)
			}
		}
		for _, name := range refused {
			if cl.given(name) {
				return usageErrorf("-%s does not go with -from-counts: the counts were made with their settings", name)
			}
		}
		if o.bin == "" && o.abk == "" {
			return usageErrorf("-bin or -abk is required")
		}
	case len(o.pgns) == 0:
		return usageErrorf("GAMES.pgn (or -pgn, or -from-counts) is required")
	case o.bin == "" && o.abk == "" && o.counts == "":
		return usageErrorf("-bin, -abk or -counts is required")
	}
	if o.abk != "" && len(o.fromCounts) == 0 && o.build.MaxPly < 1 {
		return usageErrorf("-abk with -max-ply %d: an ABK book holds lines of 1 to %d plies", o.build.MaxPly, formats.MaxPly)
	}
	if stdins := len(o.pgns) - len(slices.DeleteFunc(slices.Clone(o.pgns), func(p string) bool { return p == "-" })); stdins > 1 {
		return usageErrorf("-pgn - (standard input) can be given once")
	}
	return nil
}

func (o *makeBookOptions) files() (inputs, outputs []fileArg) {
	for _, name := range o.pgns {
		inputs = append(inputs, fileArg{"-pgn", name})
	}
	for _, name := range o.fromCounts {
		inputs = append(inputs, fileArg{"-from-counts", name})
	}
	return inputs, []fileArg{{"-bin", o.bin}, {"-abk", o.abk}, {"-counts", o.counts}}
}

func (o *makeBookOptions) run(e *env) error {
	if len(o.fromCounts) > 0 {
		return o.runFromCounts(e)
	}
	start := time.Now()
	o.build.Memory = o.memory.bytes
	debug.SetMemoryLimit(o.build.Memory)
	b := build.NewBuilder(o.build)
	defer b.Close()
	if err := b.PrepareTemp(); err != nil {
		return unusableTemp(o.build.TempDir, err)
	}
	e.stop.onStop(func() { b.Close() })
	if err := o.read(e, b, start); err != nil {
		return err
	}
	moves, err := o.write(e, b)
	if err != nil {
		return err
	}
	if err := e.commit(); err != nil {
		return err
	}
	o.summary(e, b, moves, start)
	return nil
}

// read counts every game of the -pgn files.
func (o *makeBookOptions) read(e *env, b *build.Builder, start time.Time) error {
	details := 0
	if !o.quiet {
		b.SkipLimit = maxSkipDetails + 1 // the rest are only counted
		b.OnSkip = func(s build.SkippedGame) {
			if details < maxSkipDetails {
				fmt.Fprintln(e.stderr, "make-book:", s)
			} else if details == maxSkipDetails {
				fmt.Fprintln(e.stderr, "make-book: (further skipped games are only counted)")
			}
			details++
		}
	}
	var inputSize, consumed int64 // of the inputs read, for a full disk's estimate
	for _, name := range o.pgns {
		if err := o.addPGNFile(e, b, name, start, &inputSize, &consumed); err != nil {
			return fmt.Errorf("%w; no book written", tempSpaceNeeded(err, inputSize, consumed))
		}
	}
	s := b.Stats()
	if err := checkUsable(s); err != nil {
		return err
	}
	if s.Runs > 0 && !o.quiet {
		fmt.Fprintf(e.stderr, "make-book: merging %d sorted runs (%s in %s)\n", s.Runs, megabytes(s.TempBytes), tempFolder(o.build.TempDir))
	}
	return nil
}

// write writes the outputs asked for: the counts, the book, the ABK
// book; moves is the book's entries.
func (o *makeBookOptions) write(e *env, b *build.Builder) (moves int, err error) {
	if o.counts != "" {
		if err := e.outs.WriteFileFrom(o.counts, b.WriteCounts); err != nil {
			return 0, err
		}
	}
	if o.bin != "" {
		err := e.outs.WriteFileFrom(o.bin, func(w io.Writer) (err error) {
			moves, err = b.WriteBook(w)
			return err
		})
		if err != nil {
			return 0, err
		}
		if moves == 0 {
			warnEmpty(e)
		}
	}
	if o.abk != "" {
		if err := makeBookABK(e, b, o.bin, o.abk, o.build.MaxPly); err != nil {
			return 0, err
		}
	}
	return moves, nil
}

// summary says what was read, counted and written.
func (o *makeBookOptions) summary(e *env, b *build.Builder, moves int, start time.Time) {
	s := b.Stats()
	printSummary(e.stderr, s)
	fmt.Fprintf(e.stderr, "make-book: %d plies, %d distinct position-moves", s.Plies, s.Positions)
	if o.bin != "" {
		fmt.Fprintf(e.stderr, ", %d entries written to %s", moves, o.bin)
	}
	if o.counts != "" {
		fmt.Fprintf(e.stderr, ", counts written to %s", o.counts)
	}
	fmt.Fprintf(e.stderr, " in %.2fs\n", time.Since(start).Seconds())
	if o.bin != "" || o.abk != "" {
		printDropped(e.stderr, s.Dropped, uint64(s.Positions), o.build)
	}
	if s.Runs > 0 {
		fmt.Fprintf(e.stderr, "make-book: the counts outgrew -memory %s: counted in %d sorted runs (%s of temporary files, removed); the book is the counts recipe's\n", o.memory.String(), s.Runs, megabytes(s.TempBytes))
		if s.Halved > 0 {
			fmt.Fprintf(e.stderr, "make-book: %d positions have a move with 16384 games or more: their totals were halved to fit; there the book can differ from PolyGlot's (which halves while reading)\n", s.Halved)
		}
	}
}

// makeBookABK writes the book b made as an ABK book: from the Polyglot
// book just written for bin, or, without one, from the book's entries
// gathered in memory (an ABK tree is made from the whole table anyway).
func makeBookABK(e *env, b *build.Builder, bin, abk string, maxPly int) error {
	var src *book.Book
	if bin != "" {
		var err error
		if src, err = formats.ByExt(".bin").Open(e.outs.Pending(bin)); err != nil {
			return err
		}
	} else {
		var entries []book.Entry
		moves, err := b.EachEntry(func(en book.Entry) error { entries = append(entries, en); return nil })
		if err != nil {
			return err
		}
		if moves == 0 {
			warnEmpty(e)
		}
		src = book.FromEntries(abk, entries)
	}
	defer src.Close()
	_, err := writeBook(e, formats.ByExt(".abk"), abk, src, maxPly)
	return err
}

// runFromCounts is make-book -from-counts: the counts added up in the
// order given, the move rules applied, the book written.
func (o *makeBookOptions) runFromCounts(e *env) error {
	start := time.Now()
	readers, ins, err := openCounts(o.fromCounts)
	if err != nil {
		return err
	}
	defer ins.Close()
	entries, st, err := build.FromCounts(readers, o.build)
	if err != nil {
		return fmt.Errorf("%w; no book written", err)
	}
	ins.warn(e)
	if st.Records == 0 {
		return fmt.Errorf("the counts hold no move; no book written")
	}
	warnIfEmpty(e, entries)
	if o.bin != "" {
		if _, err := writeBook(e, formats.ByExt(".bin"), o.bin, book.FromEntries(o.bin, entries), formats.MaxPly); err != nil {
			return err
		}
	}
	if o.abk != "" {
		// The counts were made to their own max ply: the tree goes as
		// deep as their lines do.
		if _, err := writeBook(e, formats.ByExt(".abk"), o.abk, book.FromEntries(o.abk, entries), formats.MaxPly); err != nil {
			return err
		}
	}
	if err := e.commit(); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "make-book: %d counts files, %d games, %d positions, %d position-moves, %d entries written to %s in %.2fs\n",
		len(o.fromCounts), st.Games, st.Positions, st.Records, len(entries), strings.Trim(o.bin+" "+o.abk, " "), time.Since(start).Seconds())
	if n := build.Chess960Games(st.Variants); n > 0 {
		fmt.Fprintf(e.stderr, "make-book: %d Chess960 games (the book's @PG@ header says so)\n", n)
	}
	printDropped(e.stderr, st.Dropped, st.Records, o.build)
	if st.Halved > 0 {
		fmt.Fprintf(e.stderr, "make-book: %d positions have a move with 16384 games or more: their totals were halved to fit; there the book can differ from one make-book run over all the games (which halves while reading)\n", st.Halved)
	}
	return nil
}

// warnIfEmpty says so when the move rules left out every move: the book
// is written empty, as PolyGlot writes it, but likely not what was meant.
func warnIfEmpty(e *env, entries []book.Entry) {
	// A @PG@ header's entries (key 0) hold no move.
	if !slices.ContainsFunc(entries, func(en book.Entry) bool { return en.Key != 0 }) {
		warnEmpty(e)
	}
}

func warnEmpty(e *env) {
	e.warnf("no move passed the move rules (-min-game, -min-score, -min-share, -only-white, -only-black): the book is empty")
}

// printDropped says what the move rules left out of the book, and by
// which rule, when they left out any position-move of the total: a book
// much smaller than its games says why (four games under the default
// -min-game 3 keep one move of 31).
func printDropped(stderr io.Writer, d build.Dropped, total uint64, o build.Options) {
	if d.Total() == 0 {
		return
	}
	var why []string
	add := func(n uint64, format string, args ...any) {
		if n > 0 {
			why = append(why, fmt.Sprintf("%d ", n)+fmt.Sprintf(format, args...))
		}
	}
	add(d.MinGame, "played in fewer than %d games (-min-game %d)", o.MinGame, o.MinGame)
	add(d.NoPoints, "lost in every game (no points: no weight, as in PolyGlot)")
	add(d.MinScore, "scored below %g%% (-min-score %g)", o.MinScore, o.MinScore)
	side, flag := "White's", "-only-black"
	if o.Colours == build.WhiteOnly {
		side, flag = "Black's", "-only-white"
	}
	add(d.Colour, "%s (%s)", side, flag)
	add(d.MinShare, "played in fewer than %g%% of their position's games (-min-share %g)", o.MinShare, o.MinShare)
	fmt.Fprintf(stderr, "make-book: the move rules left out %d of the %d position-moves: %s\n", d.Total(), total, strings.Join(why, "; "))
}

// checkUsable refuses to write a book when no game was counted: most
// likely the wrong file or filters; an empty book would hide that.
func checkUsable(s build.Stats) error {
	switch {
	case s.Games == s.SkippedTotal():
		return fmt.Errorf("no usable game in the input (%d read, all skipped); no book written", s.Games)
	case s.Games == s.SkippedTotal()+s.FilteredTotal():
		return fmt.Errorf("no game passed the filters (%d read, %d skipped, %d filtered out); no book written", s.Games, s.SkippedTotal(), s.FilteredTotal())
	}
	return nil
}

func printSummary(stderr io.Writer, s build.Stats) {
	used := s.Games - s.SkippedTotal() - s.FilteredTotal()
	fmt.Fprintf(stderr, "make-book: %d games read, %d used, %d skipped", s.Games, used, s.SkippedTotal())
	for _, r := range pgn.SkipReasons {
		if n := s.Skipped[r]; n > 0 {
			fmt.Fprintf(stderr, "; %s: %d", r, n)
		}
	}
	if n := s.FilteredTotal(); n > 0 {
		fmt.Fprintf(stderr, ", %d filtered out", n)
		for _, r := range build.FilterReasons {
			if n := s.Filtered[r]; n > 0 {
				fmt.Fprintf(stderr, "; %s: %d", r, n)
			}
		}
	}
	fmt.Fprintln(stderr)
	if s.Chess960Games > 0 {
		fmt.Fprintf(stderr, "make-book: %d Chess960 games (the book's @PG@ header says so)", s.Chess960Games)
		if s.InnerRookPlies > 0 {
			fmt.Fprintf(stderr, "; %d plies left out: a castling right held by an inner rook, which the Polyglot key cannot tell from the outer rook's", s.InnerRookPlies)
		}
		fmt.Fprintln(stderr)
	}
}

// progressAfter is how long a run must take before it reports progress,
// and then how often.
const progressAfter = time.Second

func (o *makeBookOptions) addPGNFile(e *env, b *build.Builder, name string, start time.Time, inputSize, consumed *int64) error {
	in, err := openInput(name)
	if err != nil {
		return err
	}
	defer in.Close()
	*inputSize += in.Size
	defer func() { *consumed += in.Consumed() }()
	label := name
	if name == "-" {
		label = "standard input"
	}
	fileStart, last := time.Now(), time.Now()
	gamesBefore := b.Stats().Games
	if !o.quiet {
		b.Progress = func(s build.Stats) {
			now := time.Now()
			if now.Sub(start) < progressAfter || now.Sub(last) < progressAfter {
				return
			}
			last = now
			elapsed := now.Sub(fileStart).Seconds()
			games := s.Games - gamesBefore
			msg := fmt.Sprintf("make-book: reading %s: %d games (%.0f/s)", label, games, float64(games)/elapsed)
			// Of a compressed file, the share of its compressed bytes.
			if n := in.Consumed(); in.Size > 0 && n > 0 {
				left := elapsed * float64(in.Size-n) / float64(n)
				msg += fmt.Sprintf(", %d%%, about %s left", 100*n/in.Size, time.Duration(left*float64(time.Second)).Round(time.Second))
			}
			if s.Runs > 0 {
				msg += fmt.Sprintf("; %d sorted runs, %s of temporary files", s.Runs, megabytes(s.TempBytes))
			}
			fmt.Fprintln(e.stderr, msg)
		}
	}
	err = b.AddPGN(in, label)
	b.Progress = nil
	if err == nil {
		pgnInputs{in}.warn(e)
	}
	return err
}

// defaultMemory is -memory's default: room for about 25 million distinct
// position-moves before the counts go to temporary files, and within an
// ordinary machine's memory.
const defaultMemory = 1 << 30

// sizeFlag is a byte size flag: 512M, 4G, 1.5G, 300000000 (K, M, G, T are
// powers of 1024; a trailing B or iB is allowed).
type sizeFlag struct{ bytes int64 }

func (f *sizeFlag) String() string { return formatSize(f.bytes) }

func (f *sizeFlag) Set(v string) error {
	n, err := parseSize(v)
	if err != nil {
		return err
	}
	if n < build.MinMemory {
		return fmt.Errorf("%s is too little: at least %s", v, formatSize(build.MinMemory))
	}
	f.bytes = n
	return nil
}

func parseSize(v string) (int64, error) {
	s := strings.ToUpper(strings.TrimSpace(v))
	s = strings.TrimSuffix(strings.TrimSuffix(s, "B"), "I")
	mult := int64(1)
	if s != "" {
		if i := strings.IndexByte("KMGT", s[len(s)-1]); i >= 0 {
			mult = 1 << (10 * (i + 1))
			s = s[:len(s)-1]
		}
	}
	x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || x <= 0 || x*float64(mult) > 1<<50 {
		return 0, fmt.Errorf("bad size %q (want e.g. 512M or 4G)", v)
	}
	return int64(x * float64(mult)), nil
}

func formatSize(n int64) string {
	for _, u := range []struct {
		unit string
		size int64
	}{{"T", 1 << 40}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}} {
		if n >= u.size && n%u.size == 0 {
			return fmt.Sprintf("%d%s", n/u.size, u.unit)
		}
	}
	return strconv.FormatInt(n, 10)
}

func megabytes(n int64) string { return fmt.Sprintf("%.0f MB", float64(n)/(1<<20)) }

func tempFolder(dir string) string {
	if dir == "" {
		return os.TempDir()
	}
	return dir
}

// unusableTemp says why make-book cannot keep its temporary files in dir
// (-tmp), of the folder the user named, not of the file tried in it.
func unusableTemp(dir string, err error) error {
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		return fmt.Errorf("%w (choose another folder with -tmp); no book written", err)
	}
	why := plainerr.Why(pe.Path, pe.Err)
	if errors.Is(pe.Err, fs.ErrNotExist) {
		why = "no such folder"
	}
	return fmt.Errorf("-tmp %s: cannot keep temporary files there: %s (choose another folder with -tmp); no book written", tempFolder(dir), why)
}

// tempSpaceNeeded adds to a failure to write the sorted runs (a full disk)
// how much space the whole input needs there, from what the runs took for
// the part read, when the input's size is known.
func tempSpaceNeeded(err error, inputSize, consumed int64) error {
	var te *build.TempError
	if !errors.As(err, &te) || te.Written == 0 {
		return err
	}
	if inputSize > 0 && consumed > 0 {
		return fmt.Errorf("%w; the whole input needs about %s there: free some, or choose another folder with -tmp", err,
			megabytes(int64(float64(te.Written)*float64(inputSize)/float64(consumed))))
	}
	return fmt.Errorf("%w; the rest of the input needs more: free some space, or choose another folder with -tmp", err)
}
