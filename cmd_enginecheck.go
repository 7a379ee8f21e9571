package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/polyproxy/polyproxy/book/build"
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
// before it is given up.
const engineSlack = 10 * time.Second

type uciEngine struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
}

func startEngine(path string) (*uciEngine, error) {
	cmd := exec.Command(path)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	e := &uciEngine{cmd: cmd, in: in, lines: make(chan string, 256)}
	go func() {
		defer close(e.lines)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			e.lines <- sc.Text()
		}
	}()
	return e, nil
}

func (e *uciEngine) send(cmd string) error {
	_, err := io.WriteString(e.in, cmd+"\n")
	return err
}

// waitFor reads lines until one starts with prefix, giving each other
// line to seen; it fails after timeout or when the engine exits.
func (e *uciEngine) waitFor(prefix string, timeout time.Duration, seen func(string)) (string, error) {
	deadline := time.After(timeout)
	for {
		select {
		case l, ok := <-e.lines:
			if !ok {
				return "", fmt.Errorf("the engine exited before %q", prefix)
			}
			if strings.HasPrefix(l, prefix) {
				return l, nil
			}
			if seen != nil {
				seen(l)
			}
		case <-deadline:
			return "", fmt.Errorf("no %q from the engine within %v", prefix, timeout)
		}
	}
}

func (e *uciEngine) close() {
	e.send("quit")
	e.in.Close()
	done := make(chan struct{})
	go func() { e.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		e.cmd.Process.Kill()
		<-done
	}
}

// parseScore reads the score of an info line, from the side to move's
// view: centipawns, or mate (in moves, negative when mated).
func parseScore(line string) (cp int, mate int, ok bool) {
	f := strings.Fields(line)
	for i := 0; i+2 < len(f); i++ {
		if f[i] != "score" {
			continue
		}
		n, err := strconv.Atoi(f[i+2])
		if err != nil {
			return 0, 0, false
		}
		switch f[i+1] {
		case "cp":
			return n, 0, true
		case "mate":
			return 0, n, true
		}
	}
	return 0, 0, false
}

// filter keeps the openings the engine scores within the window, White's
// view; a mate score is outside any window.
func (c *engineCheck) filter(ops []build.Opening, stderr io.Writer) ([]build.Opening, error) {
	e, err := startEngine(c.path)
	if err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	defer e.close()
	if err := e.send("uci"); err != nil {
		return nil, err
	}
	if _, err := e.waitFor("uciok", engineSlack, nil); err != nil {
		return nil, fmt.Errorf("engine %s: %w", c.path, err)
	}
	var kept []build.Opening
	for i, o := range ops {
		if err := e.send("ucinewgame"); err != nil {
			return nil, err
		}
		if err := e.send("isready"); err != nil {
			return nil, err
		}
		if _, err := e.waitFor("readyok", engineSlack, nil); err != nil {
			return nil, fmt.Errorf("engine: %w", err)
		}
		e.send("position fen " + o.Pos.FEN())
		e.send(fmt.Sprintf("go movetime %d", c.movetime))
		cp, mate, scored := 0, 0, false
		_, err := e.waitFor("bestmove", time.Duration(c.movetime)*time.Millisecond+engineSlack, func(l string) {
			if strings.HasPrefix(l, "info ") && !strings.Contains(l, " lowerbound") && !strings.Contains(l, " upperbound") {
				if s, m, ok := parseScore(l); ok {
					cp, mate, scored = s, m, true
				}
			}
		})
		if err != nil {
			return nil, fmt.Errorf("engine on %s: %w", o.Pos.FEN(), err)
		}
		if !scored {
			return nil, errors.New("engine: no score for " + o.Pos.FEN())
		}
		if !o.Pos.WhiteToMove() {
			cp = -cp
		}
		if mate == 0 && cp >= c.minCP && cp <= c.maxCP {
			kept = append(kept, o)
		}
		if (i+1)%100 == 0 {
			fmt.Fprintf(stderr, "book-to-openings: %d of %d positions scored, %d kept\n", i+1, len(ops), len(kept))
		}
	}
	return kept, nil
}
