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
	"github.com/polyproxy/polyproxy/book/polyglot"
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
	books, err := r.makeCTGBooks()
	if err != nil {
		failAll(err, sides...)
		return
	}
	defer books.remove()
	positions, err := samplePositions(books.ctg, 1<<12)
	if err != nil {
		failAll(err, sides...)
		return
	}
	open.Notes = []string{fmt.Sprintf("%s: %d games to ply %d written as a CTG book by the tests' writer (book/ctg/testdata/ctgwrite): %d positions in %d pages (%.1f MB), each in the page its hash names first; as .bin (its walk from the start position, %d positions, %d unreached) %d entries (%.1f MB). The position answered is one of %d of the book's positions drawn at random; BookRandom=false.",
		r.cfg.pgn, books.made.Games, ctgMaxPly, books.made.Positions, books.made.Pages, float64(fileSize(books.ctg))/1e6, books.walk.Positions, books.walk.Unreached, books.entries, float64(fileSize(books.bin))/1e6, len(positions))}
	best := book.NewChooser(book.Options{Mode: book.Best, ThresholdPerMille: 5}, 1)
	best.Explain(false) // the proxy's choice with its log off
	a := ctgAnswers{positions: positions, chooser: best}
	alternate(r.cfg.rounds, []sideRun{
		{open.Polyproxy, a.openAndAnswer(books.ctg)},
		{open.Reference, a.openAndAnswer(books.bin)},
		{probe.Polyproxy, a.inBatches(books.ctg)},
		{probe.Reference, a.inBatches(books.bin)},
	})
}

// ctgBooks are the books measureCTG compares: -pgn written as a CTG book,
// and that book read whole and written as .bin.
type ctgBooks struct {
	ctg, bin string
	made     ctgwrite.FromGamesStats // what writing the CTG book found
	walk     *ctg.WalkInfo           // what reading it whole found
	entries  int                     // in the .bin book
}

// makeCTGBooks writes the books in the work folder; on an error it leaves
// none of them.
func (r *runner) makeCTGBooks() (ctgBooks, error) {
	books := ctgBooks{ctg: filepath.Join(r.workdir, "bench.ctg"), bin: filepath.Join(r.workdir, "bench-ctg.bin")}
	f, err := os.Open(r.cfg.pgn)
	if err != nil {
		return books, err
	}
	books.made, err = ctgwrite.FromGames(f, ctgMaxPly, books.ctg)
	f.Close()
	if err != nil {
		return books, err
	}
	whole, err := formats.OpenWhole(books.ctg, formats.Options{}, 0)
	if err != nil {
		books.removeCTG()
		return books, err
	}
	entries := make([]book.Entry, whole.Len())
	for i := range entries {
		entries[i] = whole.Entry(i)
	}
	books.walk, books.entries = ctg.InfoOf(whole).Walk, len(entries)
	whole.Close()
	if err := polyglot.WriteFile(books.bin, entries); err != nil {
		books.removeCTG()
		return books, err
	}
	return books, nil
}

func (b ctgBooks) remove() {
	os.Remove(b.bin)
	b.removeCTG()
}

// removeCTG removes the CTG book's three files.
func (b ctgBooks) removeCTG() {
	ctgPath, ctbPath, ctoPath := ctg.Paths(b.ctg)
	os.Remove(ctgPath)
	os.Remove(ctbPath)
	os.Remove(ctoPath)
}

// fileSize is the size of the file at path, 0 when it cannot be read.
func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// ctgAnswers times book answers at positions drawn from a book, chosen as
// the proxy chooses them.
type ctgAnswers struct {
	positions []*board.Position
	chooser   *book.Chooser
}

func (a ctgAnswers) answer(b *book.Book, pos *board.Position) error {
	if d := a.chooser.Choose(book.Both(b), book.At(pos)); d.Chosen < 0 {
		return fmt.Errorf("%s: no move at %s", b.Path(), pos.FEN())
	}
	return nil
}

// openAndAnswer times opening the book at path, answering one position
// and closing it, ten samples a round.
func (a ctgAnswers) openAndAnswer(path string) func(int) ([]float64, error) {
	return func(round int) ([]float64, error) {
		var samples []float64
		for i := range 10 {
			pos := a.positions[(round*10+i)%len(a.positions)]
			t0 := time.Now()
			b, err := formats.Open(path)
			if err != nil {
				return nil, err
			}
			err = a.answer(b, pos)
			b.Close()
			if err != nil {
				return nil, err
			}
			samples = append(samples, seconds(time.Since(t0)))
		}
		return samples, nil
	}
}

// ctgAnswerBatch is how many positions one sample of inBatches answers.
const ctgAnswerBatch = 500

// inBatches times answers from the book at path opened once: four
// samples a round, each the time per answer over a batch of positions.
func (a ctgAnswers) inBatches(path string) func(int) ([]float64, error) {
	return func(round int) ([]float64, error) {
		b, err := formats.Open(path)
		if err != nil {
			return nil, err
		}
		defer b.Close()
		var samples []float64
		for i := range 4 {
			first := (round*4 + i) * ctgAnswerBatch % len(a.positions)
			t0 := time.Now()
			for _, pos := range a.positions[first:min(first+ctgAnswerBatch, len(a.positions))] {
				if err := a.answer(b, pos); err != nil {
					return nil, err
				}
			}
			samples = append(samples, seconds(time.Since(t0))/float64(min(ctgAnswerBatch, len(a.positions)-first)))
		}
		return samples, nil
	}
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
