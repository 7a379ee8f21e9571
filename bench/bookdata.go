package main

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/book/polyglot"
)

// bookPly is one position of a book line: the moves that lead to it, and
// every legal move with a weight the book holds there (as played, e1g1).
type bookPly struct {
	moves     []string
	bookMoves map[string]bool
}

// walkBookLine follows the highest-weight legal book move from the start
// position for plies plies: a line a GUI could play entirely from the book.
func walkBookLine(path string, plies int) ([]bookPly, error) {
	b, err := formats.Open(path)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	line, err := board.NewLine("startpos")
	if err != nil {
		return nil, err
	}
	best := book.NewChooser(book.Options{Mode: book.Best, ThresholdPerMille: 5}, 1)
	var out []bookPly
	var moves []string
	for ply := 0; ply < plies; ply++ {
		d := best.Choose(book.Both(b), book.Game{Line: line})
		choice, ok := d.Move()
		if !ok {
			return nil, fmt.Errorf("the highest-weight line of %s leaves the book after %d plies (%s): %s; need %d", path, ply, strings.Join(moves, " "), d.Reason, plies)
		}
		set := map[string]bool{}
		for _, c := range best.Candidates(b, &line.Pos, nil) {
			if c.Legal && c.Weight > 0 {
				set[c.Move.String()] = true
			}
		}
		out = append(out, bookPly{moves: slices.Clone(moves), bookMoves: set})
		if _, err := line.Play(choice.Move); err != nil {
			return nil, err
		}
		moves = append(moves, choice.Move.String())
	}
	return out, nil
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
	seen := map[board.Key]bool{}
	const realPositions = 2000
	for len(probes) < realPositions {
		line, err := board.NewLine("startpos")
		if err != nil {
			return nil, err
		}
		depth := 1 + rng.IntN(40)
		for i := 0; i < depth && line != nil; i++ {
			legal := legalMoves(line)
			if len(legal) == 0 {
				line = nil
				break
			}
			if _, err := line.Play(legal[rng.IntN(len(legal))]); err != nil {
				return nil, err
			}
		}
		if line == nil {
			continue
		}
		legal := legalMoves(line)
		key := line.Pos.Key()
		if len(legal) == 0 || seen[key] {
			continue
		}
		seen[key] = true
		pp := probePosition{fen: line.Pos.FEN(), all: map[string]bool{}}
		// Up to three moves with distinct weights: the best is unambiguous.
		perm := rng.Perm(len(legal))
		for j := 0; j < 3 && j < len(legal); j++ {
			mv := legal[perm[j]]
			entries = append(entries, book.Entry{Key: key, Move: line.Pos.ToBook(mv), Weight: uint16(3000 - 1000*j)})
			if j == 0 {
				pp.best = mv.String()
			}
			pp.all[mv.String()] = true
		}
		probes = append(probes, pp)
	}
	for len(entries) < n {
		k := board.Key(rng.Uint64())
		if k == 0 || seen[k] {
			continue
		}
		from, to := board.Square(rng.IntN(64)), board.Square(rng.IntN(64))
		if from == to {
			continue
		}
		entries = append(entries, book.Entry{Key: k, Move: board.NewMove(from, to, board.NoPromo), Weight: uint16(1 + rng.IntN(65535))})
	}
	slices.SortFunc(entries, book.CompareEntries)
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var buf [polyglot.EntrySize]byte
	for _, e := range entries {
		polyglot.PutEntry(buf[:], e)
		w.Write(buf[:])
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return nil, err
	}
	return probes, f.Close()
}

// legalMoves lists the line's legal moves (played form, e1g1), sorted so
// that a seed always picks the same ones.
func legalMoves(line *board.Line) []board.Move {
	out := line.Pos.LegalMoves()
	slices.Sort(out)
	return out
}
