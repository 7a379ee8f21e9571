package adapter

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/uci"
)

// The core's lines, as a UCI GUI would get them, leave the CECP front as
// CECP: bestmove as "move", readyok as the pong it was asked for, thinking
// in CECP's units, anything else as a comment.

func (x *xboardFront) WriteLine(s string)      { x.fromCore([]byte(s)) }
func (x *xboardFront) WriteLineBytes(b []byte) { x.fromCore(b) }
func (x *xboardFront) Flush() error            { return x.out.Flush() }
func (x *xboardFront) WriteLinesRaw(data []byte) {
	for len(data) > 0 {
		nl := bytes.IndexByte(data, '\n')
		x.fromCore(bytes.TrimSuffix(data[:nl], []byte("\r")))
		data = data[nl+1:]
	}
}

// fromCore turns one line of the core into CECP.
func (x *xboardFront) fromCore(line []byte) {
	if bytes.HasPrefix(line, []byte(cecpMark)) {
		x.send(string(line[len(cecpMark):]))
		return
	}
	switch uci.ClassifyEngineLine(line) {
	case uci.EngineBestMove:
		x.onBestmove(string(line))
	case uci.EngineReadyOK:
		if len(x.pings) == 0 {
			return // a readyok no ping asked for
		}
		n := x.pings[0]
		x.pings = x.pings[1:]
		x.send("pong " + n)
	case uci.EngineInfo:
		x.onInfo(line)
	case uci.EngineID, uci.EngineOption, uci.EngineUCIOK:
	default:
		if s := strings.TrimSpace(string(line)); s != "" {
			x.send("# " + s)
		}
	}
}

// onInfo shows the engine's thinking (post) as CECP's "ply score time
// nodes pv", with the score in centipawns (mate in N: 100000+N) and the
// time in centiseconds, the moves in SAN; an info string becomes a
// comment.
func (x *xboardFront) onInfo(line []byte) {
	if len(x.searches) > 0 && x.searches[0].discarded {
		return // of a search whose move is never played: nothing to show
	}
	if bytes.HasPrefix(line, []byte("info string")) {
		if in, err := uci.ParseInfo(string(line)); err == nil {
			x.send("# " + in.String)
		}
		return
	}
	// Read in full only when it can be shown: many lines of a search
	// (currmove, nodes) have no score.
	s := x.active()
	if s == nil || x.searches[0] != s || !uci.HasScore(line) {
		return // no thinking to show
	}
	if s.kind == xbPonder && !x.a.settings.ShowPonder {
		return
	}
	in, err := uci.ParseInfo(string(line))
	if err != nil || !in.HasScore || len(in.PV) == 0 {
		return
	}
	if in.MultiPV > 1 {
		return // the main line only
	}
	sc := in.Score
	s.bestScore = &sc
	x.lastInfo, x.lastInfoSearchOK = in, true
	if !x.post {
		return
	}
	score := sc.CP
	if sc.IsMate {
		score = 100000 + sc.Mate
		if sc.Mate <= 0 {
			score = -100000 + sc.Mate
		}
	}
	var b strings.Builder
	b.WriteString(strconv.Itoa(in.Depth) + " " + strconv.Itoa(score) + " " +
		strconv.FormatInt(in.Time/10, 10) + " " + strconv.FormatInt(in.Nodes, 10))
	if s.kind == xbPonder {
		// As PolyGlot shows it: the move the search assumes, then its line.
		b.WriteString(" (" + s.ponderSAN + ")")
	}
	b.WriteString(" " + x.pvSAN(s, in.PV))
	x.send(b.String())
}

// pvSAN writes a principal variation in SAN from the searched position,
// up to its first move that does not play there (as given from then on).
func (x *xboardFront) pvSAN(s *xbSearch, pv []string) string {
	pos := s.pos.Pos // a copy
	out := make([]string, 0, len(pv))
	for i, mv := range pv {
		m, err := board.ParseMove(mv)
		if err == nil {
			m, err = pos.LegalMove(pos.ToPlayed(m))
		}
		if err != nil {
			out = append(out, pv[i:]...)
			break
		}
		out = append(out, pos.SAN(m))
		pos.Play(m)
	}
	return strings.Join(out, " ")
}

