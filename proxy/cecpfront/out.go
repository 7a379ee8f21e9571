package cecpfront

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/proxy/core"
	"github.com/polyproxy/polyproxy/uci"
)

// The core's events leave the CECP front as CECP: a bestmove as "move",
// a readyok as the pong it was asked for, thinking in CECP's units, the
// engine's other lines and our notices as comments.

// BestMove takes the answer to the oldest search owed: a book's answer
// is shown as the engine's thinking would be, at depth 1 with no score.
func (x *Front) BestMove(bm core.BestMove) {
	switch {
	case bm.Book != nil:
		x.infoString(string(bm.AppendBookNote(nil)))
		x.thinking(uci.Info{Depth: 1, HasScore: true, PV: []string{bm.Move.String()}})
	case bm.Why != "":
		x.infoString("no move: " + bm.Why)
	}
	x.onBestmove(bm)
}

// ReadyOK answers the oldest ping waiting.
func (x *Front) ReadyOK() {
	if len(x.pings) == 0 {
		return // a readyok no ping asked for
	}
	n := x.pings[0]
	x.pings = x.pings[1:]
	x.send("pong " + n)
}

func (x *Front) Info(run []byte) { core.EachLine(run, x.onInfo) }

// Text shows the engine's other lines as comments.
func (x *Front) Text(run []byte) {
	core.EachLine(run, func(l []byte) {
		if s := strings.TrimSpace(string(l)); s != "" {
			x.send("# " + s)
		}
	})
}

// Notice goes straight to the GUI as a comment: a notice is no search's
// line, and is shown whatever search the front is waiting for.
func (x *Front) Notice(msg string) { x.send("# " + msg) }

// Fatal tells the GUI why the run ends, as an error it pops up.
func (x *Front) Fatal(unheard []string, why string) {
	for _, l := range Refusal(unheard, why) {
		x.send(l)
	}
}

// Refusal is what a CECP GUI is told when polyproxy cannot run: notices
// as comments, why as the one error XBoard pops up. No feature done=1
// first: an engine that leaves before it is done loading is unloaded
// with the error it told and no more, where one that had finished
// loading makes XBoard's own fatal error.
func Refusal(notices []string, why string) []string {
	var lines []string
	for _, n := range notices {
		lines = append(lines, "# "+n)
	}
	return append(lines, "tellusererror polyproxy: "+why)
}

// Described: the features are answered from the core's Description when
// protover comes.
func (x *Front) Described(core.Description) {}

// onInfo shows the engine's thinking (post) as CECP's "ply score time
// nodes pv", with the score in centipawns (mate in N: 100000+N) and the
// time in centiseconds, the moves in SAN; an info string becomes a
// comment.
func (x *Front) onInfo(line []byte) {
	if bytes.HasPrefix(line, []byte("info string")) {
		if in, err := uci.ParseInfo(string(line)); err == nil {
			x.infoString(in.String)
		}
		return
	}
	// Read in full only when it can be shown: many lines of a search
	// (currmove, nodes) have no score.
	if !x.showsThinking() || !uci.HasScore(line) {
		return
	}
	if in, err := uci.ParseInfo(string(line)); err == nil {
		x.thinking(in)
	}
}

// infoString shows an info string of the search the front waits for as
// a comment.
func (x *Front) infoString(s string) {
	if len(x.searches) > 0 && x.searches[0].discarded {
		return // of a search whose move is never played: nothing to show
	}
	x.send("# " + s)
}

// showsThinking reports whether the thinking that comes now is the
// search's the front waits for.
func (x *Front) showsThinking() bool {
	s := x.active()
	return s != nil && x.searches[0] == s
}

// thinking takes a line of thinking with a score: the score for
// resignation, the line for "." and, with post, the line shown.
func (x *Front) thinking(in uci.Info) {
	if !x.showsThinking() {
		return
	}
	s := x.searches[0]
	if s.kind == xbPonder && !x.c.Settings().ShowPonder {
		return
	}
	if !in.HasScore || len(in.PV) == 0 || in.MultiPV > 1 {
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
func (x *Front) pvSAN(s *xbSearch, pv []string) string {
	pos := s.pos // a copy
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
func (x *Front) sendFeatures() {

	if !x.featuresOwed {
		x.reply("feature done=0") // the rest may take a moment: the GUI waits
	}
	x.featuresOwed = false
	d := x.c.Description()
	name := x.c.Settings().EngineName
	if name == "" {
		name = d.Name
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
	for _, o := range d.Options {
		if !o.Readable || coveredByCommand(o.Name) {
			continue
		}
		if f := cecpOption(o.Option); f != "" {
			x.reply("feature option=\"" + f + "\"")
		}
	}
	for _, f := range x.c.Settings().CECPFeatures() {
		x.reply("feature " + f)
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
