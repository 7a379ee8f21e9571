package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/build"
	"github.com/polyproxy/polyproxy/book/pgn"
)

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// maxSkipDetails bounds the per-game skip messages; the summary counts all.
const maxSkipDetails = 20

func runMakeBook(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("make-book", flag.ContinueOnError)
	fs.SetOutput(stderr)
	opt := build.DefaultOptions()
	var pgns stringList
	fs.Var(&pgns, "pgn", "PGN `file` to read (repeat for several)")
	out := fs.String("bin", "", "book `file` to write (replaced atomically)")
	fs.IntVar(&opt.MaxPly, "max-ply", opt.MaxPly, "count only the first `N` plies of each game")
	fs.IntVar(&opt.MinGame, "min-game", opt.MinGame, "keep a move only if played in at least `N` games")
	fs.Float64Var(&opt.MinScore, "min-score", opt.MinScore, "keep a move only if it scored at least `PCT` percent")
	// As in PolyGlot, the later of -only-white / -only-black wins.
	fs.BoolFunc("only-white", "keep only moves of White", func(string) error { opt.Colours = build.WhiteOnly; return nil })
	fs.BoolFunc("only-black", "keep only moves of Black", func(string) error { opt.Colours = build.BlackOnly; return nil })
	fs.BoolVar(&opt.Uniform, "uniform", false, "give every kept move weight 1")
	quiet := fs.Bool("q", false, "no progress and no per-game skip messages")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: polyproxy make-book -pgn FILE [-pgn FILE]... -bin OUT [-max-ply N] [-min-game N] [-min-score PCT] [-only-white] [-only-black] [-uniform] [-q]")
		fmt.Fprintln(stderr, "Weight = 2 per win + 1 per draw from the mover's view (Result tag; missing or * = draw).")
		fmt.Fprintln(stderr, "Games with an illegal, ambiguous or null move, a bad tag or no result are skipped and counted.")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, "pgn", "bin"); err != nil {
		return err
	}
	if opt.MaxPly < 0 || opt.MinGame < 0 {
		return usageErrorf("-max-ply and -min-game must not be negative")
	}

	start := time.Now()
	b := build.NewBuilder(opt)
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
	for _, name := range pgns {
		if err := addPGNFile(b, name, start, *quiet, stderr); err != nil {
			return fmt.Errorf("%v; no book written", err)
		}
	}
	s := b.Stats()
	if s.Games == s.SkippedTotal() {
		// Most likely the wrong file; an empty book would hide that.
		return fmt.Errorf("no usable game in the input (%d read, all skipped); no book written", s.Games)
	}
	entries := b.Entries()
	if err := book.WriteFile(*out, entries); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "make-book: %d games read, %d used, %d skipped", s.Games, s.Games-s.SkippedTotal(), s.SkippedTotal())
	for _, r := range pgn.SkipReasons {
		if n := s.Skipped[r]; n > 0 {
			fmt.Fprintf(stderr, "; %s: %d", r, n)
		}
	}
	fmt.Fprintf(stderr, "\nmake-book: %d plies, %d distinct position-moves, %d entries written to %s in %.2fs\n",
		s.Plies, s.Positions, len(entries), *out, time.Since(start).Seconds())
	return nil
}

// countingReader counts the bytes read, for progress.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// progressAfter is how long a run must take before it reports progress,
// and then how often.
const progressAfter = time.Second

func addPGNFile(b *build.Builder, name string, start time.Time, quiet bool, stderr io.Writer) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	var size int64
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		size = st.Size()
	}
	cr := &countingReader{r: f}
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
			msg := fmt.Sprintf("make-book: %s: %d games (%.0f/s)", name, games, float64(games)/elapsed)
			if size > 0 && cr.n > 0 {
				left := elapsed * float64(size-cr.n) / float64(cr.n)
				msg += fmt.Sprintf(", %d%%, about %s left", 100*cr.n/size, time.Duration(left*float64(time.Second)).Round(time.Second))
			}
			fmt.Fprintln(stderr, msg)
		}
	}
	err = b.AddPGN(cr, name)
	b.Progress = nil
	return err
}
