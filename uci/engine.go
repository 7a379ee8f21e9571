package uci

import (
	"bytes"
	"strconv"
	"strings"
)

// EngineLineKind is what an engine line is, judged by its first word.
type EngineLineKind int

const (
	EngineOther EngineLineKind = iota
	EngineID
	EngineUCIOK
	EngineReadyOK
	EngineBestMove
	EngineInfo
	EngineOption
	EngineCopyProtection
	EngineRegistration
)

// ClassifyEngineLine looks only at the first word, without allocating:
// it runs for every line of an info flood.
func ClassifyEngineLine(line []byte) EngineLineKind {
	if len(line) > 4 && string(line[:4]) == "info" && isSpace(line[4]) {
		return EngineInfo // nearly every line of a search, decided at once
	}
	i := 0
	for i < len(line) && isSpace(line[i]) {
		i++
	}
	j := i
	for j < len(line) && !isSpace(line[j]) {
		j++
	}
	switch w := line[i:j]; string(w) {
	case "info":
		return EngineInfo
	case "bestmove":
		return EngineBestMove
	case "readyok":
		return EngineReadyOK
	case "uciok":
		return EngineUCIOK
	case "id":
		return EngineID
	case "option":
		return EngineOption
	case "copyprotection":
		return EngineCopyProtection
	case "registration":
		return EngineRegistration
	}
	return EngineOther
}

// HasScore reports whether an info line carries a score, cheaply, so only
// those lines are kept for parsing at bestmove time.
func HasScore(line []byte) bool { return bytes.Contains(line, []byte(" score ")) }

// ID is an "id name X" or "id author X" line.
type ID struct {
	Key   string // "name" or "author"
	Value string // raw
}

// ParseID reads an id line.
func ParseID(line string) (ID, error) {
	fs := fields(line)
	if len(fs) < 2 || fs[0].s != "id" {
		return ID{}, errorf(line, "not an id line")
	}
	return ID{Key: fs[1].s, Value: rawBetween(line, fs, 2, len(fs))}, nil
}

// Option is an engine's "option name N type T [default D] [min X] [max Y] [var V]..." line.
type Option struct {
	Name     string
	Type     string // check, spin, combo, button, string
	Default  string
	Min, Max string
	Vars     []string
}

// isOptionWord tells the words of an option line (a switch, not a map:
// no table to build at start-up, and quicker on a handful of words).
func isOptionWord(w string) bool {
	switch w {
	case "name", "type", "default", "min", "max", "var":
		return true
	}
	return false
}

// ParseOption reads an option line. Names and values may contain spaces.
func ParseOption(line string) (Option, error) {
	fs := fields(line)
	if len(fs) == 0 || fs[0].s != "option" {
		return Option{}, errorf(line, "not an option line")
	}
	var o Option
	seenName := false
	for i := 1; i < len(fs); {
		w := fs[i].s
		if !isOptionWord(w) {
			i++
			continue
		}
		j := i + 1
		// A name runs until "type"; other values until the next keyword.
		for j < len(fs) && !(isOptionWord(fs[j].s) && (w != "name" || fs[j].s == "type")) {
			j++
		}
		v := rawBetween(line, fs, i+1, j)
		switch w {
		case "name":
			o.Name, seenName = v, true
		case "type":
			o.Type = v
		case "default":
			o.Default = v
		case "min":
			o.Min = v
		case "max":
			o.Max = v
		case "var":
			o.Vars = append(o.Vars, v)
		}
		i = j
	}
	if !seenName || o.Name == "" {
		return o, errorf(line, "option without a name")
	}
	return o, nil
}

// String writes o as an option line, words in the usual order.
func (o Option) String() string {
	var b strings.Builder
	b.WriteString("option name " + o.Name)
	for _, kv := range [][2]string{{"type", o.Type}, {"default", o.Default}, {"min", o.Min}, {"max", o.Max}} {
		if kv[1] != "" {
			b.WriteString(" " + kv[0] + " " + kv[1])
		}
	}
	for _, v := range o.Vars {
		b.WriteString(" var " + v)
	}
	return b.String()
}

// Score is an info score: centipawns or mate in N moves (negative: the
// side to move is mated), from the engine's side to move.
type Score struct {
	CP, Mate     int
	IsMate       bool
	Lower, Upper bool // lowerbound / upperbound
}

// Info is an "info ..." line. Fields absent from the line are zero; Has*
// tell which were present when zero is meaningful.
type Info struct {
	Depth, SelDepth, MultiPV int
	Time, Nodes, NPS, TBHits int64
	HashFull                 int
	Score                    Score
	HasScore                 bool
	PV                       []string
	CurrMove                 string
	CurrMoveNumber           int
	String                   string // "info string ...": the rest of the line, raw
}

// isInfoWord tells the words of an info line.
func isInfoWord(w string) bool {
	switch w {
	case "depth", "seldepth", "time", "nodes", "pv", "multipv", "score", "currmove", "currmovenumber",
		"hashfull", "nps", "tbhits", "sbhits", "cpuload", "string", "refutation", "currline", "wdl":
		return true
	}
	return false
}

// ParseInfo reads an info line tolerantly: unknown words and bad numbers
// are skipped.
func ParseInfo(line string) (Info, error) {
	fs := fields(line)
	if len(fs) == 0 || fs[0].s != "info" {
		return Info{}, errorf(line, "not an info line")
	}
	var in Info
	atoi := func(i int) (int64, bool) {
		if i >= len(fs) {
			return 0, false
		}
		n, err := strconv.ParseInt(fs[i].s, 10, 64)
		return n, err == nil
	}
	for i := 1; i < len(fs); i++ {
		switch fs[i].s {
		case "depth":
			n, _ := atoi(i + 1)
			in.Depth = int(n)
			i++
		case "seldepth":
			n, _ := atoi(i + 1)
			in.SelDepth = int(n)
			i++
		case "multipv":
			n, _ := atoi(i + 1)
			in.MultiPV = int(n)
			i++
		case "time":
			in.Time, _ = atoi(i + 1)
			i++
		case "nodes":
			in.Nodes, _ = atoi(i + 1)
			i++
		case "nps":
			in.NPS, _ = atoi(i + 1)
			i++
		case "tbhits":
			in.TBHits, _ = atoi(i + 1)
			i++
		case "hashfull":
			n, _ := atoi(i + 1)
			in.HashFull = int(n)
			i++
		case "currmove":
			if i+1 < len(fs) {
				in.CurrMove = fs[i+1].s
			}
			i++
		case "currmovenumber":
			n, _ := atoi(i + 1)
			in.CurrMoveNumber = int(n)
			i++
		case "score":
		scoreWords:
			for i+1 < len(fs) {
				switch fs[i+1].s {
				case "cp", "mate":
					n, ok := atoi(i + 2)
					if ok {
						in.HasScore = true
						if fs[i+1].s == "cp" {
							in.Score.CP, in.Score.IsMate = int(n), false
						} else {
							in.Score.Mate, in.Score.IsMate = int(n), true
						}
						i++
					}
					i++
					continue
				case "lowerbound":
					in.Score.Lower = true
					i++
					continue
				case "upperbound":
					in.Score.Upper = true
					i++
					continue
				}
				break scoreWords
			}
		case "pv":
			for i+1 < len(fs) && !isInfoWord(fs[i+1].s) {
				i++
				in.PV = append(in.PV, fs[i].s)
			}
		case "string":
			in.String = rawBetween(line, fs, i+1, len(fs))
			return in, nil
		}
	}
	return in, nil
}
