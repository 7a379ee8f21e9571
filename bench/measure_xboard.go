package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// startXboard starts an adapter as a CECP GUI does (xboard, protover 2)
// and waits for its features.
func (r *runner) startXboard(name string, argv []string) (*proc, error) {
	p, err := startProc(name, argv, r.workdir)
	if err != nil {
		return nil, err
	}
	if err := p.send("xboard", "protover 2"); err != nil {
		p.kill()
		return nil, err
	}
	for {
		l, _, err := p.readUntil("feature", handshakeTimeout)
		if err != nil {
			p.kill()
			return nil, err
		}
		if strings.Contains(l, "done=1") {
			break
		}
	}
	// Sync: the engine behind it is ready too.
	if err := roundTrip(p, "ping 1", "pong", handshakeTimeout); err != nil {
		p.kill()
		return nil, err
	}
	return p, nil
}

// measureXboard is the CECP side of the book answer and the relay: both
// adapters in xboard mode, driven as XBoard drives them.
func (r *runner) measureXboard() {
	r.measureXboardBookAnswer()
	r.measureXboardRelay()
}

// measureXboardBookAnswer: per ply of the book line, a new game in force
// mode with the line's moves, a ping to settle, then go; the sample is
// the time from writing go to reading move, which must be a book move.
func (r *runner) measureXboardBookAnswer() {
	const plies, linesPerRound = 20, 2
	ads := r.adapters()
	res := &result{ID: "xboard-book-answer", Kind: kindTime,
		Title:     fmt.Sprintf("X1. xboard mode, book answer: go → move, %d-ply line of %s", plies, baseName(r.cfg.book)),
		Polyproxy: ads[0].side, PolyGlot: ads[1].side,
		Notes: []string{fmt.Sprintf("Both adapters in CECP (xboard) mode, %s behind them, BookRandom=false. Per ply: new, force, the line's moves as usermove, ping → pong, then go; the sample is go → move, checked to be a book move; %d lines per side per round, each round in new processes.", r.machine.Engine, linesPerRound)}}
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
	ini, err := r.writeIni(r.engine, r.cfg.book)
	if err != nil {
		failAll(err, res.Polyproxy, res.PolyGlot)
		return
	}
	var runs []sideRun
	for _, a := range ads {
		argv := []string{a.bin, ini}
		runs = append(runs, sideRun{a.side, func(int) ([]float64, error) {
			p, err := r.startXboard(a.side.Label, argv)
			if err != nil {
				return nil, err
			}
			defer p.close()
			var samples []float64
			ping := 1
			for range linesPerRound {
				for i, ply := range line {
					ping++
					cmds := []string{"new", "force", "level 0 1 0", "time 6000", "otim 6000"}
					for _, m := range ply.moves {
						cmds = append(cmds, "usermove "+m)
					}
					if err := p.send(cmds...); err != nil {
						return nil, err
					}
					if err := roundTrip(p, "ping "+strconv.Itoa(ping), "pong", answerTimeout); err != nil {
						return nil, err
					}
					t0 := time.Now()
					if err := p.send("go"); err != nil {
						return nil, err
					}
					l, _, err := p.readUntil("move", answerTimeout)
					dt := time.Since(t0)
					if err != nil {
						return nil, err
					}
					if mv := wordAt(l, 1); !ply.bookMoves[mv] {
						return nil, fmt.Errorf("ply %d: answered %q, not a book move (the engine searched?)", i+1, l)
					}
					samples = append(samples, seconds(dt))
				}
			}
			if err := p.send("force"); err != nil {
				return nil, err
			}
			return samples, nil
		}})
	}
	alternate(r.cfg.rounds, runs)
}

// measureXboardRelay times an engine move through each adapter in
// xboard mode, with the fake engine behind it (it answers at once, so
// what remains is the adapters' cost): go → position and go to the
// engine, its bestmove back, move to the GUI. And a ping's round trip.
func (r *runner) measureXboardRelay() {
	const perRound = 100
	const fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1" // out of the book; the fake engine plays e2e4
	ads := r.adapters()
	relay := &result{ID: "xboard-relay", Kind: kindTime,
		Title:     "X2. xboard mode, relay: go → move round trip through the engine, fake engine",
		Polyproxy: ads[0].side, PolyGlot: ads[1].side,
		Notes: []string{fmt.Sprintf("Per sample: new, force, setboard (a position out of the book), ping → pong, then go; the sample is go → move, the engine's (the fake engine answers at once, so what remains is the adapter's cost). %d samples per side per round, each round in new processes.", perRound)}}
	ping := &result{ID: "xboard-ping", Kind: kindTime,
		Title:     "X3. xboard mode, ping → pong round trip, fake engine",
		Polyproxy: newSide("polyproxy", r.ppErr), PolyGlot: newSide("PolyGlot", r.pgErr),
		Notes: []string{"Both answer a ping with nothing owed at once, without the engine; polyproxy sends an isready through the engine first when an answer is still owed (a search), so the pong keeps its place."}}
	defer func() { relay.finish(); r.add(relay); ping.finish(); r.add(ping) }()
	ini, err := r.writeIni(r.fake, r.cfg.book)
	if err != nil {
		failAll(err, relay.Polyproxy, relay.PolyGlot, ping.Polyproxy, ping.PolyGlot)
		return
	}
	var runs []sideRun
	for i, a := range ads {
		argv := []string{a.bin, ini}
		pingSide := []*side{ping.Polyproxy, ping.PolyGlot}[i]
		runs = append(runs, sideRun{a.side, func(int) ([]float64, error) {
			p, err := r.startXboard(a.side.Label, argv)
			if err != nil {
				return nil, err
			}
			defer p.close()
			samples := make([]float64, 0, perRound)
			var pings []float64
			for n := range perRound {
				if err := p.send("new", "force", "level 0 1 0", "time 6000", "otim 6000", "setboard "+fen); err != nil {
					return nil, err
				}
				t0 := time.Now()
				if err := roundTrip(p, "ping "+strconv.Itoa(n+2), "pong", answerTimeout); err != nil {
					return nil, err
				}
				pings = append(pings, seconds(time.Since(t0)))
				t0 = time.Now()
				if err := p.send("go"); err != nil {
					return nil, err
				}
				l, _, err := p.readUntil("move", answerTimeout)
				dt := time.Since(t0)
				if err != nil {
					return nil, err
				}
				if wordAt(l, 1) != "e2e4" {
					return nil, fmt.Errorf("answered %q, not the engine's e2e4", l)
				}
				samples = append(samples, seconds(dt))
			}
			pingSide.Samples = append(pingSide.Samples, pings...)
			return samples, nil
		}})
	}
	alternate(r.cfg.rounds, runs)
	for i, s := range []*side{relay.Polyproxy, relay.PolyGlot} {
		if !s.ok() {
			[]*side{ping.Polyproxy, ping.PolyGlot}[i].fail(errors.New(s.Error))
		}
	}
}
