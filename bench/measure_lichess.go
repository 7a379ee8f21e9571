package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/polyproxy/polyproxy/book/pgn"
	"github.com/polyproxy/polyproxy/internal/lichessgames"
)

// lichessMaxPly is the book depth of the lichess rows: what book makers
// keep of a database's games (20-40 plies).
const lichessMaxPly = "30"

// measureMakeBookLichess times make-book on lichessGames generated
// lichess-style games (tags, [%clk] and [%eval] comments, openings that
// repeat and middlegames that diverge), polyproxy on all cores against
// PolyGlot, both reading the same bytes through stdin. The games are drawn
// once into memory before the rounds, so neither side waits for the
// generator and no large file is kept.
func (r *runner) measureMakeBookLichess() {
	n := r.cfg.lichessGames
	label := commaInt(int64(n)) + " lichess-style games"
	ads := r.adapters()
	timeRes := &result{ID: "makebook-time-lichess", Kind: kindTime,
		Title:     "5. make-book -max-ply " + lichessMaxPly + ", wall time: " + label + " through stdin",
		Polyproxy: ads[0].side, PolyGlot: ads[1].side}
	memRes := &result{ID: "makebook-memory-lichess", Kind: kindBytes,
		Title:     "5. make-book -max-ply " + lichessMaxPly + ", peak memory: " + label,
		Polyproxy: newSide("polyproxy", r.ppErr), PolyGlot: newSide("PolyGlot", r.pgErr)}
	r.logf("   drawing %d games", n)
	t0 := time.Now()
	var buf bytes.Buffer
	if err := lichessgames.Write(&buf, lichessgames.Options{Seed: 1, Games: n}); err != nil {
		failAll(err, timeRes.Polyproxy, timeRes.PolyGlot)
	}
	text := buf.Bytes()
	plies := countedPlies(text, 30)
	r.logf("   %s of PGN, %d plies to count, drawn in %v", commaInt(int64(len(text))), plies, time.Since(t0).Round(time.Second))
	outs := []string{filepath.Join(r.workdir, "makebook-lichess-polyproxy.bin"), filepath.Join(r.workdir, "makebook-lichess-polyglot.bin")}
	argvs := [][]string{
		{ads[0].bin, "make-book", "-pgn", "-", "-bin", outs[0], "-max-ply", lichessMaxPly, "-q"},
		{ads[1].bin, "make-book", "-pgn", "/dev/stdin", "-bin", outs[1], "-max-ply", lichessMaxPly},
	}
	mems := []*side{memRes.Polyproxy, memRes.PolyGlot}
	var runs []sideRun
	for i, s := range []*side{timeRes.Polyproxy, timeRes.PolyGlot} {
		runs = append(runs, sideRun{s, func(int) ([]float64, error) {
			wall, rss, err := r.runToolInput(argvs[i], outs[i], bytes.NewReader(text))
			if err != nil {
				return nil, err
			}
			if rss > 0 {
				mems[i].Samples = append(mems[i].Samples, float64(rss))
			}
			return []float64{seconds(wall)}, nil
		}})
	}
	alternate(r.cfg.makeBookRounds, runs)
	for i, s := range []*side{timeRes.Polyproxy, timeRes.PolyGlot} {
		if !s.ok() {
			mems[i].fail(errors.New(s.Error))
		}
	}
	timeRes.Notes = append(timeRes.Notes, fmt.Sprintf("%.0f MB of PGN, %s plies within the first %s; PolyGlot reads /dev/stdin.", float64(len(text))/1e6, commaInt(plies), lichessMaxPly))
	if timeRes.Polyproxy.ok() {
		timeRes.Polyproxy.finish()
		med := timeRes.Polyproxy.Summary.Median
		timeRes.Notes = append(timeRes.Notes, fmt.Sprintf("polyproxy: %s games/s, %s plies/s (median run).", commaInt(int64(float64(n)/med)), commaInt(int64(float64(plies)/med))))
	}
	if timeRes.Polyproxy.ok() && timeRes.PolyGlot.ok() {
		timeRes.Notes = append(timeRes.Notes, "Books written: "+sameBytes(outs[0], outs[1]))
	}
	r.add(timeRes, memRes)
	for _, o := range outs {
		os.Remove(o)
	}
	timeRes.finish()
	memRes.finish()
}

