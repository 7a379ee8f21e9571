package build

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sync"

	"github.com/polyproxy/polyproxy/book/pgn"
)

// pieceSize is the PGN text one goroutine parses at a time: big enough
// that handing pieces around costs nothing next to parsing them (about
// 500 games), small enough that the pieces in flight stay a few MB (1 MB
// pieces measured no faster and 10 MB more peak memory). With many
// threads the pieces are smaller (piecesInFlight).
var pieceSize = 128 << 10

// piecesInFlight bounds the text of the pieces in flight, about 3 a
// thread: at 8 threads and more the pieces shrink to stay within it, so
// memory does not grow with -threads.
const piecesInFlight = 12 << 20

// piece is one part of the stream on its way through the pipeline.
type piece struct {
	pgn.Piece
	buf  *[]byte          // the text's buffer, recycled once added
	done chan pieceResult // the parse, filled by a worker
}

// pieceResult is what a piece gives: its games' plies in order and, in
// order too, the skipped games (past the parser's keepSkips, only their
// number by reason in skippedOver); filtered games by reason.
type pieceResult struct {
	games       int
	plies       []ply
	skips       []SkippedGame
	skippedOver map[string]int
	filtered    [len(FilterReasons)]int
	// chess960Games and innerRookPlies add to the Stats fields.
	chess960Games, innerRookPlies int
	torn                          bool
	err                           error
}

// filterIndex numbers FilterReasons for pieceResult.filtered (a filtered
// game is rare enough that a look through five is nothing).
func filterIndex(reason string) int {
	i := slices.Index(FilterReasons[:], reason)
	if i < 0 {
		panic("not a filter reason: " + reason)
	}
	return i
}

// plyBufs recycles the plies of added pieces.
var plyBufs = sync.Pool{New: func() any { return []ply(nil) }}

// addPGNParallel is AddPGN on Threads goroutines. One goroutine cuts the
// stream into pieces at game starts (pgn.Splitter), Threads goroutines
// parse and replay pieces into plies, and this one adds the pieces' plies
// in stream order, exactly as the one-goroutine AddPGN adds the games: the
// order of first appearance and PolyGlot's halving, which depend on the
// order, are the same. A piece whose end the splitter guessed wrong (the
// chunk reader says it is torn), or where it found no game start in a
// whole piece (a huge comment or game), is read again here, on into the
// pieces after it one at a time, game by game, until a piece ends where a
// game starts, so even odd PGN gives the same games in bounded memory.
// Memory: the pieces in flight, about 3 × Threads pieces.
func (b *Builder) addPGNParallel(r io.Reader, source string) error {
	threads := b.opt.Threads
	size := max(min(pieceSize, piecesInFlight/(3*threads)), 1)
	work := make(chan *piece, threads)
	ordered := make(chan *piece, 2*threads)
	quit := make(chan struct{})
	var splitErr error
	sp := pgn.NewSplitter(r, size)
	bufs := sync.Pool{New: func() any { b := make([]byte, 0, sp.MaxPiece()); return &b }}

	go func() { // the splitter: reads, decompresses, cuts
		defer close(work)
		defer close(ordered)
		for {
			buf := bufs.Get().(*[]byte)
			p, err := sp.Next(*buf)
			if err != nil {
				if err != io.EOF {
					splitErr = err
				}
				return
			}
			*buf = p.Text[:0]
			pc := &piece{Piece: p, buf: buf, done: make(chan pieceResult, 1)}
			select {
			case ordered <- pc:
			case <-quit:
				return
			}
			select {
			case work <- pc:
			case <-quit:
				return
			}
		}
	}()
	moveLimit := max(b.opt.MaxPly, 1) // the replay reads no further
	keepSkips := math.MaxInt
	switch {
	case b.OnSkip == nil:
		keepSkips = 0
	case b.SkipLimit > 0:
		keepSkips = b.SkipLimit
	}
	var wg sync.WaitGroup
	for range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			parser := gameParser{opt: &b.opt, reader: &pgn.Reader{MoveLimit: moveLimit}, keepSkips: keepSkips}
			for pc := range work {
				pc.done <- parser.parsePiece(pc.Piece, source, nil)
			}
		}()
	}
	defer func() {
		close(quit)
		for range ordered { // let the splitter and workers finish
		}
		wg.Wait()
	}()

	// The reader of torn pieces goes on into the next pieces itself; it
	// holds one at a time.
	var held *piece
	parser := gameParser{opt: &b.opt, reader: &pgn.Reader{MoveLimit: moveLimit, Continue: func() (pgn.Piece, bool) {
		next, ok := <-ordered
		if !ok {
			return pgn.Piece{}, false
		}
		res := <-next.done // not used, but the worker must be done with the text
		plyBufs.Put(res.plies[:0])
		bufs.Put(held.buf)
		held = next
		return next.Piece, true
	}}, keepSkips: keepSkips}
	for pc := range ordered {
		res := <-pc.done
		if res.torn {
			plyBufs.Put(res.plies[:0])
			held = pc
			res = parser.parsePiece(pc.Piece, source, b.addPiece)
			pc = held
		}
		bufs.Put(pc.buf)
		if err := b.addPiece(&res); err != nil {
			return err
		}
	}
	if splitErr != nil {
		return fmt.Errorf("%s: %w", source, splitErr)
	}
	return nil
}

