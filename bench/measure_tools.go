package main

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/book/polyglot"
	"github.com/polyproxy/polyproxy/internal/randgames"
)

// measureMakeBook times make-book on the PGN and on copies of it
// concatenated (pgnCopies, and pgnLargeCopies for the database-sized
// row), with the peak resident memory of each run, and says whether both
// sides wrote the same bytes. polyproxy runs on all cores; the reference
// column is polyproxy -threads 1. On the largest input it also reads the
// same games zstd-compressed.
func (r *runner) measureMakeBook() {
	type input struct{ path, label string }
	inputs := []input{{r.cfg.pgn, baseName(r.cfg.pgn)}}
	var setupErr error
	if _, err := os.Stat(r.cfg.pgn); err != nil {
		setupErr = fmt.Errorf("PGN %s not found (pass -pgn FILE; 8moves_v3.pgn.zip is in https://github.com/official-stockfish/books)", r.cfg.pgn)
	} else {
		for _, n := range []int{r.cfg.pgnCopies, r.cfg.pgnLargeCopies} {
			if n <= 1 {
				continue
			}
			big, err := concatCopies(r.cfg.pgn, n, r.workdir)
			if err != nil {
				setupErr = err
				break
			}
			inputs = append(inputs, input{big, fmt.Sprintf("%d× %s", n, baseName(r.cfg.pgn))})
			defer os.Remove(big)
		}
	}
	for i, in := range inputs {
		r.makeBookInput(fmt.Sprint(i), in.path, in.label, setupErr, i == len(inputs)-1 && i > 0, "")
	}
}

// makeBookInput measures make-book on one PGN: polyproxy on all cores,
// PolyGlot (unless noPolyGlot says why not), polyproxy -threads 1; with
// zstd also on the PGN zstd-compressed.
func (r *runner) makeBookInput(id, pgn, label string, setupErr error, zstd bool, noPolyGlot string) {
	ads := r.adapters()
	timeRes := &result{ID: "makebook-time-" + slug(label), Kind: kindTime,
		Title:     "5. make-book -max-ply 16, wall time: " + label + games(pgn),
		Polyproxy: ads[0].side, PolyGlot: ads[1].side, Reference: newSide("polyproxy -threads 1", r.ppErr)}
	memRes := &result{ID: "makebook-memory-" + slug(label), Kind: kindBytes,
		Title:     "5. make-book -max-ply 16, peak memory: " + label,
		Polyproxy: newSide("polyproxy", r.ppErr), PolyGlot: newSide("PolyGlot", r.pgErr), Reference: newSide("polyproxy -threads 1", r.ppErr)}
	if noPolyGlot != "" {
		failAll(errors.New(noPolyGlot), timeRes.PolyGlot, memRes.PolyGlot)
	}
	if r.gnuTime != "" {
		memRes.Notes = []string{"Peak resident memory as GNU time -v reports it."}
	} else {
		memRes.Notes = []string{"Peak resident memory from wait4's rusage: on Linux it includes the runner's own resident size at the fork when that is larger; install GNU time (/usr/bin/time) for exact figures."}
	}
	if setupErr != nil {
		failAll(setupErr, timeRes.Polyproxy, timeRes.PolyGlot, timeRes.Reference)
	}
	type tool struct {
		side, mem *side
		argv      []string
		out       string
	}
	var tools []tool
	for j, a := range ads {
		if j == 1 && noPolyGlot != "" {
			continue
		}
		out := filepath.Join(r.workdir, fmt.Sprintf("makebook-%s-%s.bin", slug(a.side.Label), id))
		mem := memRes.Polyproxy
		if j == 1 {
			mem = memRes.PolyGlot
		}
		tools = append(tools, tool{a.side, mem, []string{a.bin, "make-book", "-pgn", pgn, "-bin", out, "-max-ply", "16"}, out})
	}
	one := filepath.Join(r.workdir, fmt.Sprintf("makebook-threads1-%s.bin", id))
	tools = append(tools, tool{timeRes.Reference, memRes.Reference, []string{r.ppBin, "make-book", "-threads", "1", "-pgn", pgn, "-bin", one, "-max-ply", "16"}, one})
	var runs []sideRun
	for _, tl := range tools {
		runs = append(runs, r.toolRun(tl.side, tl.mem, tl.argv, tl.out))
	}
	alternate(r.cfg.makeBookRounds, runs)
	for _, tl := range tools {
		if !tl.side.ok() {
			tl.mem.fail(errors.New(tl.side.Error))
		}
	}
	if timeRes.Polyproxy.ok() && timeRes.PolyGlot.ok() {
		timeRes.Notes = append(timeRes.Notes, "Books written: "+sameBytes(tools[0].out, tools[1].out))
	}
	if timeRes.Polyproxy.ok() && timeRes.Reference.ok() {
		timeRes.Notes = append(timeRes.Notes, "polyproxy on all cores and with -threads 1: "+sameBytes(tools[0].out, tools[len(tools)-1].out))
	}
	if zstd && timeRes.Polyproxy.ok() {
		r.add(timeRes, memRes, r.measureZstd(pgn, label, tools[0].out))
	} else {
		r.add(timeRes, memRes)
	}
	for _, tl := range tools {
		os.Remove(tl.out)
	}
	timeRes.finish()
	memRes.finish()
}

