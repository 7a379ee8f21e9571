package main

import (
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

const (
	handshakeTimeout = 30 * time.Second
	answerTimeout    = 10 * time.Second
	// goCommand is what a GUI sends for a game at one minute each: an
	// engine that searched instead of using the book would think for
	// seconds, which the book-move check below reports.
	goCommand = "go wtime 60000 btime 60000 winc 600 binc 600"
)

// adapter is one of the two sides being compared.
type adapter struct {
	side *side
	bin  string
}

// adapters returns polyproxy and PolyGlot, each n/a when it cannot run,
// in the order they alternate.
func (r *runner) adapters() []adapter {
	pp := adapter{newSide("polyproxy", r.ppErr), r.ppBin}
	pg := adapter{newSide("PolyGlot", r.pgErr), r.pgBin}
	return []adapter{pp, pg}
}

// startUCI starts argv and completes the UCI handshake (uci → uciok,
// isready → readyok).
func (r *runner) startUCI(name string, argv []string) (*proc, error) {
	p, err := startProc(name, argv, r.workdir)
	if err != nil {
		return nil, err
	}
	if err := handshake(p); err != nil {
		p.kill()
		return nil, err
	}
	return p, nil
}

func handshake(p *proc) error {
	if err := p.send("uci"); err != nil {
		return err
	}
	if _, _, err := p.readUntil("uciok", handshakeTimeout); err != nil {
		return err
	}
	return roundTrip(p, "isready", "readyok", handshakeTimeout)
}

func roundTrip(p *proc, cmd, answer string, timeout time.Duration) error {
	if err := p.send(cmd); err != nil {
		return err
	}
	_, _, err := p.readUntil(answer, timeout)
	return err
}

// session is a process started on first use, so its start-up cost stays
// out of the samples; each round closes it, and the next starts a new one.
type session struct {
	r    *runner
	name string
	argv []string
	p    *proc
}

func (s *session) get() (*proc, error) {
	if s.p == nil {
		p, err := s.r.startUCI(s.name, s.argv)
		if err != nil {
			return nil, err
		}
		s.p = p
	}
	return s.p, nil
}

func (s *session) close() {
	if s.p != nil {
		s.p.close()
		s.p = nil
	}
}

func failAll(err error, sides ...*side) {
	for _, s := range sides {
		if s != nil {
			s.fail(err)
		}
	}
}

// measureBookAnswer plays a 20-ply book line as a GUI does: isready, wait
// for readyok, then a position line one ply longer than the last and go;
// the sample is the client's time from writing position to reading
// bestmove. Every answer must be a book move, or the side is n/a.
func (r *runner) measureBookAnswer() {
	const plies, linesPerRound = 20, 5
	ads := r.adapters()
	res := &result{ID: "book-answer", Kind: kindTime,
		Title:     fmt.Sprintf("1. book answer: position (+1 ply) + go → bestmove, %d-ply line of %s", plies, baseName(r.cfg.book)),
		Polyproxy: ads[0].side, PolyGlot: ads[1].side,
		Notes: []string{fmt.Sprintf("Engine %s behind both adapters, BookRandom=false; the line follows the book's highest-weight move; each sample is one go, after isready/readyok; every bestmove is checked to be a book move; %d lines per side per round, each round in new processes.", r.machine.Engine, linesPerRound)}}
	defer func() { res.finish(); r.add(res) }()
	if r.engineErr != "" {
		failAll(errors.New(r.engineErr), res.Polyproxy, res.PolyGlot)
		return
	}
	line, err := walkBookLine(r.cfg.book, plies)
	if err != nil {
		failAll(err, res.Polyproxy, res.PolyGlot)
		return
	}
	last := line[len(line)-1]
	res.Notes = append(res.Notes, fmt.Sprintf("The line: %s, then one of the book's moves.", strings.Join(last.moves, " ")))
	ini, err := r.writeIni(r.engine, r.cfg.book)
	if err != nil {
		failAll(err, res.Polyproxy, res.PolyGlot)
		return
	}
	var runs []sideRun
	for _, a := range ads {
		s := &session{r: r, name: a.side.Label, argv: []string{a.bin, ini}}
		runs = append(runs, sideRun{a.side, func(int) ([]float64, error) {
			p, err := s.get()
			if err != nil {
				return nil, err
			}
			defer s.close() // each round in new processes, as for the relay
			var samples []float64
			for range linesPerRound {
				got, err := playBookLine(p, line)
				if err != nil {
					return nil, err
				}
				samples = append(samples, got...)
			}
			return samples, nil
		}})
	}
	alternate(r.cfg.rounds, runs)
}

func playBookLine(p *proc, line []bookPly) ([]float64, error) {
	if err := p.send("ucinewgame"); err != nil {
		return nil, err
	}
	samples := make([]float64, 0, len(line))
	for i, ply := range line {
		if err := roundTrip(p, "isready", "readyok", answerTimeout); err != nil {
			return nil, err
		}
		pos := "position startpos"
		if len(ply.moves) > 0 {
			pos += " moves " + strings.Join(ply.moves, " ")
		}
		t0 := time.Now()
		if err := p.send(pos, goCommand); err != nil {
			return nil, err
		}
		l, _, err := p.readUntil("bestmove", answerTimeout)
		dt := time.Since(t0)
		if err != nil {
			return nil, err
		}
		if mv := wordAt(l, 1); !ply.bookMoves[mv] {
			return nil, fmt.Errorf("ply %d: answered %q, not a book move (the engine searched?)", i+1, l)
		}
		samples = append(samples, seconds(dt))
	}
	return samples, nil
}

// measureRelay times isready → readyok through each adapter and through
// the engine alone, with Stockfish and with the built-in fake engine
// (which answers at once, so what remains is the adapters' own cost); and
// the adapters' peak memory once idle, with Stockfish.
func (r *runner) measureRelay() {
	r.measureRelayWith(engineName(r.engine), r.engine, r.engineErr, true)
	r.measureRelayWith("fake engine", r.fake, "", false)
}

func (r *runner) measureRelayWith(name string, engine []string, engineErr string, memory bool) {
	const perRound = 200
	ads := r.adapters()
	res := &result{ID: "relay-" + slug(name), Kind: kindTime,
		Title:     "2. relay: isready → readyok round trip, " + name,
		Polyproxy: ads[0].side, PolyGlot: ads[1].side,
		Reference: newSide("engine alone", engineErr),
		Notes:     []string{fmt.Sprintf("%d round trips per side per round, each round in new processes: where the OS places the processes on the CPUs decides much of a round trip (a wake-up on another CPU costs more, in a VM most), so every round samples a new placement.", perRound)}}
	added := &result{ID: "relay-added-" + slug(name), Kind: kindTime,
		Title:     "2. relay: added per relayed line, " + name,
		Polyproxy: newSide("polyproxy", r.ppErr), PolyGlot: newSide("PolyGlot", r.pgErr),
		Notes: []string{"Per round: (the adapter's median round trip - the engine alone's median in the same round) / 2, a round trip being two relayed lines; median and p99 over the rounds."}}
	var mem *result
	if memory {
		mem = &result{ID: "memory-idle", Kind: kindBytes,
			Title:     "2. memory: peak resident size of the idle adapter after the handshake and the round trips, " + name,
			Polyproxy: newSide("polyproxy", r.ppErr), PolyGlot: newSide("PolyGlot", r.pgErr),
			Reference: newSide("engine alone", engineErr)}
	}
	// Each side's median in each round, for the added cost.
	roundMedians := make([][]float64, r.cfg.rounds*3)
	defer func() {
		addedCosts(roundMedians, res, added, 2) // a round trip relays two lines
		r.addRelayResults(res, added, mem)
	}()
	memSides := func(i int) *side {
		if mem == nil {
			return nil
		}
		return []*side{mem.Polyproxy, mem.PolyGlot, mem.Reference}[i]
	}
	if engineErr != "" {
		failAll(errors.New(engineErr), res.Polyproxy, res.PolyGlot, memSides(0), memSides(1))
		return
	}
	ini, err := r.writeIni(engine, r.cfg.book)
	if err != nil {
		failAll(err, res.Polyproxy, res.PolyGlot, res.Reference, memSides(0), memSides(1), memSides(2))
		return
	}
	sessions := []*session{
		{r: r, name: "polyproxy", argv: []string{ads[0].bin, ini}},
		{r: r, name: "PolyGlot", argv: []string{ads[1].bin, ini}},
		{r: r, name: "engine", argv: engine},
	}
	var runs []sideRun
	for i, s := range []*side{res.Polyproxy, res.PolyGlot, res.Reference} {
		runs = append(runs, sideRun{s, relayRoundTrips(sessions[i], memSides(i), perRound, func(round int, median float64) {
			roundMedians[round*3+i] = []float64{median}
		})})
	}
	alternate(r.cfg.rounds, runs)
}

// relayRoundTrips times perRound isready → readyok round trips through
// sess a round, each round in new processes, and gives median the round's
// median; mem, when measured, gets the process's peak resident size after
// them.
func relayRoundTrips(sess *session, mem *side, perRound int, median func(round int, median float64)) func(int) ([]float64, error) {
	return func(round int) ([]float64, error) {
		p, err := sess.get()
		if err != nil {
			return nil, err
		}
		defer sess.close()
		samples := make([]float64, 0, perRound)
		for range perRound {
			t0 := time.Now()
			if err := roundTrip(p, "isready", "readyok", answerTimeout); err != nil {
				return nil, err
			}
			samples = append(samples, seconds(time.Since(t0)))
		}
		median(round, summarize(samples).Median)
		if mem.ok() {
			if m, err := p.memory(); err != nil {
				mem.fail(err)
			} else {
				mem.Samples = append(mem.Samples, float64(m.Peak))
				mem.Memory = append(mem.Memory, m)
			}
		}
		return samples, nil
	}
}

// addRelayResults adds the relay's results: its round trips, the cost
// added per line, and its memory when measured (mem not nil).
func (r *runner) addRelayResults(res, added, mem *result) {
	res.finish()
	r.add(res)
	added.finish()
	r.add(added)
	if mem != nil {
		mem.Notes = append(mem.Notes, memoryNote(mem))
		mem.finish()
		r.add(mem)
	}
}

// measureStartup times process start to uciok, and quit to process exit,
// with Stockfish and with the built-in fake engine (a Go program that
// answers at once: what an adapter adds to it is the adapter's own cost),
// and what each adapter adds to the engine alone's start-up.
func (r *runner) measureStartup() {
	engines := []struct {
		name string
		argv []string
		err  string
	}{
		{engineName(r.engine), r.engine, r.engineErr},
		{"fake engine", r.fake, ""},
	}
	for _, e := range engines {
		if e.err != "" {
			e.name = "engine"
		}
		r.measureStartupWith(e.name, e.argv, e.err)
	}
}

// measureStartupWith measures the start-up, its added cost and quit with
// one engine, each round in new processes.
func (r *runner) measureStartupWith(name string, engine []string, engineErr string) {
	const perRound = 2
	ads := r.adapters()
	start := &result{ID: "startup-" + slug(name), Kind: kindTime,
		Title:     "3. start-up: process start → uciok, " + name,
		Polyproxy: ads[0].side, PolyGlot: ads[1].side, Reference: newSide("engine alone", engineErr)}
	added := &result{ID: "startup-added-" + slug(name), Kind: kindTime,
		Title:     "3. start-up: added to the engine alone's, " + name,
		Polyproxy: newSide("polyproxy", r.ppErr), PolyGlot: newSide("PolyGlot", r.pgErr),
		Notes: []string{fmt.Sprintf("Per round: the adapter's median start → uciok (%d starts) - the engine alone's median in the same round; median and p99 over the rounds.", perRound)}}
	quit := &result{ID: "quit-" + slug(name), Kind: kindTime,
		Title:     "3. quit → process exit, " + name,
		Polyproxy: newSide("polyproxy", r.ppErr), PolyGlot: newSide("PolyGlot", r.pgErr), Reference: newSide("engine alone", engineErr)}
	roundMedians := make([][]float64, r.cfg.rounds*3) // for the added cost
	defer func() {
		addedCosts(roundMedians, start, added, 1)
		start.finish()
		added.finish()
		quit.finish()
		r.add(start, added, quit)
	}()
	startSides := []*side{start.Polyproxy, start.PolyGlot, start.Reference}
	quitSides := []*side{quit.Polyproxy, quit.PolyGlot, quit.Reference}
	if engineErr != "" {
		failAll(errors.New(engineErr), start.Polyproxy, start.PolyGlot, added.Polyproxy, added.PolyGlot)
	}
	ini, err := r.writeIni(engine, r.cfg.book)
	if err != nil {
		failAll(err, start.Polyproxy, start.PolyGlot, start.Reference)
	}
	argvs := [][]string{{ads[0].bin, ini}, {ads[1].bin, ini}, engine}
	var runs []sideRun
	for i := range startSides {
		runs = append(runs, sideRun{startSides[i], func(round int) ([]float64, error) {
			samples, err := r.startAndQuit(startSides[i].Label, argvs[i], perRound, quitSides[i])
			if err == nil {
				roundMedians[round*3+i] = []float64{summarize(samples).Median}
			}
			return samples, err
		}})
	}
	alternate(r.cfg.rounds, runs)
	for i := range startSides {
		if !startSides[i].ok() {
			quitSides[i].fail(errors.New(startSides[i].Error))
		}
	}
}

// startAndQuit starts argv n times; each sample is the time from starting
// the process to reading uciok, and quit gets the time from writing quit
// to the process's exit.
func (r *runner) startAndQuit(label string, argv []string, n int, quit *side) ([]float64, error) {
	var samples []float64
	for range n {
		t0 := time.Now()
		p, err := startProc(label, argv, r.workdir)
		if err != nil {
			return nil, err
		}
		if err := p.send("uci"); err != nil {
			p.kill()
			return nil, err
		}
		if _, _, err := p.readUntil("uciok", handshakeTimeout); err != nil {
			p.kill()
			return nil, err
		}
		samples = append(samples, seconds(time.Since(t0)))
		// Let it finish starting (an engine may load its network on
		// isready) before timing quit.
		if err := roundTrip(p, "isready", "readyok", handshakeTimeout); err != nil {
			p.kill()
			return nil, err
		}
		d, err := p.quit(10 * time.Second)
		if err != nil {
			quit.fail(err)
		} else if quit.ok() {
			quit.Samples = append(quit.Samples, seconds(d))
		}
	}
	return samples, nil
}

// addedCosts fills added with what each adapter adds to the reference (the
// engine alone), round by round, divided by per (the lines a sample
// relays, or 1): roundMedians holds each round's median of polyproxy,
// PolyGlot and the reference, in that order (nil where a side had none).
// An adapter or reference without figures in res leaves the added row n/a
// with the reason.
func addedCosts(roundMedians [][]float64, res, added *result, per float64) {
	for round := range len(roundMedians) / 3 {
		ref := roundMedians[round*3+2]
		if ref == nil {
			continue
		}
		for i, s := range []*side{added.Polyproxy, added.PolyGlot} {
			if ad := roundMedians[round*3+i]; ad != nil {
				s.Samples = append(s.Samples, (ad[0]-ref[0])/per)
			}
		}
	}
	if !res.Reference.ok() {
		failAll(errors.New("no figure for the engine alone"), added.Polyproxy, added.PolyGlot)
		return
	}
	for i, s := range []*side{added.Polyproxy, added.PolyGlot} {
		if ad := []*side{res.Polyproxy, res.PolyGlot}[i]; !ad.ok() {
			s.fail(errors.New(ad.Error))
		}
	}
}

// measureFlood has the fake engine print floodLines info lines as fast as
// it can after go and counts the rate at which they reach us, through each
// adapter and through cat (a relay that does nothing: the limit).
func (r *runner) measureFlood() {
	const floodLines = 100_000
	ads := r.adapters()
	res := &result{ID: "flood", Kind: kindRate, Item: "lines",
		Title:     fmt.Sprintf("4. flood: %s info lines from the engine reaching the client", commaInt(floodLines)),
		Polyproxy: ads[0].side, PolyGlot: ads[1].side, Reference: newSide("cat", ""),
		Notes: []string{"The fake engine writes its lines in 64 KB chunks, as fast as it can; no book; the rate is lines over the time from go to bestmove; every line must arrive; each round in new processes."}}
	defer func() { res.finish(); r.add(res) }()
	engine := append(append([]string(nil), r.fake...), "-flood", strconv.Itoa(floodLines))
	ini, err := r.writeIni(engine, "")
	if err != nil {
		failAll(err, res.Polyproxy, res.PolyGlot, res.Reference)
		return
	}
	cat, err := exec.LookPath("cat")
	if err != nil {
		res.Reference.fail(errors.New("cat not found"))
	}
	type starter func() (*proc, error)
	starters := []starter{
		func() (*proc, error) { return r.startUCI("polyproxy", []string{ads[0].bin, ini}) },
		func() (*proc, error) { return r.startUCI("PolyGlot", []string{ads[1].bin, ini}) },
		func() (*proc, error) {
			p, err := startPipeline("engine | cat", r.workdir, engine, []string{cat})
			if err != nil {
				return nil, err
			}
			if err := handshake(p); err != nil {
				p.kill()
				return nil, err
			}
			return p, nil
		},
	}
	var runs []sideRun
	for i, s := range []*side{res.Polyproxy, res.PolyGlot, res.Reference} {
		runs = append(runs, sideRun{s, func(int) ([]float64, error) {
			p, err := starters[i]()
			if err != nil {
				return nil, err
			}
			defer p.close() // each round in new processes
			if err := p.send("position startpos"); err != nil {
				return nil, err
			}
			t0 := time.Now()
			if err := p.send("go depth 30"); err != nil {
				return nil, err
			}
			n, err := p.countUntil("info", "bestmove", 2*time.Minute)
			dt := time.Since(t0)
			if err != nil {
				return nil, err
			}
			if n < floodLines {
				return nil, fmt.Errorf("only %d of %d info lines arrived", n, floodLines)
			}
			return []float64{seconds(dt) / floodLines}, nil
		}})
	}
	alternate(r.cfg.rounds, runs)
}

func wordAt(l string, i int) string {
	f := strings.Fields(l)
	if i < len(f) {
		return f[i]
	}
	return ""
}

func slug(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), "-"))
}
