package main

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"

	"github.com/notnil/chess"
	"github.com/polyproxy/polyproxy/book"
)

// bookPly is one position of a book line: the moves that lead to it, and
// every legal move the book holds there (as played, e1g1 for castling).
type bookPly struct {
	moves     []string
	bookMoves map[string]bool
}

// legalBookMoves returns the book's legal, non-zero-weight moves at pos as
// played, highest weight first (ties in file order).
func legalBookMoves(b *book.Book, pos *chess.Position) []string {
	bp := book.FromChess(pos)
	entries := b.Entries(bp.Key())
	slices.SortStableFunc(entries, func(x, y book.Entry) int { return int(y.Weight) - int(x.Weight) })
	legal := map[string]bool{}
	for _, m := range pos.ValidMoves() {
		legal[m.String()] = true
	}
	var out []string
	for _, e := range entries {
		if mv := bp.ToPlayed(e.Move).String(); e.Weight > 0 && legal[mv] {
			out = append(out, mv)
		}
	}
	return out
}

// walkBookLine follows the highest-weight legal book move from the start
// position for plies plies: a line a GUI could play entirely from the book.
func walkBookLine(path string, plies int) ([]bookPly, error) {
	b, err := book.Open(path)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	pos := chess.StartingPosition()
	var line []bookPly
	var moves []string
	for ply := 0; ply < plies; ply++ {
		cands := legalBookMoves(b, pos)
		if len(cands) == 0 {
			return nil, fmt.Errorf("%s: the highest-weight line leaves the book after %d plies (%s); need %d", path, ply, strings.Join(moves, " "), plies)
		}
		set := map[string]bool{}
		for _, c := range cands {
			set[c] = true
		}
		line = append(line, bookPly{moves: slices.Clone(moves), bookMoves: set})
		pos = playUCI(pos, cands[0])
		moves = append(moves, cands[0])
	}
	return line, nil
}

// playUCI applies a move given in UCI form, taking it from ValidMoves so
// the new position knows about check (Position.Update trusts the move's
// tags). It returns nil for a move that is not legal.
func playUCI(pos *chess.Position, uci string) *chess.Position {
	for _, m := range pos.ValidMoves() {
		if m.String() == uci {
			return pos.Update(m)
		}
	}
	return nil
}

// probePosition is a real position stored in the generated big book, with
// the move a best-move adapter must answer there.
type probePosition struct {
	fen  string
	best string
	all  map[string]bool
}

// makeBigBook writes a book of exactly n entries to path: a few thousand
// real positions reached by random legal games (so adapters can be asked
// about them over UCI) hidden among random keys with random moves (only the
// file's size and shape matter for those). Deterministic for a seed.
func makeBigBook(path string, n int, seed uint64) ([]probePosition, error) {
	rng := rand.New(rand.NewPCG(seed, 0x62656e6368))
	var entries []book.Entry
	var probes []probePosition
	seen := map[book.Key]bool{}
	const realPositions = 2000
	for len(probes) < realPositions {
		pos := chess.StartingPosition()
		depth := 1 + rng.IntN(40)
		for i := 0; i < depth && pos != nil; i++ {
			valid := pos.ValidMoves()
			if len(valid) == 0 {
				pos = nil
				break
			}
			pos = pos.Update(valid[rng.IntN(len(valid))])
		}
		if pos == nil {
			continue
		}
		valid := pos.ValidMoves()
		bp := book.FromChess(pos)
		if len(valid) == 0 || seen[bp.Key()] {
			continue
		}
		seen[bp.Key()] = true
		pp := probePosition{fen: uciFEN(pos, bp), all: map[string]bool{}}
		// Up to three moves with distinct weights: the best is unambiguous.
		perm := rng.Perm(len(valid))
		for j := 0; j < 3 && j < len(valid); j++ {
			mv := valid[perm[j]]
			played, err := book.ParseMove(mv.String())
			if err != nil {
				return nil, err
			}
			entries = append(entries, book.Entry{Key: bp.Key(), Move: bp.ToBook(played), Weight: uint16(3000 - 1000*j)})
			if j == 0 {
				pp.best = mv.String()
			}
			pp.all[mv.String()] = true
		}
		probes = append(probes, pp)
	}
	for len(entries) < n {
		k := book.Key(rng.Uint64())
		if k == 0 || seen[k] {
			continue
		}
		from, to := book.Square(rng.IntN(64)), book.Square(rng.IntN(64))
		if from == to {
			continue
		}
		entries = append(entries, book.Entry{Key: k, Move: book.NewMove(from, to, book.NoPromo), Weight: uint16(1 + rng.IntN(65535))})
	}
	slices.SortFunc(entries, func(x, y book.Entry) int {
		switch {
		case x.Key < y.Key:
			return -1
		case x.Key > y.Key:
			return 1
		}
		return int(y.Weight) - int(x.Weight)
	})
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var buf [book.EntrySize]byte
	for _, e := range entries {
		e.Encode(buf[:])
		w.Write(buf[:])
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return nil, err
	}
	return probes, f.Close()
}

// uciFEN is pos's FEN with the en-passant square only where Polyglot's key
// counts it (a pawn of the side to move beside the pushed pawn). notnil/chess
// writes it after every double push; PolyGlot would then hash a different key
// and miss the book, which would measure a search, not a probe.
func uciFEN(pos *chess.Position, bp *book.Position) string {
	f := strings.Fields(pos.String())
	if len(f) == 6 && bp.EnPassantFile() < 0 {
		f[3] = "-"
	}
	return strings.Join(f, " ")
}