// measureMakeBook960 times make-book on chess960Games random Chess960 games
// beside as many random standard games of the same making (internal/
// randgames, seeded: the same bytes every run), polyproxy on all cores and
// with -threads 1; PolyGlot reads the standard ones only.
func (r *runner) measureMakeBook960() {
	n := r.cfg.chess960Games
	for _, in := range []struct {
		name, label string
		o           randgames.Options
		noPolyGlot  string
	}{
		{"random-standard.pgn", commaInt(int64(n)) + " random standard games", randgames.Options{Seed: 1, Games: n, Standard: true}, ""},
		{"random-chess960.pgn", commaInt(int64(n)) + " random Chess960 games", randgames.Options{Seed: 1, Games: n}, "PolyGlot reads no Chess960 games"},
	} {
		path := filepath.Join(r.workdir, in.name)
		err := os.WriteFile(path, []byte(randgames.Chess960PGN(in.o)), 0o644)
		r.makeBookInput(in.name, path, in.label, err, false, in.noPolyGlot)
		os.Remove(path)
	}
}

// toolRun is one side of a make-book measurement: its wall time per run,
// its peak memory into mem.
func (r *runner) toolRun(s, mem *side, argv []string, out string) sideRun {
	return sideRun{s, func(int) ([]float64, error) {
		wall, rss, err := r.runTool(argv, out)
		if err != nil {
			return nil, err
		}
		if rss > 0 {
			mem.Samples = append(mem.Samples, float64(rss))
		} else {
			mem.fail(errors.New("peak memory not reported on this system"))
		}
		return []float64{seconds(wall)}, nil
	}}
}

// measureZstd times polyproxy's make-book on the PGN compressed with zstd
// against the plain PGN (the reference column); PolyGlot reads plain PGN
// only. want is the book from the plain file, to compare.
func (r *runner) measureZstd(pgn, label, want string) *result {
	res := &result{ID: "makebook-time-zstd-" + slug(label), Kind: kindTime,
		Title:     "5. make-book -max-ply 16, wall time: " + label + ".zst (zstd input)",
		Polyproxy: newSide("polyproxy", r.ppErr), PolyGlot: newSide("PolyGlot", "PolyGlot reads plain PGN only"),
		Reference: newSide("polyproxy, the plain PGN", r.ppErr)}
	defer res.finish()
	zst := pgn + ".zst"
	t0 := time.Now()
	if err := zstdFile(pgn, zst); err != nil {
		failAll(err, res.Polyproxy, res.Reference)
		return res
	}
	defer os.Remove(zst)
	r.logf("   compressed %s with zstd in %v", baseName(zst), time.Since(t0).Round(time.Millisecond))
	outZ := filepath.Join(r.workdir, "makebook-zstd.bin")
	outP := filepath.Join(r.workdir, "makebook-plain.bin")
	discard := &side{}
	alternate(r.cfg.makeBookRounds, []sideRun{
		r.toolRun(res.Polyproxy, discard, []string{r.ppBin, "make-book", "-pgn", zst, "-bin", outZ, "-max-ply", "16"}, outZ),
		r.toolRun(res.Reference, discard, []string{r.ppBin, "make-book", "-pgn", pgn, "-bin", outP, "-max-ply", "16"}, outP),
	})
	if res.Polyproxy.ok() {
		res.Notes = append(res.Notes, "Book from the .zst and from the plain file: "+sameBytes(outZ, want))
		if fi, err := os.Stat(zst); err == nil {
			res.Notes = append(res.Notes, fmt.Sprintf("zstd default level: %s bytes compressed.", commaInt(fi.Size())))
		}
	}
	os.Remove(outZ)
	os.Remove(outP)
	return res
}

