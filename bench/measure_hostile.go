package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/polyproxy/polyproxy/internal/hostilepgn"
)

// hostileThreads are the -threads of the hostile-input rows: one reader,
// the pieces read in parallel on this machine's cores, and more threads
// than cores (more pieces in flight).
var hostileThreads = []int{1, 2, 8}

// measureMakeBookHostile measures make-book's peak memory at -memory
// hostileMemory on inputs shaped to break a reader that holds what it
// reads (internal/hostilepgn: a huge comment over many lines, over lines
// that look like tags, on one line; a very long game; very many one-ply
// games), for each of hostileThreads, beside PolyGlot on the same file,
// and says whether every book is PolyGlot's bytes.
func (r *runner) measureMakeBookHostile() {
	for _, shape := range hostilepgn.Shapes {
		size, label := r.hostileSize(shape)
		path := filepath.Join(r.workdir, "hostile-"+string(shape)+".pgn")
		err := writeHostile(path, hostilepgn.Options{Shape: shape, Size: size, Seed: 1})
		r.makeBookHostile(shape, path, label, err)
		os.Remove(path)
	}
}

// hostileSize is the size of a shape's hostile part and its label.
func (r *runner) hostileSize(shape hostilepgn.Shape) (int64, string) {
	switch shape {
	case hostilepgn.LongGame:
		n := int64(r.cfg.hostilePlies)
		return n, "a " + commaInt(n) + "-ply game"
	case hostilepgn.OnePlyGames:
		n := int64(r.cfg.hostileGames)
		return n, commaInt(n) + " one-ply games"
	case hostilepgn.BrokenGames:
		n := int64(r.cfg.hostileGames)
		return n, commaInt(n) + " broken games"
	}
	n := r.cfg.hostileComment
	what := map[hostilepgn.Shape]string{
		hostilepgn.CommentLines:    "over lines",
		hostilepgn.CommentTagLines: "over lines, every 50th like a tag",
		hostilepgn.CommentOneLine:  "on one line",
	}[shape]
	return n, fmt.Sprintf("a %d MB comment %s", n>>20, what)
}

func writeHostile(path string, o hostilepgn.Options) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := hostilepgn.Write(f, o); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// makeBookHostile measures one input: a row per thread count, PolyGlot's
// peak on the same file beside each.
func (r *runner) makeBookHostile(shape hostilepgn.Shape, path, label string, setupErr error) {
	pg := newSide("PolyGlot", r.pgErr)
	pgOut := filepath.Join(r.workdir, "hostile-polyglot.bin")
	runs := []sideRun{r.peakRun(pg, []string{r.pgBin, "make-book", "-pgn", path, "-bin", pgOut, "-min-game", "1"}, pgOut)}
	var rows []*result
	var outs []string
	for _, threads := range hostileThreads {
		t := strconv.Itoa(threads)
		res := &result{ID: "makebook-hostile-" + string(shape) + "-threads" + t, Kind: kindBytes,
			Title:     fmt.Sprintf("5. make-book -memory %s -threads %s, peak memory: %s", r.cfg.hostileMemory, t, label),
			Polyproxy: newSide("polyproxy", r.ppErr), PolyGlot: newSide("PolyGlot", r.pgErr)}
		out := filepath.Join(r.workdir, "hostile-polyproxy-"+t+".bin")
		argv := []string{r.ppBin, "make-book", "-pgn", path, "-bin", out, "-min-game", "1", "-memory", r.cfg.hostileMemory, "-threads", t, "-tmp", r.workdir, "-q"}
		runs = append(runs, r.peakRun(res.Polyproxy, argv, out))
		rows = append(rows, res)
		outs = append(outs, out)
	}
	if setupErr != nil {
		failAll(setupErr, pg)
		for _, res := range rows {
			failAll(setupErr, res.Polyproxy)
		}
	}
	alternate(r.cfg.makeBookRounds, runs)
	for i, res := range rows {
		if pg.ok() {
			res.PolyGlot.Samples = pg.Samples
		} else {
			res.PolyGlot.fail(errors.New(pg.Error))
		}
		if res.Polyproxy.ok() && pg.ok() {
			res.Notes = append(res.Notes, "Book against PolyGlot's: "+sameBytes(outs[i], pgOut))
		}
		if i > 0 && res.Polyproxy.ok() && rows[0].Polyproxy.ok() {
			res.Notes = append(res.Notes, "Book against -threads 1's: "+sameBytes(outs[i], outs[0]))
		}
		r.add(res)
		res.finish()
	}
	for _, o := range append(outs, pgOut) {
		os.Remove(o)
	}
}

// peakRun is a side whose samples are a tool's peak memory, run by run.
func (r *runner) peakRun(mem *side, argv []string, out string) sideRun {
	return sideRun{mem, func(int) ([]float64, error) {
		_, rss, err := r.runTool(argv, out)
		if err != nil {
			return nil, err
		}
		if rss <= 0 {
			return nil, errors.New("peak memory not reported on this system")
		}
		return []float64{float64(rss)}, nil
	}}
}
