package build

import (
	"fmt"
	"io"
	"slices"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/pgn"
)

// Colours selects the side-to-move of the entries make-book keeps.
type Colours int

const (
	BothColours Colours = iota
	WhiteOnly
	BlackOnly
)

// Options are make-book's settings, with PolyGlot 2.0.4's meaning.
type Options struct {
	MaxPly   int     // only plies 0..MaxPly-1 of each game count
	MinGame  int     // an entry needs at least this many games
	MinScore float64 // percent: points/games/2 must be at least MinScore/100
	Colours  Colours
	Uniform  bool // weight 1 for every kept entry instead of its points
}

// DefaultOptions are PolyGlot's defaults.
func DefaultOptions() Options {
	return Options{MaxPly: 1024, MinGame: 3}
}

// SkippedGame says where a skipped game is and why.
type SkippedGame struct {
	Source string // the PGN's name
	Line   int    // where the game starts
	Reason string // one of pgn.SkipReasons
	Detail string
}

func (s SkippedGame) String() string {
	return fmt.Sprintf("%s:%d: game skipped: %s", s.Source, s.Line, s.Detail)
}

// Stats counts what a build has read so far.
type Stats struct {
	Games     int            // games read, skipped ones included
	Skipped   map[string]int // skipped games by reason
	Plies     int            // plies added to entries
	Positions int            // distinct (position, move) pairs seen
}

// SkippedTotal is the number of skipped games.
func (s Stats) SkippedTotal() int {
	n := 0
	for _, c := range s.Skipped {
		n += c
	}
	return n
}

// countMax is where PolyGlot halves a position's counts so they fit.
const countMax = 16384

// buildEntry accumulates one (position, move): n games, sum points (2 per
// win, 1 per draw, from the mover's view). 16 bytes, so a build's memory is
// about 16 bytes per distinct pair plus the hash table's 4-8.
type buildEntry struct {
	key   book.Key
	move  book.Move // stored form (castling king-to-rook)
	n     uint16
	sum   uint16
	white bool
}

// Builder accumulates games into book entries the way PolyGlot's make-book
// does, so that for any PGN PolyGlot accepts the book is byte-identical.
// Entries are kept in order of first appearance (the final sort is stable).
type Builder struct {
	opt Options
	// entries in order of first appearance, in fixed-size chunks: growing
	// never copies them or leaves the old array to the garbage collector,
	// which keeps peak memory near the live data (PolyGlot's own peak on
	// the reference PGN is ~10 MB; ours must stay under twice that).
	chunks [][]buildEntry
	count  int
	// table is an open-addressing hash on the key alone (linear probing),
	// holding entry index+1 (0 = empty): all moves of one key lie on one
	// probe run, which is what halving needs. A map[struct{Key;Move}]
	// would cost more memory and give no way to visit a key's moves.
	table []int32
	stats Stats

	// Progress, if set, is called every 1024 games read.
	Progress func(Stats)
	// OnSkip, if set, is called for every skipped game.
	OnSkip func(SkippedGame)

	plies []pendingPly // the current game's plies, added once it is valid
}

type pendingPly struct {
	key   book.Key
	move  book.Move
	white bool
}

// NewBuilder starts an empty build.
func NewBuilder(opt Options) *Builder {
	return &Builder{opt: opt, stats: Stats{Skipped: map[string]int{}}, table: make([]int32, 1<<12)}
}

// Stats reports the counts so far.
func (b *Builder) Stats() Stats {
	s := b.stats
	s.Positions = b.count
	s.Skipped = make(map[string]int, len(b.stats.Skipped))
	for k, v := range b.stats.Skipped {
		s.Skipped[k] = v
	}
	return s
}

// AddPGN reads every game of a PGN stream. Broken games are skipped and
// counted; only a read error stops it. source names the stream in reports.
func (b *Builder) AddPGN(r io.Reader, source string) error {
	pr := pgn.NewReader(r)
	for {
		g, err := pr.Next()
		if err == io.EOF {
			return nil
		}
		// A type switch, not errors.As: no allocation per game.
		if syntax, ok := err.(*pgn.SyntaxError); ok {
			b.stats.Games++
			b.skip(SkippedGame{source, syntax.GameLine, syntax.Reason(), syntax.Error()})
		} else if err != nil {
			return fmt.Errorf("%s: %w", source, err)
		} else {
			b.stats.Games++
			b.addGame(g, source)
		}
		if b.Progress != nil && b.stats.Games%1024 == 0 {
			b.Progress(b.Stats())
		}
	}
}

func (b *Builder) skip(s SkippedGame) {
	b.stats.Skipped[s.Reason]++
	if b.OnSkip != nil {
		b.OnSkip(s)
	}
}

