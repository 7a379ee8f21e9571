package cli

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/polyproxy/polyproxy/book/build"
	"github.com/polyproxy/polyproxy/uci"
)

// engineCheck scores opening positions with a UCI engine and keeps those
// within a window, for book-to-openings: a minimal UCI client (uci,
// isready, position fen, go movetime), one position at a time.
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

// engine is a UCI engine the check talks to: the child process and its
// lines, read on their own goroutine so that waits can time out.
type engine struct {
	p     *uci.Process
	lines chan string
}

func startEngine(path string, stderr io.Writer) (*engine, error) {
	p, err := uci.StartProcess([]string{path}, "", stderr)
	if err != nil {
		return nil, err
	}
	e := &engine{p: p, lines: make(chan string, 256)}
	go func() {
		defer close(e.lines)
		lr := uci.NewLineReader(p.Stdout(), 64<<10)
		for {
			l, err := lr.ReadLine()
			if err != nil {
				return
			}
			e.lines <- string(l)
		}
	}()
	return e, nil
}

// waitFor reads lines until one of kind, giving each other line to seen;
// it fails after timeout or when the engine exits.
func (e *engine) waitFor(kind uci.EngineLineKind, timeout time.Duration, seen func(string)) error {
	deadline := time.After(timeout)
	for {
		select {
		case l, ok := <-e.lines:
			if !ok {
				return errors.New("the engine exited")
			}
			if uci.ClassifyEngineLine([]byte(l)) == kind {
				return nil
			}
			if seen != nil {
				seen(l)
			}
		case <-deadline:
			return fmt.Errorf("no answer from the engine within %v", timeout)
		}
	}
}

// filter keeps the openings the engine scores within the window, White's
// view; a mate score is outside any window.
func (c *engineCheck) filter(env *env, ops []build.Opening) ([]build.Opening, error) {
	stderr := env.stderr
	e, err := startEngine(c.path, stderr)
	if err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	defer e.p.Quit(2 * time.Second)
	env.stop.onStop(e.p.Kill) // a signal to polyproxy alone leaves no engine behind
	if err := e.p.WriteLine("uci"); err != nil {
		return nil, err
	}
	if err := e.waitFor(uci.EngineUCIOK, engineStartup, nil); err != nil {
		return nil, fmt.Errorf("engine %s: %w", c.path, err)
	}
	var kept []build.Opening
	for i, o := range ops {
		for _, l := range []string{"ucinewgame", "isready"} {
			if err := e.p.WriteLine(l); err != nil {
				return nil, err
			}
		}
		ready := engineSlack
		if i == 0 {
			ready = engineStartup // the first isready loads what uci did not
		}
		if err := e.waitFor(uci.EngineReadyOK, ready, nil); err != nil {
			return nil, fmt.Errorf("engine: %w", err)
		}
		for _, l := range []string{"position fen " + o.Pos.FEN(), fmt.Sprintf("go movetime %d", c.movetime)} {
			if err := e.p.WriteLine(l); err != nil {
				return nil, err
			}
		}
		var score uci.Score
		scored := false
		err := e.waitFor(uci.EngineBestMove, time.Duration(c.movetime)*time.Millisecond+engineSlack, func(l string) {
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
