package build

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"runtime"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/pgn"
	"github.com/polyproxy/polyproxy/book/polyglot"
)

// Colours selects the side-to-move of the entries make-book keeps.
type Colours int

const (
	BothColours Colours = iota
	WhiteOnly
	BlackOnly
)

// Options are make-book's settings, with PolyGlot 2.0.4's meaning for
// the first five; the others default to off.
type Options struct {
	MaxPly   int     // only plies 0..MaxPly-1 of each game count
	MinGame  int     // an entry needs at least this many games
	MinScore float64 // percent: points/games/2 must be at least MinScore/100
	Colours  Colours
	Uniform  bool // weight 1 for every kept entry instead of its points

	// MinShare (percent) drops a move played in fewer than MinShare% of
	// its position's games (the games of all its moves, as counted).
	MinShare float64
	// Filter chooses the games and moves counted.
	Filter GameFilter
	// Threads reads, parses and replays on this many goroutines; 0 or 1
	// reads on the calling one. The book is the same bytes either way.
	Threads int
	// Memory bounds the build's memory in bytes, roughly (the counting,
	// the pieces in flight, the merge); 0 is no bound. A build that needs
	// more writes sorted runs to temporary files in TempDir (the system's
	// temporary folder if empty) and merges them at the end.
	Memory  int64
	TempDir string
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
	Games    int            // games read, skipped and filtered ones included
	Skipped  map[string]int // skipped (broken) games by reason
	Filtered map[string]int // games the filters dropped, by FilterReasons
	Plies    int            // plies added to entries
	// Chess960Games counts the games counted that were Chess960 ones.
	Chess960Games int
	// InnerRookPlies counts plies left out because a castling right
	// belonged to an inner rook: the Polyglot key cannot tell such a
	// position from the one with the outer rook's right.
	InnerRookPlies int
	Positions      int // distinct (position, move) pairs seen
	// Runs and TempBytes are the sorted runs written to temporary files
	// so far and their size (Options.Memory).
	Runs      int
	TempBytes int64
	// Halved counts, in a build that spilled, the positions where a move
	// has 16384 games or more: their totals were halved as FromCounts
	// halves them (known once the book or counts are written).
	Halved int
	// Dropped are the position-moves the move rules left out of the
	// book (known once the book is written).
	Dropped Dropped
}

// Dropped counts the position-moves the move rules left out of a book,
// each under the first rule that refused it, in the order below: so that
// a book much smaller than its games says which rule made it so (-min-game
// 3 on four games keeps one move of 31).
type Dropped struct {
	MinGame  uint64 // played in fewer than MinGame games
	NoPoints uint64 // lost every game it was played in (no points: weight 0)
	MinScore uint64 // scored below MinScore
	Colour   uint64 // the side -only-white or -only-black leaves out
	MinShare uint64 // played in fewer than MinShare percent of its position's games
}

// Total is the position-moves left out.
func (d Dropped) Total() uint64 { return d.MinGame + d.NoPoints + d.MinScore + d.Colour + d.MinShare }

// SkippedTotal is the number of skipped games.
func (s Stats) SkippedTotal() int { return sum(s.Skipped) }

// FilteredTotal is the number of games the filters dropped.
func (s Stats) FilteredTotal() int { return sum(s.Filtered) }

func sum(m map[string]int) int {
	n := 0
	for _, c := range m {
		n += c
	}
	return n
}

// countMax is where PolyGlot halves a position's counts so they fit.
const countMax = 16384

// Builder accumulates games into book entries the way PolyGlot's make-book
// does, so that for any PGN PolyGlot accepts the book is byte-identical,
// in memory bounded by Options.Memory (see the note on counting in
// count.go): a build that outgrows it keeps its counts in temporary files
// and makes the counts recipe's book instead. Close removes those files.
type Builder struct {
	opt   Options
	stats Stats
	count counter

	// Progress, if set, is called every 1024 games read.
	Progress func(Stats)
	// OnSkip, if set, is called for every skipped game, in input order,
	// or for the first SkipLimit if it is positive: with several threads
	// the pieces in flight then hold no more than SkipLimit skipped games
	// each (a file of broken games would otherwise hold one for every few
	// bytes read ahead); Stats counts them all.
	OnSkip    func(SkippedGame)
	SkipLimit int

	parser  gameParser
	skipped int // games skipped so far
}

// NewBuilder starts an empty build.
func NewBuilder(opt Options) *Builder {
	b := &Builder{opt: opt, stats: Stats{Skipped: map[string]int{}, Filtered: map[string]int{}}}
	b.count.init(&b.opt)
	b.parser.opt = &b.opt
	runtime.AddCleanup(b, (*mappings).free, b.count.mem)
	return b
}

