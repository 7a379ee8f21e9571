package cli

import (
	"errors"
	"fmt"
	"time"

	"github.com/polyproxy/polyproxy/book/build"
	"github.com/polyproxy/polyproxy/proxy/link"
	"github.com/polyproxy/polyproxy/uci"
)

// engineCheck scores opening positions with a UCI engine and keeps those
// within a window, for book-to-openings: the engine link's conversation
// (link.Dial: its handshake, then isready, position fen, go movetime),
// one position at a time.
type engineCheck struct {
	path         string
	movetime     int
	minCP, maxCP int
}

// engineSlack is how long past its movetime an engine may take to answer
// before it is given up; engineStartup how long it may take to start and
// answer uci and its first isready: loading its network takes a while,
// the longer on a busy machine (Stockfish took over 10 s to answer uci at
// a load of 18 on two cores).
const (
	engineSlack   = 10 * time.Second
	engineStartup = time.Minute
)

// filter keeps the openings the engine scores within the window, White's
// view; a mate score is outside any window.
func (c *engineCheck) filter(env *env, ops []build.Opening) ([]build.Opening, error) {
	stderr := env.stderr
	p, err := uci.StartProcess([]string{c.path}, "", stderr)
	if err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	defer p.Quit(2 * time.Second)
	env.stop.onStop(p.Kill) // a signal to polyproxy alone leaves no engine behind
	e, err := link.Dial(p, engineStartup)
	if err != nil {
		return nil, fmt.Errorf("engine %s: %w", c.path, err)
	}
	var kept []build.Opening
	for i, o := range ops {
		if err := e.NewGame(); err != nil {
			return nil, err
		}
		if err := e.Send("isready"); err != nil {
			return nil, err
		}
		ready := engineSlack
		if i == 0 {
			ready = engineStartup // the first isready loads what uci did not
		}
		if err := e.Await(uci.EngineReadyOK, ready, nil); err != nil {
			return nil, fmt.Errorf("engine: %w", err)
		}
		if err := e.SendPosition("position fen " + o.Pos.FEN()); err != nil {
			return nil, err
		}
		if err := e.Send(fmt.Sprintf("go movetime %d", c.movetime)); err != nil {
			return nil, err
		}
		var score uci.Score
		scored := false
		err := e.Await(uci.EngineBestMove, time.Duration(c.movetime)*time.Millisecond+engineSlack, func(l string) {
			if in, err := uci.ParseInfo(l); err == nil && in.HasScore && !in.Score.Lower && !in.Score.Upper {
				score, scored = in.Score, true
			}
		})
		if err != nil {
			return nil, fmt.Errorf("engine on %s: %w", o.Pos.FEN(), err)
		}
		if !scored {
			return nil, errors.New("engine: no score for " + o.Pos.FEN())
		}
		cp := score.CP
		if !o.Pos.WhiteToMove() {
			cp = -cp
		}
		if !score.IsMate && cp >= c.minCP && cp <= c.maxCP {
			kept = append(kept, o)
		}
		if (i+1)%100 == 0 {
			fmt.Fprintf(stderr, "book-to-openings: %d of %d positions scored, %d kept\n", i+1, len(ops), len(kept))
		}
	}
	return kept, nil
}
