package build

import (
	"fmt"
	"io"
	"maps"
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
	// Totals also keeps every entry's full games and points (no halving),
	// for Counts.
	Totals bool
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
}

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

// buildEntry accumulates one (position, move): n games, sum points (2 per
// win, 1 per draw, from the mover's view). 16 bytes, so a build's memory is
// about 16 bytes per distinct pair plus the hash table's 8-16.
type buildEntry struct {
	key   book.Key
	move  book.Move // stored form (castling king-to-rook)
	n     uint16
	sum   uint16
	white bool
}

// total is an entry's full count, never halved (Options.Totals).
type total struct{ games, points uint64 }

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
	totals [][]total // parallel to chunks with Options.Totals
	count  int
	// table is an open-addressing hash on the key alone (linear probing):
	// all moves of one key lie on one probe run, which is what halving
	// needs. A slot holds the entry's index+1 (0 = empty) in its low 32
	// bits and the move and 16 bits of the key above, so a probe compares
	// without reading the entry. A map[struct{Key;Move}] would cost more
	// memory and give no way to visit a key's moves.
	table []uint64
	stats Stats

	// Progress, if set, is called every 1024 games read.
	Progress func(Stats)
	// OnSkip, if set, is called for every skipped game, in input order.
	OnSkip func(SkippedGame)

	parser gameParser
}

// NewBuilder starts an empty build.
func NewBuilder(opt Options) *Builder {
	b := &Builder{opt: opt, stats: Stats{Skipped: map[string]int{}, Filtered: map[string]int{}}, table: make([]uint64, 1<<12)}
	b.parser.opt = &b.opt
	return b
}

