package main

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/ctg"
	"github.com/polyproxy/polyproxy/book/ctg/testdata/ctgwrite"
	"github.com/polyproxy/polyproxy/book/formats"
)

// ctgMaxPly is the depth of the CTG book the bench makes of -pgn.
const ctgMaxPly = 30

// measureCTG times a CTG book (ChessBase's format) in process beside a
// Polyglot book of the same positions: the games of -pgn written as a CTG
// book by the tests' writer (polyproxy writes none), and that book
// converted to .bin as convert-book converts it. A CTG book is found a
// position at a time: opening reads its bounds, a probe the page of the
// position and those of the positions its moves lead to (the weights are
// the scores from there), where a .bin book is mapped and binary-searched.
func (r *runner) measureCTG() {
	noCTG := errors.New("PolyGlot cannot read CTG books")
	label := baseName(r.cfg.pgn) + " to ply " + fmt.Sprint(ctgMaxPly)
	open := &result{ID: "ctg-open", Kind: kindTime,
		Title:     "8. open and answer one position in-process, " + label + " as a CTG book (formats.Open, Chooser.Choose, Close)",
		Polyproxy: newSide("polyproxy", ""), PolyGlot: newSide("PolyGlot", noCTG.Error()),
		Reference: newSide("the same positions as .bin", "")}
	probe := &result{ID: "ctg-probe", Kind: kindRate, Item: "answers",
		Title:     "8. answer in-process, " + label + " as a CTG book (Chooser.Choose at positions of the book)",
		Polyproxy: newSide("polyproxy", ""), PolyGlot: newSide("PolyGlot", noCTG.Error()),
		Reference: newSide("the same positions as .bin", "")}
	sides := []*side{open.Polyproxy, open.Reference, probe.Polyproxy, probe.Reference}
	defer func() {
		for _, res := range []*result{open, probe} {
			res.finish()
			r.add(res)
		}
	}()
	f, err := os.Open(r.cfg.pgn)
	if err != nil {
		failAll(err, sides...)
		return
	}
	ctgPath := filepath.Join(r.workdir, "bench.ctg")
	st, err := ctgwrite.FromGames(f, ctgMaxPly, ctgPath)
	f.Close()
	if err != nil {
		failAll(err, sides...)
		return
	}
	defer func() {
		a, b, c := ctg.Paths(ctgPath)
		os.Remove(a)
		os.Remove(b)
		os.Remove(c)
	}()
	whole, err := formats.OpenWhole(ctgPath, formats.Options{}, 0)
	if err != nil {
		failAll(err, sides...)
		return
	}
	binPath := filepath.Join(r.workdir, "bench-ctg.bin")
	entries := make([]book.Entry, whole.Len())
	for i := range entries {
		entries[i] = whole.Entry(i)
	}
	walk := ctg.InfoOf(whole).Walk
	whole.Close()
	if err := book.WriteFile(binPath, entries); err != nil {
		failAll(err, sides...)
		return
	}
	defer os.Remove(binPath)
	positions, err := samplePositions(ctgPath, 1<<12)
	if err != nil {
		failAll(err, sides...)
		return
	}
	size := func(p string) int64 {
		fi, err := os.Stat(p)
		if err != nil {
			return 0
		}
		return fi.Size()
	}
	open.Notes = []string{fmt.Sprintf("%s: %d games to ply %d written as a CTG book by the tests' writer (book/ctg/testdata/ctgwrite): %d positions in %d pages (%.1f MB), each in the page its hash names first; as .bin (its walk from the start position, %d positions, %d unreached) %d entries (%.1f MB). The position answered is one of %d of the book's positions drawn at random; BookRandom=false.",
		r.cfg.pgn, st.Games, ctgMaxPly, st.Positions, st.Pages, float64(size(ctgPath))/1e6, walk.Positions, walk.Unreached, len(entries), float64(size(binPath))/1e6, len(positions))}
	best := book.NewChooser(book.Options{Mode: book.Best, ThresholdPerMille: 5}, 1)
	best.Explain(false) // the proxy's choice with its log off
	answer := func(b *book.Book, pos *board.Position) error {
		if _, ok, _ := best.Choose([]*book.Book{b}, pos, nil, nil); !ok {
			return fmt.Errorf("%s: no move at %s", b.Path(), pos.FEN())
		}
		return nil
	}
	openAnswer := func(p string) func(int) ([]float64, error) {
		return func(round int) ([]float64, error) {
			var samples []float64
			for i := range 10 {
				pos := positions[(round*10+i)%len(positions)]
				t0 := time.Now()
				b, err := formats.Open(p)
				if err != nil {
					return nil, err
				}
				err = answer(b, pos)
				b.Close()
				if err != nil {
					return nil, err
				}
				samples = append(samples, seconds(time.Since(t0)))
			}
			return samples, nil
		}
	}
	const batch = 500
	answers := func(p string) func(int) ([]float64, error) {
		return func(round int) ([]float64, error) {
			b, err := formats.Open(p)
			if err != nil {
				return nil, err
			}
			defer b.Close()
			var samples []float64
			for i := range 4 {
				first := (round*4 + i) * batch % len(positions)
				t0 := time.Now()
				for _, pos := range positions[first:min(first+batch, len(positions))] {
					if err := answer(b, pos); err != nil {
						return nil, err
					}
				}
				samples = append(samples, seconds(time.Since(t0))/float64(min(batch, len(positions)-first)))
			}
			return samples, nil
		}
	}
	alternate(r.cfg.rounds, []sideRun{
		{open.Polyproxy, openAnswer(ctgPath)},
		{open.Reference, openAnswer(binPath)},
		{probe.Polyproxy, answers(ctgPath)},
		{probe.Reference, answers(binPath)},
	})
}

// samplePositions draws up to count positions of the CTG book at path
// that have a move to play, seeded: the positions of its walk from the
// start position.
func samplePositions(path string, count int) ([]*board.Position, error) {
	r, err := ctg.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var all []*board.Position
	_, err = r.Walk(board.StartPosition(), ctgMaxPly, ctg.Options{}, func(p *board.Position, _ int, e *ctg.Position) error {
		for _, m := range e.Moves {
			if m.Weight > 0 {
				all = append(all, p)
				break
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(all) == 0 {
		return nil, errors.New("the CTG book has no position with a move")
	}
	rng := rand.New(rand.NewPCG(8, 8))
	rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	return all[:min(count, len(all))], nil
}
