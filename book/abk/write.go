package abk

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
)

// MaxPly is the deepest max ply an ABK book's settings can hold.
const MaxPly = 9999

// WriteSettings are the settings Write gives a book: the weight from
// the games alone, as they are (games importance 3), and a move of fewer
// games than one SyntheticUnit never played: a reader applying Arena's
// settings plays each move in proportion to its games, whose units Write
// makes the source's chances, and never a move the source never plays,
// whatever games are learned into it.
func WriteSettings(maxPly int) Settings {
	return Settings{MinGames: SyntheticUnit, GamesImportance: 3, MaxPly: int32(maxPly)}
}

// DefaultWriteThreshold is the BookTreshold (per mille) whose chances
// Format writes: the proxy's default.
const DefaultWriteThreshold = 5

// WriteStats is what Write wrote.
type WriteStats struct {
	Records   int // move records
	Positions int // positions given their moves
	// Transposed counts positions reached again by another move order:
	// their moves are written once, under the first (shortest) line.
	Transposed int
	// BookPositions is the positions of the source book; those no line of
	// book moves from the start position reaches within the max ply are
	// not in the tree.
	BookPositions int
	// Scaled counts the moves whose learned games, more than a record
	// holds beside its chance (SyntheticUnit-1), were scaled down to it
	// with their points.
	Scaled int
}

// node is a position of the tree being written and the record whose
// next-move pointer leads to its moves.
type node struct {
	pos    *board.Position
	ply    int
	parent int  // index into the records, -1 for the start position
	played bool // every move of its line has a chance: a reader plays it
}

// Write writes src as an ABK book at path (as a batch of one: all or
// nothing), keeping the chances of src under the proxy's default
// threshold (WriteTo).
func Write(path string, src *book.Book, maxPly int) (WriteStats, error) {
	var b book.Batch
	defer b.Abort()
	st, err := WriteTo(&b, path, src, maxPly, DefaultWriteThreshold)
	if err != nil {
		return st, err
	}
	return st, b.Commit()
}

// Keeping is the format writing books that keep the chances of their
// source under a threshold of thresholdPerMille (WriteTo).
func (format) Keeping(thresholdPerMille int) book.Format { return format{thresholdPerMille} }

// Write writes src as an ABK book at path into the batch b, as WriteTo
// does under the format's threshold, and says what the tree holds
// (book.Writer): a Polyglot book is a table of positions, an ABK book a
// tree from the start position, so what no line of book moves reaches is
// left out. maxPly above MaxPly is MaxPly.
func (f format) Write(b *book.Batch, path string, src *book.Book, maxPly int) (book.Written, error) {
	maxPly = min(maxPly, MaxPly)
	st, err := WriteTo(b, path, src, maxPly, f.threshold)
	if err != nil {
		return book.Written{}, err
	}
	w := book.Written{Count: fmt.Sprintf("%d ABK records", st.Records),
		Said: fmt.Sprintf("ABK book %s: %d records, %d positions to ply %d; each move's games are its chance (threshold %d per mille) in units of %d, marked as no games played, and its learned games", path, st.Records, st.Positions, maxPly, f.threshold, SyntheticUnit)}
	if st.Transposed > 0 {
		w.Said += fmt.Sprintf("; %d positions reached again by another move order have their moves under their first line only", st.Transposed)
	}
	if off := st.BookPositions - st.Positions; off > 0 {
		w.Warnings = append(w.Warnings, fmt.Sprintf("%d of the book's %d positions are not on the ABK tree: no line of book moves from the start position reaches them within %d plies (ABK holds lines from the start position only)", off, st.BookPositions, maxPly))
	}
	if st.Scaled > 0 {
		w.Warnings = append(w.Warnings, fmt.Sprintf("%d moves had learned more than %d games, all a record holds beside its chance: their games and points are scaled down to it", st.Scaled, SyntheticUnit-1))
	}
	return w, nil
}

// WriteTo writes src as an ABK book at path into the batch b; it is put
// in place by b's Commit, with the batch's other files. The tree grows
// from the start position through src's legal moves, breadth first, to
// positions maxPly plies deep (1 to MaxPly). ABK is a tree and Polyglot a
// table of positions: a position reached again by another move order is
// not expanded a second time (a cycle or the transpositions of a big book
// would multiply the tree), so its moves hang under one line only, the
// shortest a game plays (every move with a chance), else the shortest;
// polyproxy finds them from any move order, Arena follows that line.
//
// The book plays as src does: each move's chance in src under the
// threshold (book.Chooser.Decide, weighted) becomes its games in units of
// SyntheticUnit, the likeliest move 65535 units and the others in
// proportion (at least 1), and the settings weigh by games alone
// (WriteSettings), so Arena's weighting (as DroidFish implements it) gives
// each move its chance again, to a 65535th. A move src never plays there
// (weight 0, below the threshold) has no units: listed, never played, as
// the settings' minimum games leave it out. Below the units lie the games
// of the source's learn field, with its points split into as many draws
// as they allow (3 games of 4 points: a win and two draws), so learned
// results survive the conversion and learning goes on counting there; the
// header says that the units are no games played (SyntheticGames). A
// record's priority, which the settings leave out, shows the chance to
// Arena's user: 9 for the likeliest move, in proportion down to 1, 0 for a
// move never played.
func WriteTo(b *book.Batch, path string, src *book.Book, maxPly, thresholdPerMille int) (WriteStats, error) {
	var st WriteStats
	if maxPly < 1 || maxPly > MaxPly {
		return st, fmt.Errorf("write ABK book %s: max ply %d is outside 1-%d", path, maxPly, MaxPly)
	}
	records, st, err := treeOf(src, maxPly, thresholdPerMille)
	if err != nil {
		return st, fmt.Errorf("write ABK book %s: %w", path, err)
	}
	err = b.WriteFileFrom(path, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 256<<10)
		header := make([]byte, HeaderSize)
		WriteSettings(maxPly).Encode(header)
		copy(header[syntheticMarkOffset:], syntheticMark)
		bw.Write(header)
		var buf [RecordSize]byte
		for _, r := range records {
			r.Encode(buf[:])
			bw.Write(buf[:])
		}
		if err := bw.Flush(); err != nil { // a failed Write fails Flush too
			return fmt.Errorf("write ABK book %s: %w", path, err)
		}
		return nil
	})
	return st, err
}