// Stats reports the counts so far.
func (b *Builder) Stats() Stats {
	s := b.stats
	s.Positions = b.count
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
	for {
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
			b.addOutcome(out, b.parser.plies)
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

// addOutcome adds one read game's plies, or counts why it gave none.
func (b *Builder) addOutcome(out gameOutcome, plies []ply) {
	switch {
	case out.skip != nil:
		b.skip(*out.skip)
	case out.filtered != "":
		b.stats.Filtered[out.filtered]++
	default:
		b.addPlies(plies)
		b.stats.InnerRookPlies += out.innerRookPlies
		if out.chess960 {
			b.stats.Chess960Games++
		}
	}
}

func (b *Builder) addPlies(plies []ply) {
	for _, p := range plies {
		b.add(p.key, p.move, p.white, int(p.points))
	}
	b.stats.Plies += len(plies)
}

// ply is one counted move of a game: the position's key, the move in
// stored form, the side to move and the game's points for the mover.
type ply struct {
	key    book.Key
	move   book.Move
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
}

// parse replays one game and appends its plies to out; it appends them
// only if every move up to MaxPly is legal, so a broken game leaves no
// trace. Moves after MaxPly are not read, as in PolyGlot.
func (p *gameParser) parse(g *pgn.Game, out []ply, source string) ([]ply, gameOutcome) {
	if g.Result == "" {
		return out, gameOutcome{skip: &SkippedGame{source, g.Line, pgn.SkipNoResult, "no result (1-0, 0-1, 1/2-1/2 or *) after the moves"}}
	}
	white, black := true, true
	if p.opt.Filter.active() {
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
	record := func(pos *board.Position, m book.Move) {
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

const chunkBits = 12

// entry returns the entry with index i (0-based, order of first appearance).
func (b *Builder) entry(i int) *buildEntry { return &b.chunks[i>>chunkBits][i&(1<<chunkBits-1)] }

func (b *Builder) slot(k book.Key) int { return int(uint64(k)>>20) & (len(b.table) - 1) }

// tag is what a table slot holds besides the index: the move and the
// key's low 16 bits (the slot comes from higher bits).
func tag(k book.Key, m book.Move) uint64 { return uint64(m)<<32 | uint64(uint16(k))<<48 }

const tagMask = uint64(0xffffffff00000000)

// add counts one game for (key, move).
func (b *Builder) add(k book.Key, m book.Move, white bool, points int) {
	mask := len(b.table) - 1
	t := tag(k, m)
	i := b.slot(k)
	for {
		w := b.table[i]
		if w == 0 {
			break
		}
		if w&tagMask == t {
			idx := int(uint32(w)) - 1
			if e := b.entry(idx); e.key == k {
				b.tally(e, idx, points)
				return
			}
		}
		i = (i + 1) & mask
	}
	if b.count&(1<<chunkBits-1) == 0 {
		b.chunks = append(b.chunks, make([]buildEntry, 1<<chunkBits))
		if b.opt.Totals {
			b.totals = append(b.totals, make([]total, 1<<chunkBits))
		}
	}
	idx := b.count
	e := b.entry(idx)
	*e = buildEntry{key: k, move: m, white: white}
	b.count++
	b.table[i] = t | uint64(b.count)
	if 4*b.count > 3*len(b.table) {
		b.grow()
	}
	b.tally(e, idx, points)
}

func (b *Builder) tally(e *buildEntry, idx, points int) {
	if b.totals != nil {
		t := &b.totals[idx>>chunkBits][idx&(1<<chunkBits-1)]
		t.games++
		t.points += uint64(points)
	}
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
		if e := b.entry(int(uint32(b.table[i])) - 1); e.key == k {
			e.n = (e.n + 1) / 2
			e.sum = (e.sum + 1) / 2
		}
	}
}

func (b *Builder) grow() {
	b.table = make([]uint64, 2*len(b.table))
	mask := len(b.table) - 1
	for idx := 0; idx < b.count; idx++ {
		e := b.entry(idx)
		i := b.slot(e.key)
		for b.table[i] != 0 {
			i = (i + 1) & mask
		}
		b.table[i] = tag(e.key, e.move) | uint64(idx+1)
	}
}

// Entries filters and sorts the accumulated entries into a book: an entry
// is kept if it has at least MinGame games, points > 0, a score
// (points/games/2) of at least MinScore percent, the wanted side to move,
// at least MinShare percent of its position's games, and a weight > 0.
// Weight = points (1 with Uniform), learn = 0. Order: key ascending,
// weight descending, ties in order of first appearance.
func (b *Builder) Entries() []book.Entry {
	var positionGames map[book.Key]int
	if b.opt.MinShare > 0 {
		positionGames = make(map[book.Key]int)
		for i := 0; i < b.count; i++ {
			e := b.entry(i)
			positionGames[e.key] += int(e.n)
		}
	}
	keep := func(e *buildEntry) bool {
		if !keepEntry(&b.opt, uint64(e.n), uint64(e.sum), e.white) {
			return false
		}
		return positionGames == nil || keepShare(&b.opt, uint64(e.n), uint64(positionGames[e.key]))
	}
	kept := 0
	for i := 0; i < b.count; i++ {
		if keep(b.entry(i)) {
			kept++
		}
	}
	out := make([]book.Entry, 0, kept)
	for i := 0; i < b.count; i++ {
		e := b.entry(i)
		if !keep(e) {
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
	if h := madeBookHeader(b.variants()); h != nil {
		out = append(h, out...)
	}
	return out
}

// variants are the games counted by variant.
func (b *Builder) variants() []VariantGames {
	return variantList(map[string]uint64{
		book.VariantNormal:   uint64(b.gamesCounted() - b.stats.Chess960Games),
		book.VariantChess960: uint64(b.stats.Chess960Games),
	})
}

// gamesCounted is the number of games whose plies were counted.
func (b *Builder) gamesCounted() int {
	return b.stats.Games - b.stats.SkippedTotal() - b.stats.FilteredTotal()
}

// keepEntry applies make-book's filters to one entry's counts (weight > 0
// follows from points > 0).
func keepEntry(opt *Options, games, points uint64, white bool) bool {
	if games < uint64(max(opt.MinGame, 0)) || points == 0 {
		return false
	}
	// The same double arithmetic as PolyGlot, so borderline scores agree.
	if float64(points)/float64(games)/2 < opt.MinScore/100 {
		return false
	}
	return !(opt.Colours == WhiteOnly && !white || opt.Colours == BlackOnly && white)
}

// keepShare applies MinShare: the move's games against its position's.
func keepShare(opt *Options, games, positionGames uint64) bool {
	return opt.MinShare <= 0 || float64(games)*100 >= opt.MinShare*float64(positionGames)
}