// PrepareTemp makes the build's temporary folder now, in Options.TempDir,
// so that an unusable folder is an error before any game is read (a
// build that never spills makes none otherwise).
func (b *Builder) PrepareTemp() error { return b.count.temp.prepare() }

// Close removes the build's temporary files. It may be called from any
// goroutine, also while the build runs (on a signal): the build then
// stops with an error at the next game or position.
func (b *Builder) Close() error { return b.count.temp.remove() }

// Stats reports the counts so far. Positions is exact once the book or
// the counts have been written; before, it counts the pairs merged so far.
func (b *Builder) Stats() Stats {
	s := b.stats
	s.Positions = b.count.positions()
	s.Runs, s.TempBytes = b.count.runInfo()
	s.Halved = b.count.halved
	s.Skipped = maps.Clone(b.stats.Skipped)
	s.Filtered = maps.Clone(b.stats.Filtered)
	return s
}

// AddPGN reads every game of a PGN stream. Broken games are skipped and
// counted; only a read error stops it. source names the stream in reports.
// With Options.Threads > 1 the stream is read in pieces on that many
// goroutines; what is added, and in which order, is the same.
func (b *Builder) AddPGN(r io.Reader, source string) error {
	if b.opt.Threads > 1 {
		return b.addPGNParallel(r, source)
	}
	pr := pgn.NewReader(r)
	pr.MoveLimit = max(b.opt.MaxPly, 1) // the replay reads no further
	for {
		if b.count.temp.stopped.Load() {
			return errRemoved
		}
		g, err := pr.Next()
		if err == io.EOF {
			return nil
		}
		b.stats.Games++
		// A type switch, not errors.As: no allocation per game.
		if syntax, ok := err.(*pgn.SyntaxError); ok {
			b.skip(SkippedGame{source, syntax.GameLine, syntax.Reason(), syntax.Error()})
		} else if err != nil {
			return fmt.Errorf("%s: %w", source, err)
		} else {
			var out gameOutcome
			b.parser.plies, out = b.parser.parse(g, b.parser.plies[:0], source)
			if err := b.addOutcome(out, b.parser.plies); err != nil {
				return err
			}
		}
		if b.Progress != nil && b.stats.Games%1024 == 0 {
			b.Progress(b.Stats())
		}
	}
}

func (b *Builder) skip(s SkippedGame) {
	b.stats.Skipped[s.Reason]++
	b.skipped++
	if b.OnSkip != nil && (b.SkipLimit <= 0 || b.skipped <= b.SkipLimit) {
		b.OnSkip(s)
	}
}

// addOutcome adds one read game's plies, or counts why it gave none.
func (b *Builder) addOutcome(out gameOutcome, plies []ply) error {
	switch {
	case out.skip != nil:
		b.skip(*out.skip)
	case out.filtered != "":
		b.stats.Filtered[out.filtered]++
	default:
		b.stats.InnerRookPlies += out.innerRookPlies
		if out.chess960 {
			b.stats.Chess960Games++
		}
		return b.addPlies(plies)
	}
	return nil
}

func (b *Builder) addPlies(plies []ply) error {
	b.stats.Plies += len(plies)
	return b.count.add(plies)
}

// ply is one counted move of a game: the position's key, the move in
// stored form, the side to move and the game's points for the mover.
type ply struct {
	key    board.Key
	move   board.Move
	white  bool
	points uint8
}

// gameOutcome says why a game gives no plies (skip or filtered), or
// neither.
type gameOutcome struct {
	skip           *SkippedGame
	filtered       string
	chess960       bool
	innerRookPlies int
}

// gameParser turns games into plies; one per goroutine.
type gameParser struct {
	opt    *Options
	plies  []ply
	reader *pgn.Reader // reused for piece after piece
	// keepSkips is how many skipped games a piece keeps whole for OnSkip
	// (none without it, SkipLimit with one); it counts the others.
	keepSkips int
}

