package adapter

import (
	"bytes"
	"strings"
	"time"

	"github.com/polyproxy/polyproxy/uci"
)

// onEngineBatch handles a chunk of the engine's lines (each ending in
// '\n') in order. Most are info lines relayed byte for byte; a run of them
// is written to the GUI as one slice, so a flood costs what a copy costs.
func (a *Adapter) onEngineBatch(data []byte) {
	runStart := -1 // start of lines relayed as they are, not yet written
	flushRun := func(end int) {
		if runStart >= 0 {
			a.out.WriteLinesRaw(data[runStart:end])
			runStart = -1
		}
	}
	start := 0
	scoredUpTo := 0 // lines before it were looked at for a score
	for start < len(data) {
		nl := start + bytes.IndexByte(data[start:], '\n')
		line := data[start:nl]
		lineStart := start
		start = nl + 1
		cr := len(line) > 0 && line[len(line)-1] == '\r'
		if cr {
			line = line[:len(line)-1]
		}
		if a.logOn {
			a.traffic("engine>", string(line))
		}
		kind := uci.ClassifyEngineLine(line)
		if kind == uci.EngineInfo && a.guiTalked {
			if a.logOn {
				a.traffic(">gui", string(line))
			}
			if cr {
				flushRun(lineStart)
				a.out.WriteLineBytes(line)
			} else if runStart < 0 {
				runStart = lineStart
			}
			continue
		}
		flushRun(lineStart)
		switch kind {
		case uci.EngineBestMove:
			a.keepLastScore(data[scoredUpTo:lineStart])
			scoredUpTo = start
			a.onEngineBestMove(line)
		case uci.EngineReadyOK:
			a.onReadyOK(line)
		case uci.EngineUCIOK:
			if a.engine.handshaking {
				a.onUCIOK()
			} else {
				a.logf("uciok without a uci from us: dropped")
			}
		case uci.EngineID, uci.EngineOption:
			if a.engine.handshaking {
				a.onHeaderLine(string(line))
			} else {
				a.logf("id/option line outside the handshake: dropped")
			}
		case uci.EngineInfo:
			a.logf("engine info line before the GUI said uci: not relayed")
		case uci.EngineOther:
			// A start-up banner, "Unknown command: ...", an empty line:
			// stdout carries UCI only.
			a.logf("engine line that is not UCI: not relayed")
		default: // copyprotection, registration
			a.relay(line)
		}
	}
	flushRun(len(data))
	a.keepLastScore(data[scoredUpTo:])
}

// keepLastScore keeps the last info line with a score among lines (whole
// lines), for the observer at bestmove time. It looks backwards, so a
// flood costs one line's check per batch, not one per line.
func (a *Adapter) keepLastScore(lines []byte) {
	if a.obs == nil || a.search != searchEngine {
		return
	}
	for end := len(lines); end > 0; {
		start := bytes.LastIndexByte(lines[:end-1], '\n') + 1
		line := bytes.TrimSuffix(lines[start:end-1], []byte("\r"))
		if uci.ClassifyEngineLine(line) == uci.EngineInfo && uci.HasScore(line) {
			a.lastScoreLine = append(a.lastScoreLine[:0], line...)
			return
		}
		end = start
	}
}

// relay passes an engine line to the GUI unchanged.
func (a *Adapter) relay(line []byte) {
	if a.logOn {
		a.traffic(">gui", string(line))
	}
	a.out.WriteLineBytes(line)
}

func (a *Adapter) onHeaderLine(line string) {
	if err := a.engine.headerLine(line); err != nil {
		a.logf("engine option line not understood: %v", err)
	}
}

