package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/abk"
	"github.com/polyproxy/polyproxy/book/build"
	"github.com/polyproxy/polyproxy/book/pgn"
)

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// maxSkipDetails bounds the per-game skip messages; the summary counts all.
const maxSkipDetails = 20

// Bounds of make-book's numeric flags.
const (
	// maxThreads: more threads than cores only add pieces in flight
	// (about 3 × 160 KB a thread) and scheduling; 256 covers the largest
	// machines and keeps that under about 125 MB. -threads 100000000 took
	// 5 GB and 100 s before anything was read.
	maxThreads = 256
	// maxGamePlies is above the longest possible game (about 17,700
	// plies under the 75-move rule).
	maxGamePlies = 1 << 15
	// maxElo is above any rating a player or engine has.
	maxElo = 10000
	// maxBaseTime is a year in seconds: more than any TimeControl's base.
	maxBaseTime = 366 * 24 * 3600
)

// listFlag is a repeatable flag whose values may also be comma-separated.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error {
	for _, x := range strings.Split(v, ",") {
		if x = strings.TrimSpace(x); x != "" {
			*l = append(*l, x)
		}
	}
	return nil
}

func runMakeBook(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("make-book", flag.ContinueOnError)
	fs.SetOutput(stderr)
	opt := build.DefaultOptions()
	var pgns stringList
	fs.Var(&pgns, "pgn", "PGN `file` to read: plain, .gz, .bz2 or .zst (told by content), - for stdin; repeat for several")
	out := fs.String("bin", "", "book `file` to write (replaced atomically; not an input)")
	abkOut := fs.String("abk", "", "also (or instead of -bin) write the book as an ABK book, Arena's format, to `file`: the tree of its lines from the start position to -max-ply (replaced atomically; not an input)")
	countsOut := fs.String("counts", "", "also (or, without -bin, only) write every position-move's full games and points to counts `file` (not an input, not -bin), for sum-counts and -from-counts")
	var fromCounts stringList
	fs.Var(&fromCounts, "from-counts", "make the book from counts `file`s instead of PGN (repeat; in the order of the games)")
	intFlag(fs, &opt.MaxPly, "max-ply", opt.MaxPly, 0, maxGamePlies, "count only the first `N` plies of each game")
	intFlag(fs, &opt.MinGame, "min-game", opt.MinGame, 0, math.MaxInt32, "keep a move only if played in at least `N` games")
	floatFlag(fs, &opt.MinScore, "min-score", opt.MinScore, 0, 100, "keep a move only if it scored at least `PCT` percent")
	// As in PolyGlot, the later of -only-white / -only-black wins.
	fs.BoolFunc("only-white", "keep only moves of White", func(string) error { opt.Colours = build.WhiteOnly; return nil })
	fs.BoolFunc("only-black", "keep only moves of Black", func(string) error { opt.Colours = build.BlackOnly; return nil })
	fs.BoolVar(&opt.Uniform, "uniform", false, "give every kept move weight 1")
	percentFlag(fs, &opt.MinShare, "min-share", "keep a move only if played in at least `PCT` percent of its position's games")
	intFlag(fs, &opt.Threads, "threads", min(runtime.GOMAXPROCS(0), maxThreads), 1, maxThreads, "read, parse and replay on `N` threads (the book is the same bytes)")
	memory := sizeFlag{defaultMemory}
	fs.Var(&memory, "memory", "keep the whole run under about `SIZE` (e.g. 512M, 4G): beyond it the counts go to sorted runs in -tmp, merged at the end")
	fs.StringVar(&opt.TempDir, "tmp", "", "`folder` for the sorted runs when the counts outgrow -memory (default: the system's temporary folder)")
	f := &opt.Filter
	intFlag(fs, &f.MinElo, "min-elo", 0, 0, maxElo, "only games where both WhiteElo and BlackElo are at least `N` (no rating: dropped)")
	intFlag(fs, &f.MinMoverElo, "min-mover-elo", 0, 0, maxElo, "only the moves of a player whose own rating is at least `N`")
	fromDate := fs.String("from-date", "", "only games dated `YYYY[.MM[.DD]]` or later (Date tag, else UTCDate)")
	toDate := fs.String("to-date", "", "only games dated up to `YYYY[.MM[.DD]]` (a partial date: to its end)")
	fs.Var((*playerList)(&f.Players), "player", "only the moves of player `NAME` (White/Black tag, any case, commas kept: \"Carlsen, Magnus\"); repeat the flag for several")
	fs.Var((*listFlag)(&f.TimeClasses), "time-control", "only games of these `CLASSES`: "+strings.Join(build.TimeClasses, ",")+" (TimeControl tag)")
	intFlag(fs, &f.MinBaseTime, "min-base-time", 0, 0, maxBaseTime, "only games with a base time of at least `SECONDS` (TimeControl tag; - passes)")
	fs.Var((*listFlag)(&f.SkipTerminations), "skip-termination", "drop games whose Termination tag is one of these `VALUES`")
	skipForfeits := fs.Bool("skip-forfeits", false, "drop games lost on time or abandoned (Termination \"Time forfeit\" or \"Abandoned\")")
	quiet := fs.Bool("q", false, "no progress and no per-game skip messages")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: polyproxy make-book -pgn FILE [-pgn FILE]... [-bin OUT] [-abk OUT] [-counts OUT] [-max-ply N] [-min-game N]")
		fmt.Fprintln(stderr, "         [-min-score PCT] [-only-white] [-only-black] [-uniform] [-min-share PCT] [-threads N]")
		fmt.Fprintln(stderr, "         [-memory SIZE] [-tmp DIR] [game filters] [-q]")
		fmt.Fprintln(stderr, "       polyproxy make-book -from-counts FILE [-from-counts FILE]... [-bin OUT] [-abk OUT] [move rules]")
		fmt.Fprintln(stderr, "Weight = 2 per win + 1 per draw from the mover's view (Result tag; missing or * = draw).")
		fmt.Fprintln(stderr, "Games with an illegal, ambiguous or null move, a bad tag or no result are skipped and counted.")
		fmt.Fprintln(stderr, "Any number of games fits in -memory: when the counts outgrow it they go to sorted runs in -tmp")
		fmt.Fprintln(stderr, "(removed at the end, on error and on Ctrl-C), and the book is then the counts recipe's (-counts")
		fmt.Fprintln(stderr, "on parts, sum-counts, -from-counts), which differs from PolyGlot's only where a move passes 16384 games.")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case len(fromCounts) > 0:
		for _, name := range []string{"pgn", "counts", "max-ply", "threads", "memory", "tmp", "min-elo", "min-mover-elo", "from-date", "to-date", "player", "time-control", "min-base-time", "skip-termination", "skip-forfeits"} {
			if set[name] {
				return usageErrorf("-%s does not go with -from-counts: the counts were made with their settings", name)
			}
		}
		if *out == "" && *abkOut == "" {
			return usageErrorf("-bin or -abk is required")
		}
	case len(pgns) == 0:
		return usageErrorf("-pgn (or -from-counts) is required")
	case *out == "" && *abkOut == "" && *countsOut == "":
		return usageErrorf("-bin, -abk or -counts is required")
	}
	var err error
	if *fromDate != "" {
		if f.FromDate, err = build.ParseFlagDate(*fromDate, false); err != nil {
			return usageErrorf("-from-date: %v", err)
		}
	}
	if *toDate != "" {
		if f.ToDate, err = build.ParseFlagDate(*toDate, true); err != nil {
			return usageErrorf("-to-date: %v", err)
		}
	}
	for _, c := range f.TimeClasses {
		if !slices.Contains(build.TimeClasses, strings.ToLower(c)) {
			return usageErrorf("-time-control: unknown class %q (have %s)", c, strings.Join(build.TimeClasses, ", "))
		}
	}
	if *skipForfeits {
		f.SkipTerminations = append(f.SkipTerminations, "Time forfeit", "Abandoned")
	}
	stdins := 0
	for _, name := range pgns {
		if name == "-" {
			stdins++
		}
	}
	if stdins > 1 {
		return usageErrorf("-pgn - (standard input) can be given once")
	}
	var inputs []fileArg
	for _, name := range pgns {
		inputs = append(inputs, fileArg{"-pgn", name})
	}
	for _, name := range fromCounts {
		inputs = append(inputs, fileArg{"-from-counts", name})
	}
	if err := checkOutputs(inputs, []fileArg{{"-bin", *out}, {"-abk", *abkOut}, {"-counts", *countsOut}}); err != nil {
		return err
	}

	if len(fromCounts) > 0 {
		return makeBookFromCounts(fromCounts, *out, *abkOut, opt, stderr)
	}
	opt.Memory = memory.bytes
	debug.SetMemoryLimit(opt.Memory)
	start := time.Now()
	b := build.NewBuilder(opt)
	defer b.Close()
	if err := b.PrepareTemp(); err != nil {
		return fmt.Errorf("%v (choose another folder with -tmp); no book written", err)
	}
	stop := stopOnSignal(b, stderr)
	defer stop.release()
	details := 0
	if !*quiet {
		b.OnSkip = func(s build.SkippedGame) {
			if details < maxSkipDetails {
				fmt.Fprintln(stderr, "make-book:", s)
			} else if details == maxSkipDetails {
				fmt.Fprintln(stderr, "make-book: (further skipped games are only counted)")
			}
			details++
		}
	}
	var inputSize, consumed int64 // of the inputs read, for a full disk's estimate
	for _, name := range pgns {
		err := addPGNFile(b, name, start, *quiet, stderr, &inputSize, &consumed)
		if err = stop.why(err); err != nil {
			return fmt.Errorf("%v; no book written", tempSpaceNeeded(err, inputSize, consumed))
		}
	}
	s := b.Stats()
	if err := checkUsable(s); err != nil {
		return err
	}
	if s.Runs > 0 && !*quiet {
		fmt.Fprintf(stderr, "make-book: merging %d sorted runs (%s in %s)\n", s.Runs, megabytes(s.TempBytes), tempFolder(opt.TempDir))
	}
	if *countsOut != "" {
		if err := stop.why(book.WriteFileFrom(*countsOut, b.WriteCounts)); err != nil {
			return err
		}
	}
	moves := 0
	if *out != "" {
		err := book.WriteFileFrom(*out, func(w io.Writer) (err error) {
			moves, err = b.WriteBook(w)
			return err
		})
		if err = stop.why(err); err != nil {
			return err
		}
		if moves == 0 {
			warnEmpty(stderr)
		}
	}
	if *abkOut != "" {
		if err := stop.why(makeBookABK(b, *out, *abkOut, opt.MaxPly, stderr)); err != nil {
			return err
		}
	}
	s = b.Stats()
	printSummary(stderr, s)
	fmt.Fprintf(stderr, "make-book: %d plies, %d distinct position-moves", s.Plies, s.Positions)
	if *out != "" {
		fmt.Fprintf(stderr, ", %d entries written to %s", moves, *out)
	}
	if *countsOut != "" {
		fmt.Fprintf(stderr, ", counts written to %s", *countsOut)
	}
	fmt.Fprintf(stderr, " in %.2fs\n", time.Since(start).Seconds())
	if s.Runs > 0 {
		fmt.Fprintf(stderr, "make-book: the counts outgrew -memory %s: counted in %d sorted runs (%s of temporary files, removed); the book is the counts recipe's\n", memory.String(), s.Runs, megabytes(s.TempBytes))
		if s.Halved > 0 {
			fmt.Fprintf(stderr, "make-book: %d positions have a move with 16384 games or more: their totals were halved to fit; there the book can differ from PolyGlot's (which halves while reading)\n", s.Halved)
		}
	}
	return nil
}