// sendFeatures answers protover: what the GUI may use, the engine's name
// and its options and ours, as CECP options.
func (x *xboardFront) sendFeatures() {
	a := x.a
	if !x.featuresOwed {
		x.reply("feature done=0") // the rest may take a moment: the GUI waits
	}
	x.featuresOwed = false
	name := a.settings.EngineName
	if name == "" {
		name = a.engine.name
		if name == "" {
			name = "polyproxy"
		}
	}
	name = strings.ReplaceAll(name, `"`, "'")
	fs := []string{"ping=1", "setboard=1", "usermove=1", "playother=1", "time=1", "draw=1",
		"sigint=0", "sigterm=0", "reuse=1", "analyze=1", "colors=0", "san=0", "name=1", "ics=1",
		"pause=0", "nps=0", "memory=1", "smp=1", `myname="` + name + `"`}
	if x.engineOptionNamed("UCI_Chess960") != "" {
		fs = append(fs, `variants="normal,fischerandom"`)
	} else {
		fs = append(fs, `variants="normal"`)
	}
	if x.engineOptionNamed("SyzygyPath") != "" {
		fs = append(fs, `egt="syzygy"`)
	}
	for _, f := range fs {
		x.reply("feature " + f)
	}
	for _, l := range a.engine.header {
		o, err := uci.ParseOption(withConfiguredDefault(l, a.engine.configured))
		if err != nil || coveredByCommand(o.Name) {
			continue
		}
		if f := cecpOption(o); f != "" {
			x.reply("feature option=\"" + f + "\"")
		}
	}
	for _, l := range xboardOurOptionLines(a) {
		if o, err := uci.ParseOption(l); err == nil {
			if f := cecpOption(o); f != "" {
				x.reply("feature option=\"" + f + "\"")
			}
		}
	}
	x.reply("feature done=1")
}

// coveredByCommand: engine options CECP sets with commands of its own
// (memory, cores, egtpath, hard and easy, variant, analyze), or that the
// front sets itself.
func coveredByCommand(name string) bool {
	switch strings.ToLower(name) {
	case "hash", "threads", "syzygypath", "ponder", "uci_chess960", "uci_analysemode", "multipv":
		return true
	}
	return false
}

// cecpOption is a UCI option as a CECP option feature's value.
func cecpOption(o uci.Option) string {
	name := strings.ReplaceAll(o.Name, `"`, "'")
	def := o.Default
	if def == "<empty>" {
		def = ""
	}
	switch o.Type {
	case "check":
		v := "0"
		if b, err := strconv.ParseBool(def); err == nil && b {
			v = "1"
		}
		return name + " -check " + v
	case "spin":
		return name + " -spin " + def + " " + o.Min + " " + o.Max
	case "combo":
		vars := make([]string, len(o.Vars))
		for i, v := range o.Vars {
			if v == def {
				v = "*" + v
			}
			vars[i] = v
		}
		return name + " -combo " + strings.Join(vars, " /// ")
	case "button":
		return name + " -button"
	case "string":
		lower := strings.ToLower(o.Name)
		switch {
		case strings.Contains(lower, "file"):
			return name + " -file " + def
		case strings.Contains(lower, "path") || strings.Contains(lower, "dir"):
			return name + " -path " + def
		}
		return name + " -string " + def
	}
	return ""
}

// xboardOurOptionLines are our options for a CECP GUI: those of UCI mode,
// and resignation, draw offers, the thinking shown while pondering and
// st's margin, which only CECP mode handles (a UCI GUI does them for its
// engine).
func xboardOurOptionLines(a *Adapter) []string {
	c := a.settings
	return append(ourOptionLines(c),
		"option name "+ourOptionPrefix+"Resign type check default "+strconv.FormatBool(c.Resign),
		"option name "+ourOptionPrefix+"ResignMoves type spin default "+strconv.Itoa(c.ResignMoves)+" min 0 max 10000",
		"option name "+ourOptionPrefix+"ResignScore type spin default "+strconv.Itoa(c.ResignScore)+" min 0 max 10000",
		"option name "+ourOptionPrefix+"QueenNeverResigns type check default "+strconv.FormatBool(c.QueenNeverResigns),
		"option name "+ourOptionPrefix+"HandleDraws type check default "+strconv.FormatBool(c.HandleDraws),
		"option name "+ourOptionPrefix+"ContemptScore type spin default "+strconv.Itoa(c.ContemptScore)+" min 0 max 10000",
		"option name "+ourOptionPrefix+"ShowPonder type check default "+strconv.FormatBool(c.ShowPonder),
		"option name "+ourOptionPrefix+"STFudge type spin default "+strconv.Itoa(c.STFudge)+" min 0 max 1000",
	)
}