// onUCIOK completes a handshake: options from the configuration, then
// (after a restart) the GUI's own options, the game and a pending search.
func (a *Adapter) onUCIOK() {
	restart := a.engine.handshakeDone()
	for _, o := range a.settings.EngineOptions {
		if name, ok := a.engine.spelling(o.Name); ok {
			a.toEngine("setoption name " + name + " value " + o.Value)
			a.noteChess960(name, o.Value)
		} else {
			a.notify("[Engine] option %q is not an option of the engine: not sent", o.Name)
		}
	}
	if restart {
		for _, o := range a.engine.guiSetOptions {
			a.toEngine(setOptionLine(o))
		}
		a.toEngine("ucinewgame")
		// Bestmoves of stopped searches the dead engine owed will not
		// come; the latest search is issued again below.
		for range a.replies.replaceLostBestmoves(a.search == searchEngine) {
			a.logf("the engine died owing the bestmove of a stopped search: bestmove 0000 instead")
		}
		for range a.replies.owes(replyReadyOK) {
			a.toEngine("isready")
		}
		if a.game.line != "" {
			a.toEngine(a.game.line)
		}
		if a.search == searchEngine {
			// The position just sent is the one the search was for.
			goLine := a.engineGo
			if a.ponderHit {
				goLine = withoutPonder(goLine)
			}
			if !a.clockFrom.IsZero() {
				// The mover's clock has run since the search began (or the
				// ponder hit): the new engine must not count on that time.
				white, black := true, true
				if a.game.ok {
					white = a.game.pos().WhiteToMove()
					black = !white
				}
				goLine = uci.ChargeTime(goLine, time.Since(a.clockFrom).Milliseconds(), white, black)
			}
			a.logf("re-issuing the search the engine died in: %s", goLine)
			a.toEngine(goLine)
			if a.stopSent {
				a.toEngine("stop")
			}
		}
	}
	if a.guiWantsUCI {
		a.guiWantsUCI = false
		a.answerUCI()
	}
	queued := a.queuedGUI
	a.queuedGUI = nil
	for _, c := range queued {
		if a.quitting {
			break
		}
		a.onGUICommand(c)
	}
}

func setOptionLine(o uci.SetOption) string {
	if o.HasValue {
		return "setoption name " + o.Name + " value " + o.Value
	}
	return "setoption name " + o.Name
}

func withoutPonder(goLine string) string {
	words := strings.Fields(goLine)
	out := words[:0]
	for _, w := range words {
		if w != "ponder" {
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}

// answerUCI replies to the GUI's "uci": the engine's id (marked as
// wrapped) and options, ours, uciok; then anything we had to tell it.
func (a *Adapter) answerUCI() {
	name := a.settings.EngineName
	if name == "" {
		name = a.engine.name + " (polyproxy)"
		if a.engine.name == "" {
			name = "polyproxy"
		}
	}
	a.toGUI("id name " + name)
	for _, l := range a.engine.header {
		if id, err := uci.ParseID(l); err == nil && id.Key == "name" {
			continue
		}
		a.toGUI(a.withConfiguredDefault(l))
	}
	for _, l := range a.ourOptionLines() {
		a.toGUI(l)
	}
	a.toGUI("uciok")
	a.guiTalked = true
	for _, n := range a.notices {
		a.toGUI("info string " + n)
	}
	a.notices = nil
}

// onReadyOK relays the engine's readyok and releases the output that was
// waiting for it.
func (a *Adapter) onReadyOK(line []byte) {
	a.relay(line)
	if !a.replies.settle(replyReadyOK) {
		a.logf("readyok nobody asked for (relayed)")
	}
}

// onEngineBestMove relays the bestmove of a search the GUI asked for; a
// bestmove nobody asked for is dropped, so the GUI sees exactly one per go.
func (a *Adapter) onEngineBestMove(line []byte) {
	owed := a.replies.owes(replyBestmove)
	if owed == 0 {
		a.logf("bestmove without a pending engine search: dropped")
		return
	}
	a.relay(line)
	a.replies.settle(replyBestmove)
	if owed > 1 || a.search != searchEngine {
		a.logf("bestmove of an earlier, stopped search relayed")
		return
	}
	a.search = searchNone
	a.stopSent, a.ponderHit = false, false
	scoreLine := string(a.lastScoreLine)
	a.lastScoreLine = a.lastScoreLine[:0]
	if a.obs == nil || !a.game.ok {
		return
	}
	// Worked out after the bestmove is on its way, from a copy of the game
	// (g.after never writes into the keys it shares with the live game).
	snapshot := *a.game.cur
	g := game{cur: &snapshot}
	bestmove := string(line)
	a.observe(func(o GameObserver) {
		// Scores are from the side to move.
		if in, err := uci.ParseInfo(scoreLine); err == nil && in.HasScore {
			o.EngineScore(g.pos().WhiteToMove(), in.Score.CP, in.Score.Mate, in.Score.IsMate)
		}
		if bm, err := uci.ParseBestMove(bestmove); err == nil {
			if after, ok := g.after(bm.Move); ok {
				o.AfterBestmove(after)
			}
		}
	})
}
