package link

import (
	"errors"
	"fmt"
	"time"

	"github.com/polyproxy/polyproxy/proxy/logfile"
	"github.com/polyproxy/polyproxy/uci"
)

// Talk is a conversation with an engine outside the proxy's loop, for a
// tool that asks the engine something and waits for the answer (the
// engine check of book-to-openings): the link's handshake and writes, and
// the engine's lines read on a goroutine of their own, so that a wait can
// time out.
type Talk struct {
	*Link
	lines chan string
}

// Dial takes eng and does its handshake, giving it up after timeout: the
// engine's name and options are then the link's, as in a proxy's run.
func Dial(eng Engine, timeout time.Duration) (*Talk, error) {
	t := &Talk{Link: New(&logfile.Log{}), lines: make(chan string, 256)}
	go func() {
		defer close(t.lines)
		lr := uci.NewLineReader(eng.Stdout(), 64<<10)
		for {
			l, err := lr.ReadLine()
			if err != nil {
				return
			}
			t.lines <- string(l)
		}
	}()
	if err := t.Start(eng); err != nil {
		return nil, err
	}
	err := t.Await(uci.EngineUCIOK, timeout, func(line string) {
		if kind := uci.ClassifyEngineLine([]byte(line)); kind == uci.EngineID || kind == uci.EngineOption {
			t.HeaderLine(line, kind == uci.EngineOption)
		}
	})
	if err != nil {
		return nil, err
	}
	t.HandshakeDone()
	return t, nil
}

// Await reads the engine's lines until one of kind, handing each other
// line to seen (nil: none); it fails after timeout, or when the engine's
// output ends.
func (t *Talk) Await(kind uci.EngineLineKind, timeout time.Duration, seen func(line string)) error {
	deadline := time.After(timeout)
	for {
		select {
		case l, ok := <-t.lines:
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