// addGame replays one game; it adds its plies only if every move of the
// main line is legal, so a broken game leaves no trace.
func (b *Builder) addGame(g *pgn.Game, source string) {
	if g.Result == "" {
		b.skip(SkippedGame{source, g.Line, pgn.SkipNoResult, "no result (1-0, 0-1, 1/2-1/2 or *) after the moves"})
		return
	}
	// PolyGlot scores by the Result tag only; anything but a win counts as
	// a draw (also a missing tag or "*").
	result := 0
	switch g.Tag("Result") {
	case "1-0":
		result = 1
	case "0-1":
		result = -1
	}
	b.plies = b.plies[:0]
	ply := 0
	err := g.Replay(func(pos *board.Position, m book.Move) {
		if ply < b.opt.MaxPly {
			b.plies = append(b.plies, pendingPly{pos.Key(), pos.ToBook(m), pos.WhiteToMove()})
		}
		ply++
	})
	if skip, ok := err.(*pgn.Skip); ok {
		b.skip(SkippedGame{source, g.Line, skip.Reason, skip.Detail})
		return
	}
	for _, p := range b.plies {
		points := 1 + result // from White's view: 2 win, 1 draw, 0 loss
		if !p.white {
			points = 1 - result
		}
		b.add(p.key, p.move, p.white, points)
	}
	b.stats.Plies += len(b.plies)
}

const chunkBits = 12

// entry returns the entry with index i (0-based, order of first appearance).
func (b *Builder) entry(i int) *buildEntry { return &b.chunks[i>>chunkBits][i&(1<<chunkBits-1)] }

func (b *Builder) slot(k book.Key) int { return int(uint64(k)>>20) & (len(b.table) - 1) }

// add counts one game for (key, move).
func (b *Builder) add(k book.Key, m book.Move, white bool, points int) {
	mask := len(b.table) - 1
	i := b.slot(k)
	for {
		idx := b.table[i]
		if idx == 0 {
			break
		}
		if e := b.entry(int(idx) - 1); e.key == k && e.move == m {
			b.tally(e, points)
			return
		}
		i = (i + 1) & mask
	}
	if b.count&(1<<chunkBits-1) == 0 {
		b.chunks = append(b.chunks, make([]buildEntry, 1<<chunkBits))
	}
	e := b.entry(b.count)
	*e = buildEntry{key: k, move: m, white: white}
	b.count++
	b.table[i] = int32(b.count)
	if 2*b.count > len(b.table) {
		b.grow()
	}
	b.tally(e, points)
}

func (b *Builder) tally(e *buildEntry, points int) {
	e.n++
	e.sum += uint16(points)
	if e.n >= countMax {
		b.halve(e.key)
	}
}

// halve halves the counts of every move of key k, rounding up, as
// PolyGlot does when one of them reaches countMax.
func (b *Builder) halve(k book.Key) {
	mask := len(b.table) - 1
	for i := b.slot(k); b.table[i] != 0; i = (i + 1) & mask {
		if e := b.entry(int(b.table[i]) - 1); e.key == k {
			e.n = (e.n + 1) / 2
			e.sum = (e.sum + 1) / 2
		}
	}
}

func (b *Builder) grow() {
	b.table = make([]int32, 2*len(b.table))
	mask := len(b.table) - 1
	for idx := 0; idx < b.count; idx++ {
		i := b.slot(b.entry(idx).key)
		for b.table[i] != 0 {
			i = (i + 1) & mask
		}
		b.table[i] = int32(idx + 1)
	}
}

// Entries filters and sorts the accumulated entries into a book: an entry
// is kept if it has at least MinGame games, points > 0, a score
// (points/games/2) of at least MinScore percent, the wanted side to move,
// and a weight > 0. Weight = points (1 with Uniform), learn = 0. Order: key
// ascending, weight descending, ties in order of first appearance.
func (b *Builder) Entries() []book.Entry {
	kept := 0
	for i := 0; i < b.count; i++ {
		if b.keep(b.entry(i)) {
			kept++
		}
	}
	out := make([]book.Entry, 0, kept)
	for i := 0; i < b.count; i++ {
		e := b.entry(i)
		if !b.keep(e) {
			continue
		}
		w := e.sum
		if b.opt.Uniform {
			w = 1
		}
		out = append(out, book.Entry{Key: e.key, Move: e.move, Weight: w})
	}
	// Stable: ties stay in order of first appearance, as in PolyGlot.
	slices.SortStableFunc(out, book.CompareEntries)
	return out
}

// keep applies make-book's filters to one entry (weight > 0 follows from
// sum > 0).
func (b *Builder) keep(e *buildEntry) bool {
	if int(e.n) < b.opt.MinGame || e.sum == 0 {
		return false
	}
	// The same double arithmetic as PolyGlot, so borderline scores agree.
	if float64(e.sum)/float64(e.n)/2 < b.opt.MinScore/100 {
		return false
	}
	return !(b.opt.Colours == WhiteOnly && !e.white || b.opt.Colours == BlackOnly && e.white)
}