// makeBookABK writes the book b made as an ABK book: from the Polyglot
// book just written to bin, or, without one, from the book's entries
// gathered in memory (an ABK tree is made from the whole table anyway).
func makeBookABK(b *build.Builder, bin, abk string, maxPly int, stderr io.Writer) error {
	var src *book.Book
	if bin != "" {
		var err error
		if src, err = book.Open(bin); err != nil {
			return err
		}
	} else {
		var buf bytes.Buffer
		moves, err := b.WriteBook(&buf)
		if err != nil {
			return err
		}
		if moves == 0 {
			warnEmpty(stderr)
		}
		entries := make([]book.Entry, buf.Len()/book.EntrySize)
		for i := range entries {
			entries[i] = book.DecodeEntry(buf.Bytes()[i*book.EntrySize:])
		}
		src = book.FromEntries(abk, entries)
	}
	defer src.Close()
	_, err := writeABK("make-book", abk, src, maxPly, stderr)
	return err
}

// makeBookFromCounts is make-book -from-counts: the counts added up in
// the order given, the move rules applied, the book written.
func makeBookFromCounts(files []string, out, abkOut string, opt build.Options, stderr io.Writer) error {
	start := time.Now()
	readers, ins, err := openCounts(files)
	if err != nil {
		return err
	}
	defer ins.Close()
	entries, st, err := build.FromCounts(readers, opt)
	if err != nil {
		return fmt.Errorf("%v; no book written", err)
	}
	ins.warn(stderr, "make-book")
	if st.Records == 0 {
		return fmt.Errorf("the counts hold no move; no book written")
	}
	warnIfEmpty(stderr, entries)
	if out != "" {
		if err := book.WriteFile(out, entries); err != nil {
			return err
		}
	}
	if abkOut != "" {
		// The counts were made to their own max ply: the tree goes as
		// deep as their lines do.
		if _, err := writeABK("make-book", abkOut, book.FromEntries(abkOut, entries), abk.MaxPly, stderr); err != nil {
			return err
		}
	}
	fmt.Fprintf(stderr, "make-book: %d counts files, %d games, %d positions, %d position-moves, %d entries written to %s in %.2fs\n",
		len(files), st.Games, st.Positions, st.Records, len(entries), strings.Trim(out+" "+abkOut, " "), time.Since(start).Seconds())
	if n := chess960Games(st.Variants); n > 0 {
		fmt.Fprintf(stderr, "make-book: %d Chess960 games (the book's @PG@ header says so)\n", n)
	}
	if st.Halved > 0 {
		fmt.Fprintf(stderr, "make-book: %d positions have a move with 16384 games or more: their totals were halved to fit; there the book can differ from one make-book run over all the games (which halves while reading)\n", st.Halved)
	}
	return nil
}