// parse replays one game and appends its plies to out; it appends them
// only if every move up to MaxPly is legal, so a broken game leaves no
// trace. Moves after MaxPly are not read, as in PolyGlot.
func (p *gameParser) parse(g *pgn.Game, out []ply, source string) ([]ply, gameOutcome) {
	if g.Result == "" {
		return out, gameOutcome{skip: &SkippedGame{source, g.Line, pgn.SkipNoResult, "no result (1-0, 0-1, 1/2-1/2 or *) after the moves"}}
	}
	white, black := true, true
	if p.opt.filtering() {
		var reason string
		if white, black, reason = p.opt.Filter.apply(g); reason != "" {
			return out, gameOutcome{filtered: reason}
		}
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
	start := len(out)
	innerRook := 0
	record := func(pos *board.Position, m board.Move) {
		w := pos.WhiteToMove()
		if w && !white || !w && !black {
			return
		}
		if pos.InnerRookCastling() {
			innerRook++
			return
		}
		points := 1 + result // from White's view: 2 win, 1 draw, 0 loss
		if !w {
			points = 1 - result
		}
		out = append(out, ply{pos.Key(), pos.ToBook(m), w, uint8(points)})
	}
	// The start tells the variant (the Variant tag, or the FEN's castling
	// rights): read once, for the replay and the count.
	startPos, err := g.Start()
	if err == nil {
		err = g.ReplayPliesFrom(startPos, p.opt.MaxPly, record)
	}
	if skip, ok := err.(*pgn.Skip); ok {
		return out[:start], gameOutcome{skip: &SkippedGame{source, g.Line, skip.Reason, skip.Detail}}
	}
	return out, gameOutcome{chess960: startPos.Chess960(), innerRookPlies: innerRook}
}

// Entries filters and sorts the accumulated entries into a book: an entry
// is kept if it has at least MinGame games, points > 0, a score
// (points/games/2) of at least MinScore percent, the wanted side to move,
// at least MinShare percent of its position's games, and a weight > 0.
// Weight = points (1 with Uniform), learn = 0. Order: key ascending,
// weight descending, ties in order of first appearance. WriteBook writes
// the same entries without holding them.
func (b *Builder) Entries() []book.Entry {
	var out []book.Entry
	if _, err := b.eachEntry(func(e book.Entry) error { out = append(out, e); return nil }); err != nil {
		panic(err) // only a spilled build reads files; Entries is for small ones
	}
	return out
}

// WriteBook writes the book Entries holds to w, streaming, and returns
// the number of moves written (the @PG@ header's entries left out).
func (b *Builder) WriteBook(w io.Writer) (moves int, err error) {
	bw := bufio.NewWriterSize(w, 256<<10)
	var buf [polyglot.EntrySize]byte
	moves, err = b.eachEntry(func(e book.Entry) error {
		polyglot.PutEntry(buf[:], e)
		_, err := bw.Write(buf[:])
		return err
	})
	if err != nil {
		return moves, err
	}
	return moves, bw.Flush()
}

// EachEntry calls fn with the book's entries in order, as WriteBook
// writes them, without holding them, and returns the number of moves (the
// @PG@ header's entries left out).
func (b *Builder) EachEntry(fn func(book.Entry) error) (moves int, err error) { return b.eachEntry(fn) }

// eachEntry calls fn with the book's entries in order: the @PG@ header
// first, then by key. A build that never spilled replays PolyGlot's
// counting exactly; a spilled one makes the book FromCounts makes from
// the same games' counts.
func (b *Builder) eachEntry(fn func(book.Entry) error) (moves int, err error) {
	for _, e := range madeBookHeader(b.variants()) {
		if err := fn(e); err != nil {
			return 0, err
		}
	}
	var entries []book.Entry
	b.stats.Dropped = Dropped{}
	err = b.count.finish(func(_ *CountGroup, counted []aggEntry) error {
		entries = groupEntries(&b.opt, counted, entries[:0], &b.stats.Dropped)
		for _, e := range entries {
			moves++
			if err := fn(e); err != nil {
				return err
			}
		}
		return nil
	})
	return moves, err
}

// variants are the games counted by variant.
func (b *Builder) variants() []VariantGames {
	return variantList(map[string]uint64{
		polyglot.VariantNormal:   uint64(b.gamesCounted() - b.stats.Chess960Games),
		polyglot.VariantChess960: uint64(b.stats.Chess960Games),
	})
}

// gamesCounted is the number of games whose plies were counted.
func (b *Builder) gamesCounted() int {
	return b.stats.Games - b.stats.SkippedTotal() - b.stats.FilteredTotal()
}

// keepEntry applies make-book's filters to one entry's counts (weight > 0
// follows from points > 0), counting in d what it leaves out.
func keepEntry(opt *Options, games, points uint64, white bool, d *Dropped) bool {
	switch {
	case games < uint64(max(opt.MinGame, 0)):
		d.MinGame++
	case points == 0:
		d.NoPoints++
	// The same double arithmetic as PolyGlot, so borderline scores agree.
	case float64(points)/float64(games)/2 < opt.MinScore/100:
		d.MinScore++
	case opt.Colours == WhiteOnly && !white || opt.Colours == BlackOnly && white:
		d.Colour++
	default:
		return true
	}
	return false
}

// keepShare applies MinShare: the move's games against its position's.
func keepShare(opt *Options, games, positionGames uint64) bool {
	return opt.MinShare <= 0 || float64(games)*100 >= opt.MinShare*float64(positionGames)
}
