package main

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/polyproxy/polyproxy/book/board"
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

// measureXboardRelay times the engine's moves through each adapter in
// xboard mode, as a game goes, book off, with the fake engine behind it:
// the GUI's usermove → the position and go to the engine, its bestmove
// back → move. And a ping's round trip between the moves.
func (r *runner) measureXboardRelay() {
	const movesPerGame, gamesPerRound = 15, 8
	ads := r.adapters()
	relay := &result{ID: "xboard-relay", Kind: kindTime,
		Title:     "X2. xboard mode, relay: usermove → move through the engine, fake engine",
		Polyproxy: ads[0].side, PolyGlot: ads[1].side,
		Notes: []string{fmt.Sprintf("%d games per side per round of %d moves each way, book off: the GUI plays the legal move that sorts first and repeats no position, the engine the legal move that sorts first; each sample is the GUI's usermove to the engine's move. The fake engine follows the game with a chess library (its move generation, a few hundred µs, is in both sides' figures); each round in new processes.", gamesPerRound, movesPerGame)}}
	ping := &result{ID: "xboard-ping", Kind: kindTime,
		Title:     "X3. xboard mode, ping → pong round trip between the moves, fake engine",
		Polyproxy: newSide("polyproxy", r.ppErr), PolyGlot: newSide("PolyGlot", r.pgErr),
		Notes: []string{"A ping after each move of the games of X2, with nothing owed: both adapters answer it themselves."}}
	defer func() { relay.finish(); r.add(relay); ping.finish(); r.add(ping) }()
	// The fake engine as it is in the tests: following the game.
	ini, err := r.writeIni(append(slices.Clone(r.fake), "-bestmove="), "")
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
			var samples, pings []float64
			n := 1
			for range gamesPerRound {
				got, pinged, err := playXboardGame(p, movesPerGame, &n)
				if err != nil {
					return nil, err
				}
				samples, pings = append(samples, got...), append(pings, pinged...)
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

// playXboardGame plays moves moves as White against the adapter's engine:
// the legal move that sorts first and repeats no position; each engine
// move is checked on the GUI's board. n numbers the pings.
func playXboardGame(p *proc, moves int, n *int) (samples, pings []float64, err error) {
	if err := p.send("new", "level 0 1 0", "time 6000", "otim 6000"); err != nil {
		return nil, nil, err
	}
	l, err := board.NewLine("")
	if err != nil {
		return nil, nil, err
	}
	for ply := 0; ply < moves; ply++ {
		legal := l.Pos.LegalMoves()
		if len(legal) == 0 {
			break
		}
		// Ours: the legal move that sorts first among those that reach a
		// new position, so the game does not end in a repetition.
		var names []string
		for _, m := range legal {
			if !l.Seen(l.Pos.KeyAfter(m)) {
				names = append(names, m.String())
			}
		}
		if len(names) == 0 {
			break
		}
		slices.Sort(names)
		ours := names[0]
		m, _ := board.ParseMove(ours)
		if _, err := l.Play(m); err != nil {
			return nil, nil, err
		}
		if len(l.Pos.LegalMoves()) == 0 {
			break // the engine has no move: the game is over
		}
		t0 := time.Now()
		if err := p.send("usermove " + ours); err != nil {
			return nil, nil, err
		}
		line, err := readMoveOrEnd(p)
		dt := time.Since(t0)
		if err != nil {
			return nil, nil, err
		}
		if line == "" {
			break // the adapter claimed the game's end
		}
		reply, err := board.ParseMove(wordAt(line, 1))
		if err == nil {
			_, err = l.Play(reply)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("ply %d: %q: %v", 2*ply+2, line, err)
		}
		samples = append(samples, seconds(dt))
		*n++
		t0 = time.Now()
		if err := roundTrip(p, "ping "+strconv.Itoa(*n), "pong", answerTimeout); err != nil {
			return nil, nil, err
		}
		pings = append(pings, seconds(time.Since(t0)))
	}
	return samples, pings, p.send("result * {bench}")
}

// readMoveOrEnd reads up to the adapter's move ("move X", returned) or
// its claim of the game's end ("": a result such as 1/2-1/2 {...}).
func readMoveOrEnd(p *proc) (string, error) {
	deadline := time.Now().Add(answerTimeout)
	for {
		l, err := p.readLine(deadline)
		if err != nil {
			return "", fmt.Errorf("waiting for a move: %w", err)
		}
		switch w := firstWord(l); {
		case w == "move":
			return l, nil
		case w == "1-0" || w == "0-1" || w == "1/2-1/2" || w == "resign":
			return "", nil
		}
	}
}