// zstdFile compresses a file with zstd's default level.
func zstdFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	enc, err := zstd.NewWriter(out)
	if err != nil {
		out.Close()
		return err
	}
	if _, err := io.Copy(enc, in); err != nil {
		enc.Close()
		out.Close()
		return err
	}
	if err := enc.Close(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// runTool runs a book tool to completion with its output discarded and
// returns its wall time and peak memory; it fails unless the tool exits 0
// and wrote out (PolyGlot's make-book exits 0 without a book when it gives
// up on a PGN).
func (r *runner) runTool(argv []string, out string) (time.Duration, int64, error) {
	return r.runToolInput(argv, out, nil)
}

// runToolInput is runTool with stdin (nil: none) as the tool's input.
func (r *runner) runToolInput(argv []string, out string, stdin io.Reader) (time.Duration, int64, error) {
	os.Remove(out)
	name := filepath.Base(argv[0]) + " " + argv[1]
	var timeOut string
	if r.gnuTime != "" {
		// GNU time forks the tool from its own small process, so the peak
		// it reports is the tool's alone (see peakRSS for why ours is not).
		timeOut = filepath.Join(r.workdir, "time.out")
		argv = append([]string{r.gnuTime, "-v", "-o", timeOut}, argv...)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = r.workdir
	errs := &tailBuffer{max: 4096}
	cmd.Stderr = errs
	cmd.Stdout = io.Discard
	cmd.Stdin = stdin
	t0 := time.Now()
	err := cmd.Run()
	wall := time.Since(t0)
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %v: %s", name, err, firstLines(errs.String(), 2))
	}
	if fi, err := os.Stat(out); err != nil || fi.Size() == 0 {
		return 0, 0, fmt.Errorf("%s exited 0 but wrote no book: %s", name, firstLines(errs.String(), 2))
	}
	if timeOut != "" {
		rss, err := gnuTimePeak(timeOut)
		return wall, rss, err
	}
	rss, _ := peakRSS(cmd.ProcessState)
	return wall, rss, nil
}

// findGNUTime returns /usr/bin/time when it is GNU time with -v.
func findGNUTime() string {
	const path = "/usr/bin/time"
	out, err := exec.Command(path, "-v", "true").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "Maximum resident set size") {
		return ""
	}
	return path
}

func gnuTimePeak(report string) (int64, error) {
	b, err := os.ReadFile(report)
	if err != nil {
		return 0, err
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "Maximum resident set size (kbytes):"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil {
				return 0, fmt.Errorf("GNU time report: %v", err)
			}
			return kb * 1024, nil
		}
	}
	return 0, fmt.Errorf("GNU time report without a peak: %s", firstLines(string(b), 2))
}

func sameBytes(a, b string) string {
	ha, sa, errA := hashFile(a)
	hb, sb, errB := hashFile(b)
	switch {
	case errA != nil || errB != nil:
		return "could not compare"
	case ha == hb:
		return fmt.Sprintf("byte-identical (%s bytes)", commaInt(sa))
	}
	return fmt.Sprintf("DIFFERENT (polyproxy %s bytes, PolyGlot %s bytes)", commaInt(sa), commaInt(sb))
}

func hashFile(path string) ([32]byte, int64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return [32]byte{}, 0, err
	}
	return sha256.Sum256(b), int64(len(b)), nil
}

// concatCopies writes n copies of a PGN one after the other (a blank line
// between, so a game never runs into the next copy's first tag).
func concatCopies(path string, n int, dir string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	out := filepath.Join(dir, fmt.Sprintf("%dx-%s", n, baseName(path)))
	b = append(bytes.TrimRight(b, "\r\n"), "\n\n"...)
	return out, os.WriteFile(out, bytes.Repeat(b, n), 0o644)
}

// games counts a PGN's games for the table ("Result" tags: cheap, and
// right for any PGN that make-book can read).
func games(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return fmt.Sprintf(" (%s games)", commaInt(int64(bytes.Count(b, []byte("[Result ")))))
}

