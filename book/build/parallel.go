package build

import (
	"fmt"
	"io"
	"sync"

	"github.com/polyproxy/polyproxy/book/pgn"
)

// pieceSize is the PGN text one goroutine parses at a time: big enough
// that handing pieces around costs nothing next to parsing them (about
// 500 games), small enough that the pieces in flight stay a few MB (1 MB
// pieces measured no faster and 10 MB more peak memory).
var pieceSize = 128 << 10

// piece is one part of the stream on its way through the pipeline.
type piece struct {
	pgn.Piece
	buf  *[]byte          // the text's buffer, recycled once added
	done chan pieceResult // the parse, filled by a worker
}

// pieceResult is what a piece gives: its games' plies in order and, in
// order too, the skipped games; filtered games by reason.
type pieceResult struct {
	games    int
	plies    []ply
	skips    []SkippedGame
	filtered [numFilterReasons]int
	// chess960Games and innerRookPlies add to the Stats fields.
	chess960Games, innerRookPlies int
	torn                          bool
	err                           error
}

const numFilterReasons = 5

// filterIndex numbers FilterReasons for pieceResult.filtered.
var filterIndex = func() map[string]int {
	if len(FilterReasons) != numFilterReasons {
		panic("numFilterReasons is out of date")
	}
	m := map[string]int{}
	for i, r := range FilterReasons {
		m[r] = i
	}
	return m
}()

// plyBufs recycles the plies of added pieces.
var plyBufs = sync.Pool{New: func() any { return []ply(nil) }}

// addPGNParallel is AddPGN on Threads goroutines. One goroutine cuts the
// stream into pieces at game starts (pgn.Splitter), Threads goroutines
// parse and replay pieces into plies, and this one adds the pieces' plies
// in stream order, exactly as the one-goroutine AddPGN adds the games: the
// order of first appearance and PolyGlot's halving, which depend on the
// order, are the same. A piece whose end the splitter guessed wrong (the
// chunk reader says it is torn) is parsed again joined with the next one,
// so even odd PGN gives the same games. Memory: the pieces in flight,
// about 3 × Threads pieces.
func (b *Builder) addPGNParallel(r io.Reader, source string) error {
	threads := b.opt.Threads
	work := make(chan *piece, threads)
	ordered := make(chan *piece, 2*threads)
	quit := make(chan struct{})
	var splitErr error
	bufs := sync.Pool{New: func() any { b := make([]byte, 0, pieceSize+pieceSize/4); return &b }}

	go func() { // the splitter: reads, decompresses, cuts
		defer close(work)
		defer close(ordered)
		sp := pgn.NewSplitter(r, pieceSize)
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
	var wg sync.WaitGroup
	for range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			parser := gameParser{opt: &b.opt, reader: &pgn.Reader{MoveLimit: max(b.opt.MaxPly, 1)}}
			for pc := range work {
				pc.done <- parser.parsePiece(pc.Piece, source)
			}
		}()
	}
	defer func() {
		close(quit)
		for range ordered { // let the splitter and workers finish
		}
		wg.Wait()
	}()

	parser := gameParser{opt: &b.opt, reader: &pgn.Reader{MoveLimit: max(b.opt.MaxPly, 1)}}
	var joined []byte // a torn piece's text, waiting for the next
	joinedLine := 0
	for pc := range ordered {
		res := <-pc.done
		if joined != nil || res.torn && !pc.Last {
			if joined == nil {
				joinedLine = pc.Line
			}
			joined = append(joined, pc.Text...)
			bufs.Put(pc.buf)
			if res = parser.parsePiece(pgn.Piece{Text: joined, Line: joinedLine, Last: pc.Last}, source); res.torn && !pc.Last {
				continue // torn again: join the next one too
			}
			joined = nil
		} else {
			bufs.Put(pc.buf)
		}
		if err := b.addPiece(&res); err != nil {
			return err
		}
	}
	if joined != nil && splitErr == nil {
		// The stream ended after a torn piece that was not the last: a
		// read error, since the splitter marks the end.
		splitErr = io.ErrUnexpectedEOF
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

// parsePiece parses and replays the games of one piece.
func (p *gameParser) parsePiece(pc pgn.Piece, source string) pieceResult {
	res := pieceResult{plies: plyBufs.Get().([]ply)[:0]}
	pr := p.reader
	pr.ResetChunk(pc.Text, pc.Line, pc.Last)
	for {
		g, err := pr.Next()
		if err == io.EOF {
			res.torn = pr.Torn()
			return res
		}
		res.games++
		if syntax, ok := err.(*pgn.SyntaxError); ok {
			res.skips = append(res.skips, SkippedGame{source, syntax.GameLine, syntax.Reason(), syntax.Error()})
			continue
		} else if err != nil {
			res.games--
			res.err = fmt.Errorf("%s: %w", source, err)
			return res
		}
		var out gameOutcome
		res.plies, out = p.parse(g, res.plies, source)
		switch {
		case out.skip != nil:
			res.skips = append(res.skips, *out.skip)
		case out.filtered != "":
			res.filtered[filterIndex[out.filtered]]++
		default:
			res.innerRookPlies += out.innerRookPlies
			if out.chess960 {
				res.chess960Games++
			}
		}
	}
}