// addPiece adds a parsed piece's games, as AddPGN adds them one by one.
func (b *Builder) addPiece(res *pieceResult) error {
	if b.count.temp.stopped.Load() {
		return errRemoved
	}
	before := b.stats.Games
	b.stats.Games += res.games
	if err := b.addPlies(res.plies); err != nil {
		return err
	}
	b.stats.Chess960Games += res.chess960Games
	b.stats.InnerRookPlies += res.innerRookPlies
	plyBufs.Put(res.plies[:0])
	for _, s := range res.skips {
		b.skip(s)
	}
	for reason, n := range res.skippedOver {
		b.stats.Skipped[reason] += n
		b.skipped += n
	}
	for i, n := range res.filtered {
		if n > 0 {
			b.stats.Filtered[FilterReasons[i]] += n
		}
	}
	if b.Progress != nil && before/1024 != b.stats.Games/1024 {
		b.Progress(b.Stats())
	}
	if res.err != nil {
		return res.err
	}
	return nil
}

// parsePiece parses and replays the games of one piece; with add, each
// game as it is read is given to add (a reader going on into the pieces
// after it, Continue, may read any number of games), and what is left
// returned.
func (p *gameParser) parsePiece(pc pgn.Piece, source string, add func(*pieceResult) error) pieceResult {
	res := pieceResult{plies: plyBufs.Get().([]ply)[:0]}
	pr := p.reader
	pr.ResetChunk(pc)
	for {
		g, err := pr.Next()
		if err == io.EOF {
			res.torn = pr.Torn()
			return res
		}
		res.games++
		if syntax, ok := err.(*pgn.SyntaxError); ok {
			p.skip(&res, SkippedGame{source, syntax.GameLine, syntax.Reason(), syntax.Error()})
		} else if err != nil {
			res.games--
			res.err = fmt.Errorf("%s: %w", source, err)
			return res
		} else {
			var out gameOutcome
			res.plies, out = p.parse(g, res.plies, source)
			switch {
			case out.skip != nil:
				p.skip(&res, *out.skip)
			case out.filtered != "":
				res.filtered[filterIndex(out.filtered)]++
			default:
				res.innerRookPlies += out.innerRookPlies
				if out.chess960 {
					res.chess960Games++
				}
			}
		}
		if add != nil {
			if err := add(&res); err != nil {
				return pieceResult{err: err}
			}
			res = pieceResult{plies: plyBufs.Get().([]ply)[:0]}
		}
	}
}

// skip records a skipped game of the piece: whole up to keepSkips, then
// counted. A skipped game past a piece's first SkipLimit cannot be among
// the stream's first SkipLimit, the only ones OnSkip is given.
func (p *gameParser) skip(res *pieceResult, s SkippedGame) {
	if len(res.skips) < p.keepSkips {
		res.skips = append(res.skips, s)
		return
	}
	if res.skippedOver == nil {
		res.skippedOver = map[string]int{}
	}
	res.skippedOver[s.Reason]++
}