// measureProbe builds a book of probeEntries entries and measures probes
// and opening: in-process through the book package (what polyproxy runs;
// PolyGlot has no probe tool or library to call), and side by side over UCI
// (position fen + go → bestmove on positions the book holds).
func (r *runner) measureProbe() {
	n := r.cfg.probeEntries
	size := commaInt(int64(n))
	ads := r.adapters()
	noLibrary := errors.New("PolyGlot has no probe command or library to call; see the UCI rows")
	inProbe := &result{ID: "probe-inprocess", Kind: kindRate, Item: "probes",
		Title:     "6. probe in-process, " + size + "-entry book (book.Entries, random keys in the book)",
		Polyproxy: newSide("polyproxy", ""), PolyGlot: newSide("PolyGlot", noLibrary.Error())}
	inOpen := &result{ID: "open-inprocess", Kind: kindTime,
		Title:     "6. open in-process, " + size + "-entry book (formats.Open + Close)",
		Polyproxy: newSide("polyproxy", ""), PolyGlot: newSide("PolyGlot", noLibrary.Error())}
	uciProbe := &result{ID: "probe-uci", Kind: kindTime,
		Title:     "6. book answer on the " + size + "-entry book: position fen + go → bestmove",
		Polyproxy: ads[0].side, PolyGlot: ads[1].side}
	uciOpen := &result{ID: "open-uci", Kind: kindTime,
		Title:     "6. start → first book bestmove on the " + size + "-entry book (uci, isready, position fen, go)",
		Polyproxy: newSide("polyproxy", r.ppErr), PolyGlot: newSide("PolyGlot", r.pgErr)}
	defer func() {
		for _, res := range []*result{inProbe, inOpen, uciProbe, uciOpen} {
			res.finish()
			r.add(res)
		}
	}()

	path := filepath.Join(r.workdir, fmt.Sprintf("big-%d.bin", n))
	t0 := time.Now()
	positions, err := makeBigBook(path, n, 1)
	if err != nil {
		failAll(fmt.Errorf("generating the book: %w", err), inProbe.Polyproxy, inOpen.Polyproxy, uciProbe.Polyproxy, uciProbe.PolyGlot, uciOpen.Polyproxy, uciOpen.PolyGlot)
		return
	}
	defer os.Remove(path)
	r.logf("   generated %s (%s entries, %d real positions) in %v", path, size, len(positions), time.Since(t0).Round(time.Millisecond))
	inProbe.Notes = []string{fmt.Sprintf("Generated book: %d real positions from random games among random keys, sorted, %d MB, in the page cache (just written); polyproxy's book package compiled into the runner; batches of 1,000 probes.", len(positions), int64(n)*polyglot.EntrySize>>20)}
	r.probeInProcess(path, inProbe.Polyproxy, inOpen.Polyproxy)

	ini, err := r.writeIni(r.engine, path)
	if err == nil && r.engineErr != "" {
		err = errors.New(r.engineErr)
	}
	if err != nil {
		failAll(err, uciProbe.Polyproxy, uciProbe.PolyGlot, uciOpen.Polyproxy, uciOpen.PolyGlot)
		return
	}
	uciProbe.Notes = []string{fmt.Sprintf("Engine %s behind both; %d positions per side per round, each after isready/readyok, each round in new processes; each answer is checked against the book's best move.", r.machine.Engine, uciAnswersPerRound)}
	starts := []*side{uciOpen.Polyproxy, uciOpen.PolyGlot}
	var runs []sideRun
	for i, a := range ads {
		argv := []string{a.bin, ini}
		runs = append(runs,
			sideRun{a.side, r.uciAnswers(a.side.Label, argv, positions)},
			sideRun{starts[i], r.uciFirstAnswer(starts[i].Label, argv, positions)})
	}
	// Order: polyproxy answers, PolyGlot answers, polyproxy start, PolyGlot
	// start, so both kinds alternate A B.
	runs[1], runs[2] = runs[2], runs[1]
	alternate(r.cfg.rounds, runs)
}

// probeInProcess times, in this process, probes of the Polyglot book at
// path (probes) and opening it (opens).
func (r *runner) probeInProcess(path string, probes, opens *side) {
	// Keys to probe, drawn from the file before timing anything.
	keys, err := sampleKeys(path, 1<<16)
	if err != nil {
		failAll(err, probes, opens)
	}
	// One open for all rounds, as the proxy opens its book once: the page
	// faults of the first probes are in the samples, once.
	probed, err := formats.Open(path)
	if err != nil {
		failAll(err, probes, opens)
	} else {
		defer probed.Close()
	}
	alternate(r.cfg.rounds, []sideRun{
		{probes, probeBatches(probed, keys, 100)},
		{opens, openClose(path, 20)},
	})
}