// countedPlies is the number of plies make-book -max-ply maxPly counts in
// a PGN text: each game's moves up to maxPly.
func countedPlies(text []byte, maxPly int) int64 {
	rd := pgn.NewReader(bytes.NewReader(text))
	n := int64(0)
	for {
		g, err := rd.Next()
		if err == io.EOF {
			return n
		}
		if err == nil {
			n += int64(min(g.NumMoves(), maxPly))
		}
	}
}

// measureMakeBookBounded runs make-book -memory boundedMemory on
// boundedGames generated games streamed into its stdin as they are drawn
// (far more than fit: the counts go to sorted runs in temporary files),
// reports its peak memory and time, and checks its book against the
// counts recipe on the same games: ten parts counted apart (make-book
// -counts), sum-counts, make-book -from-counts.
func (r *runner) measureMakeBookBounded() {
	n := r.cfg.boundedGames
	label := fmt.Sprintf("%s lichess-style games streamed, -memory %s", commaInt(int64(n)), r.cfg.boundedMemory)
	timeRes := &result{ID: "makebook-time-bounded", Kind: kindTime, Title: "5. make-book, wall time: " + label,
		Polyproxy: newSide("polyproxy", r.ppErr), PolyGlot: newSide("PolyGlot", "not run: PolyGlot holds every position in memory")}
	memRes := &result{ID: "makebook-memory-bounded", Kind: kindBytes, Title: "5. make-book, peak memory: " + label,
		Polyproxy: newSide("polyproxy", r.ppErr), PolyGlot: newSide("PolyGlot", "not run: PolyGlot holds every position in memory")}
	defer func() {
		r.add(timeRes, memRes)
		timeRes.finish()
		memRes.finish()
	}()
	if r.ppErr != "" {
		return
	}
	games := func(first, count int) io.Reader {
		pr, pw := io.Pipe()
		go func() {
			pw.CloseWithError(lichessgames.Write(pw, lichessgames.Options{Seed: 2, First: first, Games: count}))
		}()
		return pr
	}
	out := filepath.Join(r.workdir, "makebook-bounded.bin")
	defer os.Remove(out)
	r.logf("   make-book -memory %s on %d games", r.cfg.boundedMemory, n)
	wall, rss, err := r.runToolInput([]string{r.ppBin, "make-book", "-pgn", "-", "-bin", out, "-memory", r.cfg.boundedMemory, "-tmp", r.workdir, "-q"}, out, games(0, n))
	if err != nil {
		failAll(err, timeRes.Polyproxy, memRes.Polyproxy)
		return
	}
	timeRes.Polyproxy.Samples = []float64{seconds(wall)}
	memRes.Polyproxy.Samples = []float64{float64(rss)}
	timeRes.Notes = append(timeRes.Notes, "One run; the generator draws the games on the same cores as make-book reads them.")

	r.logf("   the counts recipe on the same games")
	const parts = 10
	var counts []string
	for p := range parts {
		first, count := p*n/parts, (p+1)*n/parts-p*n/parts
		c := filepath.Join(r.workdir, fmt.Sprintf("bounded-part%d.counts", p))
		defer os.Remove(c)
		if _, _, err := r.runToolInput([]string{r.ppBin, "make-book", "-pgn", "-", "-counts", c, "-q"}, c, games(first, count)); err != nil {
			memRes.Notes = append(memRes.Notes, "The counts recipe failed: "+err.Error())
			return
		}
		counts = append(counts, c)
	}
	sum := filepath.Join(r.workdir, "bounded-all.counts")
	recipe := filepath.Join(r.workdir, "bounded-recipe.bin")
	defer os.Remove(sum)
	defer os.Remove(recipe)
	steps := [][]string{
		append([]string{r.ppBin, "sum-counts", "-out", sum}, counts...),
		{r.ppBin, "make-book", "-from-counts", sum, "-bin", recipe},
	}
	for _, argv := range steps {
		if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err != nil {
			memRes.Notes = append(memRes.Notes, fmt.Sprintf("The counts recipe failed: %v: %s", err, firstLines(string(out), 2)))
			return
		}
	}
	memRes.Notes = append(memRes.Notes, "The book against the counts recipe on the same games: "+sameBytes(out, recipe))
}
