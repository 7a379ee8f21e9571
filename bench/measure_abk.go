package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/polyproxy/polyproxy/book/abk"
	"github.com/polyproxy/polyproxy/book/formats"
)

// measureABK times opening and probing an ABK book (Arena's format) in
// process: the -book book written as ABK by polyproxy's writer, its whole
// depth. Opening reads the whole tree, replays and keys it, which a
// Polyglot book (the reference column: the same book as .bin) never does.
func (r *runner) measureABK() {
	noABK := errors.New("PolyGlot cannot read ABK books")
	open := &result{ID: "abk-open", Kind: kindTime,
		Title:     "7. open in-process, " + baseName(r.cfg.book) + " as an ABK book (formats.Open + Close)",
		Polyproxy: newSide("polyproxy", ""), PolyGlot: newSide("PolyGlot", noABK.Error()),
		Reference: newSide("the same book as .bin", "")}
	probe := &result{ID: "abk-probe", Kind: kindRate, Item: "probes",
		Title:     "7. probe in-process, " + baseName(r.cfg.book) + " as an ABK book (book.Entries, keys of the book)",
		Polyproxy: newSide("polyproxy", ""), PolyGlot: newSide("PolyGlot", noABK.Error())}
	defer func() {
		for _, res := range []*result{open, probe} {
			res.finish()
			r.add(res)
		}
	}()
	bin, err := formats.Open(r.cfg.book)
	if err != nil {
		failAll(err, open.Polyproxy, open.Reference, probe.Polyproxy)
		return
	}
	path := filepath.Join(r.workdir, "book.abk")
	st, err := abk.Write(path, bin, abk.MaxPly)
	bin.Close()
	if err != nil {
		failAll(err, open.Polyproxy, open.Reference, probe.Polyproxy)
		return
	}
	defer os.Remove(path)
	open.Notes = []string{fmt.Sprintf("%s written by polyproxy's ABK writer: %d records, %d positions; polyproxy's book package compiled into the runner.", r.cfg.book, st.Records, st.Positions)}
	keys, err := sampleKeys(r.cfg.book, 1<<14)
	if err != nil {
		failAll(err, probe.Polyproxy)
	}
	ab, err := formats.Open(path)
	if err != nil {
		failAll(err, open.Polyproxy, probe.Polyproxy)
		return
	}
	defer ab.Close()
	alternate(r.cfg.rounds, []sideRun{
		{open.Polyproxy, openClose(path, 1)},
		{open.Reference, openClose(r.cfg.book, 1)},
		{probe.Polyproxy, probeBatches(ab, keys, 10)},
	})
}