// warnIfEmpty says so when the move rules left out every move: the book
// is written empty, as PolyGlot writes it, but likely not what was meant.
func warnIfEmpty(stderr io.Writer, entries []book.Entry) {
	// A @PG@ header's entries (key 0) hold no move.
	if !slices.ContainsFunc(entries, func(e book.Entry) bool { return e.Key != 0 }) {
		warnEmpty(stderr)
	}
}

func warnEmpty(stderr io.Writer) {
	warnf(stderr, "make-book", "no move passed the move rules (-min-game, -min-score, -min-share, -only-white, -only-black): the book is empty")
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

func addPGNFile(b *build.Builder, name string, start time.Time, quiet bool, stderr io.Writer, inputSize, consumed *int64) error {
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
	if !quiet {
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
			fmt.Fprintln(stderr, msg)
		}
	}
	err = b.AddPGN(in, label)
	b.Progress = nil
	if err == nil {
		pgnInputs{in}.warn(stderr, "make-book")
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

// signalStop removes a build's temporary files when make-book is
// interrupted (Ctrl-C, SIGINT; SIGTERM) and makes the build fail, which
// then returns at its next game or position. A build blocked reading a
// pipe that sends nothing cannot notice: after a grace period make-book
// exits from here (nothing but the removed runs was written by then; the
// book is written only after the reading).
type signalStop struct {
	sigs chan os.Signal
	done chan struct{}
	once sync.Once
	mu   sync.Mutex
	got  os.Signal
}

func stopOnSignal(b *build.Builder, stderr io.Writer) *signalStop {
	s := &signalStop{sigs: make(chan os.Signal, 1), done: make(chan struct{})}
	signal.Notify(s.sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case sig := <-s.sigs:
			s.mu.Lock()
			s.got = sig
			s.mu.Unlock()
			b.Close()
			select {
			case <-s.done:
			case <-time.After(signalGrace):
				var e *exitError
				errors.As(s.why(errRemovedBySignal), &e)
				fmt.Fprintf(stderr, "make-book: %v\n", e)
				os.Exit(e.code)
			}
		case <-s.done:
		}
	}()
	return s
}

// signalGrace is how long an interrupted build has to return by itself.
const signalGrace = time.Second

var errRemovedBySignal = errors.New("interrupted")

// why turns the error of an interrupted build into one saying so, with
// the exit code of a process killed by the signal (128 + its number).
func (s *signalStop) why(err error) error {
	s.mu.Lock()
	sig := s.got
	s.mu.Unlock()
	if sig == nil || err == nil {
		return err
	}
	code := 130
	if n, ok := sig.(syscall.Signal); ok {
		code = 128 + int(n)
	}
	return &exitError{code: code, err: fmt.Errorf("stopped by %v: temporary files removed; no book written", sig)}
}

func (s *signalStop) release() {
	s.once.Do(func() {
		signal.Stop(s.sigs)
		close(s.done)
	})
}