// probeBatch is how many probes one sample of probeBatches times.
const probeBatch = 1000

// probeBatches times probes of b at keys, batches samples a round, each
// the time per probe over a batch of probeBatch keys. A round whose
// probes find nothing fails: the reader or the sample is broken.
func probeBatches(b *book.Book, keys []board.Key, batches int) func(int) ([]float64, error) {
	return func(round int) ([]float64, error) {
		var samples []float64
		found := 0
		for i := range batches {
			batch := keys[(round*batches+i)*probeBatch%len(keys):]
			batch = batch[:min(probeBatch, len(batch))]
			t0 := time.Now()
			for _, k := range batch {
				found += len(b.Entries(k))
			}
			samples = append(samples, seconds(time.Since(t0))/float64(len(batch)))
		}
		if found == 0 {
			return nil, errors.New("no probe found its key: the reader or the sample is broken")
		}
		return samples, nil
	}
}

// openClose times opening and closing the book at path, opens samples a
// round.
func openClose(path string, opens int) func(int) ([]float64, error) {
	return func(int) ([]float64, error) {
		var samples []float64
		for range opens {
			t0 := time.Now()
			b, err := formats.Open(path)
			if err != nil {
				return nil, err
			}
			b.Close()
			samples = append(samples, seconds(time.Since(t0)))
		}
		return samples, nil
	}
}

// uciAnswersPerRound is how many positions uciAnswers asks a round.
const uciAnswersPerRound = 100

// uciAnswers times the book answers of the adapter argv runs at
// positions, after isready each, each round in new processes.
func (r *runner) uciAnswers(name string, argv []string, positions []probePosition) func(int) ([]float64, error) {
	s := &session{r: r, name: name, argv: argv}
	return func(round int) ([]float64, error) {
		p, err := s.get()
		if err != nil {
			return nil, err
		}
		defer s.close() // each round in new processes
		var samples []float64
		for j := range uciAnswersPerRound {
			pp := positions[(round*uciAnswersPerRound+j)%len(positions)]
			d, err := bookAnswerAt(p, pp)
			if err != nil {
				return nil, err
			}
			samples = append(samples, seconds(d))
		}
		return samples, nil
	}
}

// uciFirstAnswer times the adapter argv runs from its start to its first
// book answer, one sample a round.
func (r *runner) uciFirstAnswer(name string, argv []string, positions []probePosition) func(int) ([]float64, error) {
	return func(round int) ([]float64, error) {
		t0 := time.Now()
		p, err := startProc(name, argv, r.workdir)
		if err != nil {
			return nil, err
		}
		defer p.close()
		if err := handshake(p); err != nil {
			return nil, err
		}
		if _, err := bookAnswerAt(p, positions[round%len(positions)]); err != nil {
			return nil, err
		}
		return []float64{seconds(time.Since(t0))}, nil
	}
}

// bookAnswerAt asks for a move at a stored position and checks it is the
// book's best.
func bookAnswerAt(p *proc, pp probePosition) (time.Duration, error) {
	if err := roundTrip(p, "isready", "readyok", answerTimeout); err != nil {
		return 0, err
	}
	t0 := time.Now()
	if err := p.send("position fen "+pp.fen, goCommand); err != nil {
		return 0, err
	}
	l, _, err := p.readUntil("bestmove", answerTimeout)
	d := time.Since(t0)
	if err != nil {
		return 0, err
	}
	if mv := wordAt(l, 1); mv != pp.best {
		return 0, fmt.Errorf("at %s answered %q, want the book's best %s", pp.fen, l, pp.best)
	}
	return d, nil
}

// sampleKeys reads count keys of random entries of a book file with plain
// reads, so the mapping the probes use is not touched before timing.
func sampleKeys(path string, count int) ([]board.Key, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	n := fi.Size() / polyglot.EntrySize
	if n == 0 {
		return nil, fmt.Errorf("%s is empty", path)
	}
	rng := rand.New(rand.NewPCG(2, 2))
	keys := make([]board.Key, count)
	var buf [polyglot.EntrySize]byte
	for i := range keys {
		if _, err := f.ReadAt(buf[:], rng.Int64N(n)*polyglot.EntrySize); err != nil {
			return nil, err
		}
		keys[i] = polyglot.DecodeEntry(buf[:]).Key
	}
	return keys, nil
}

func baseName(p string) string { return filepath.Base(p) }
