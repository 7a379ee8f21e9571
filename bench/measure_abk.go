package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

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
	openTime := func(p string) func(int) ([]float64, error) {
		return func(int) ([]float64, error) {
			t0 := time.Now()
			b, err := formats.Open(p)
			if err != nil {
				return nil, err
			}
			b.Close()
			return []float64{seconds(time.Since(t0))}, nil
		}
	}
	const probeBatch = 1000
	alternate(r.cfg.rounds, []sideRun{
		{open.Polyproxy, openTime(path)},
		{open.Reference, openTime(r.cfg.book)},
		{probe.Polyproxy, func(round int) ([]float64, error) {
			var samples []float64
			found := 0
			for i := range 10 {
				batch := keys[(round*10+i)*probeBatch%len(keys):]
				batch = batch[:min(probeBatch, len(batch))]
				t0 := time.Now()
				for _, k := range batch {
					found += len(ab.Entries(k))
				}
				samples = append(samples, seconds(time.Since(t0))/float64(len(batch)))
			}
			if found == 0 {
				return nil, errors.New("no probe found its key: the reader or the sample is broken")
			}
			return samples, nil
		}},
	})
}