// bookPositions counts the positions (distinct keys) of src.
func bookPositions(src *book.Book) (int, error) {
	n := 0
	var prev board.Key
	for i := 0; i < src.Len(); i++ {
		if k := src.Entry(i).Key; k != 0 && (n == 0 || k != prev) {
			n++
			prev = k
		}
	}
	return n, src.Err()
}

// treeMoveOut is a move of a position being written: as played, its
// chance in the source (its entries' added), and the learn field of its
// first entry.
type treeMoveOut struct {
	played board.Move
	chance float64
	learn  book.Learn
}

// movesAt are the moves of pos in src, each once, the likeliest first,
// with their chances under chooser's threshold.
func movesAt(chooser *book.Chooser, shelf *book.Shelf, pos *board.Position, out []treeMoveOut) []treeMoveOut {
	out = out[:0]
	d := chooser.Decide(shelf, book.At(pos))
	for _, cd := range d.Candidates {
		if !cd.Legal {
			continue
		}
		i := slices.IndexFunc(out, func(m treeMoveOut) bool { return m.played == cd.Move })
		if i < 0 { // e1h1 and e1g1 play one move
			i = len(out)
			out = append(out, treeMoveOut{played: cd.Move, learn: cd.Entry.Learn})
		}
		out[i].chance += cd.Chance
	}
	slices.SortStableFunc(out, func(x, y treeMoveOut) int { return cmp.Compare(y.chance, x.chance) })
	return out
}

// treeOf lays out the tree of src's moves from the start position: a
// position's moves consecutive, as a sibling chain, in the order of the
// breadth-first walk. The first record is record 900.
func treeOf(src *book.Book, maxPly, thresholdPerMille int) ([]Record, WriteStats, error) {
	var st WriteStats
	var err error
	if st.BookPositions, err = bookPositions(src); err != nil {
		return nil, st, err
	}
	chooser := book.NewChooser(book.Options{Mode: book.Weighted, ThresholdPerMille: thresholdPerMille}, 1)
	shelf := book.Both(src)
	var records []Record
	expanded := map[board.Key]bool{}
	// The lines a game plays first, breadth first; then the others.
	queue := []node{{board.StartPosition(), 0, -1, true}}
	var later []node
	var moves []treeMoveOut
	var chances []float64
	var games []uint16
	for len(queue) > 0 || len(later) > 0 {
		if len(queue) == 0 {
			queue, later = later, nil
		}
		n := queue[0]
		queue = queue[1:]
		key := n.pos.Key()
		if expanded[key] {
			st.Transposed++
			continue
		}
		expanded[key] = true
		if n.ply >= maxPly {
			continue
		}
		if moves = movesAt(chooser, shelf, n.pos, moves); len(moves) == 0 {
			continue
		}
		chances = chances[:0]
		for _, m := range moves {
			chances = append(chances, m.chance)
		}
		games = book.ScaleWeights(games[:0], chances)
		st.Positions++
		first := len(records)
		if n.parent >= 0 {
			records[n.parent].Next = int32(FirstRecord + first)
		}
		white := n.pos.WhiteToMove()
		for i, m := range moves {
			r := recordFor(m.played, games[i], m.learn, white, &st)
			if i < len(moves)-1 {
				r.Sibling = int32(FirstRecord + first + i + 1)
			}
			records = append(records, r)
			next := node{n.pos.Next(m.played), n.ply + 1, first + i, n.played && games[i] > 0}
			if next.played {
				queue = append(queue, next)
			} else {
				later = append(later, next)
			}
		}
		if len(records)+FirstRecord > math.MaxInt32/RecordSize {
			return nil, st, fmt.Errorf("more than %d records: too big for an ABK book (lower the max ply)", len(records))
		}
	}
	st.Records = len(records)
	return records, st, nil
}

// recordFor is the record of a move played (Next and Sibling left -1) by
// White (white) or Black, of chance units (see WriteTo) and learned
// results learn.
func recordFor(played board.Move, units uint16, learn book.Learn, white bool, st *WriteStats) Record {
	r := Record{From: played.From(), To: played.To(), Promo: promoCode(played.Promo(), white), Next: -1, Sibling: -1}
	if units > 0 {
		r.Priority = int8(max(1, math.Round(9*float64(units)/65535)))
	}
	games, points := int32(learn.Games()), int32(learn.Points())
	if games > SyntheticUnit-1 {
		st.Scaled++
		points = int32(int64(points) * (SyntheticUnit - 1) / int64(games))
		games = SyntheticUnit - 1
	}
	won := min(max(points-games, 0), games) // as many draws as the points allow
	drawn := min(points-2*won, games-won)
	lost := games - won - drawn
	r.Games = int32(units)*SyntheticUnit + games
	if white {
		r.Wins, r.Losses = won, lost
	} else {
		r.Wins, r.Losses = lost, won
	}
	return r
}
