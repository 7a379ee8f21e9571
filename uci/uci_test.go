package uci

import (
	"bytes"
	"io"
	"reflect"
	"strings"
	"testing"
)

func TestLineReaderTerminatorsAndLongLines(t *testing.T) {
	long := "position startpos moves" + strings.Repeat(" e2e4", 300000) // 1.5 MB
	in := "uci\r\nisready\n\n" + long + "\nlast"
	lr := NewLineReader(strings.NewReader(in), 4096)
	var got []string
	for {
		l, err := lr.ReadLine()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(l))
	}
	want := []string{"uci", "isready", "", long, "last"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %d lines, want %d (first %q)", len(got), len(want), got[0])
	}
}

func TestLineReaderKeepsBytes(t *testing.T) {
	line := "info string 100% \x01 é \tdone\r"
	lr := NewLineReader(strings.NewReader(line+"\r\n"), 0)
	l, err := lr.ReadLine()
	if err != nil || string(l) != line {
		t.Fatalf("got %q, %v; want %q", l, err, line)
	}
}

func TestHasBufferedLine(t *testing.T) {
	lr := NewLineReader(strings.NewReader("a\nb\nc"), 0)
	lr.ReadLine()
	if !lr.HasBufferedLine() {
		t.Fatal("b is buffered")
	}
	lr.ReadLine()
	if lr.HasBufferedLine() {
		t.Fatal("c has no terminator yet")
	}
}

func TestWriter(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	w.WriteLine("id name X")
	w.WriteLineBytes([]byte("uciok"))
	if buf.Len() != 0 {
		t.Fatal("written before Flush")
	}
	if err := w.Flush(); err != nil || buf.String() != "id name X\nuciok\n" {
		t.Fatalf("got %q, %v", buf.String(), err)
	}
}

func TestParseCommandKinds(t *testing.T) {
	for line, want := range map[string]CommandKind{
		"uci": CmdUCI, "  isready\t": CmdIsReady, "": CmdEmpty, " \t ": CmdEmpty,
		"joho debug on": CmdDebug, "ucinewgame": CmdUCINewGame, "stop": CmdStop,
		"ponderhit": CmdPonderHit, "quit": CmdQuit, "register later": CmdRegister,
		"xyzzy 1 2": CmdUnknown, "go\r": CmdGo,
	} {
		c, err := ParseCommand(line)
		if err != nil || c.Kind != want {
			t.Errorf("%q: kind %v err %v, want %v", line, c.Kind, err, want)
		}
	}
}

// What the engine is sent starts at the command word: Stockfish answers
// "joho go" with "Unknown command" and would never send its bestmove.
func TestCommandLineStartsAtCommandWord(t *testing.T) {
	for line, want := range map[string]string{
		"joho debug on":                  "debug on",
		"  isready\t":                    "isready\t",
		"aaaa0 go  wtime 10 x":           "go  wtime 10 x",
		"go infinite":                    "go infinite",
		"xyzzy 1 2":                      "xyzzy 1 2",
		"x position startpos moves e2e4": "position startpos moves e2e4",
	} {
		if c, _ := ParseCommand(line); c.Line != want {
			t.Errorf("%q: Line %q, want %q", line, c.Line, want)
		}
	}
}

func TestParsePosition(t *testing.T) {
	for _, tc := range []struct {
		line string
		want Position
	}{
		{"position startpos", Position{StartPos: true}},
		{"position   startpos\tmoves e2e4  e7e5\r", Position{StartPos: true, Moves: []string{"e2e4", "e7e5"}}},
		{"position fen 8/8/8/8/8/8/8/K1k5 w - -", Position{FEN: "8/8/8/8/8/8/8/K1k5 w - -"}},
		{"position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 moves c7c5",
			Position{FEN: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", Moves: []string{"c7c5"}}},
		{"position foo startpos bar moves e2e4", Position{StartPos: true, Moves: []string{"e2e4"}}},
		{"position startpos moves", Position{StartPos: true, Moves: []string{}}},
		// As engines read them: fewer fields (defaulted later), more (the
		// extra ones ignored).
		{"position fen 8/8/8/8/8/8/8/K1k5 w", Position{FEN: "8/8/8/8/8/8/8/K1k5 w"}},
		{"position fen 8/8/8/8/8/8/8/K1k5 w - - 0 1 7 8 moves a1a2", Position{FEN: "8/8/8/8/8/8/8/K1k5 w - - 0 1", Moves: []string{"a1a2"}}},
	} {
		c, err := ParseCommand(tc.line)
		if err != nil {
			t.Errorf("%q: %v", tc.line, err)
			continue
		}
		if !reflect.DeepEqual(*c.Position, tc.want) {
			t.Errorf("%q: got %+v want %+v", tc.line, *c.Position, tc.want)
		}
	}
	for _, bad := range []string{"position", "position moves e2e4", "position fen", "position fen moves e2e4"} {
		c, err := ParseCommand(bad)
		if err == nil || c.Kind != CmdPosition {
			t.Errorf("%q: want a position error, got %v %v", bad, c.Kind, err)
		}
		if _, ok := err.(*ProtocolError); !ok {
			t.Errorf("%q: error %T is not a ProtocolError", bad, err)
		}
	}
}

func TestParseGo(t *testing.T) {
	c, _ := ParseCommand("go wtime 2000 btime -15 winc 20 binc 20 movestogo 7 searchmoves e2e4 d2d4 ponder bogus nodes x")
	g := c.Go
	want := Go{SearchMoves: []string{"e2e4", "d2d4"}, Ponder: true, WTime: 2000, BTime: -15, HasWTime: true, HasBTime: true, WInc: 20, BInc: 20, MovesToGo: 7}
	if !reflect.DeepEqual(*g, want) {
		t.Fatalf("got %+v\nwant %+v", *g, want)
	}
	c, _ = ParseCommand("go infinite")
	if !c.Go.Infinite {
		t.Fatal("infinite")
	}
	c, _ = ParseCommand("go mate 3 movetime 100 depth 5")
	if !c.Go.HasMate || c.Go.Mate != 3 || c.Go.MoveTime != 100 || c.Go.Depth != 5 {
		t.Fatalf("%+v", *c.Go)
	}
}

func TestParseSetOption(t *testing.T) {
	c, err := ParseCommand("setoption name Polyglot  BookFile value C:/My  Books/a.bin ")
	if err != nil {
		t.Fatal(err)
	}
	if *c.SetOption != (SetOption{Name: "Polyglot BookFile", Value: "C:/My  Books/a.bin", HasValue: true}) {
		t.Fatalf("%+v", *c.SetOption)
	}
	c, _ = ParseCommand("setoption name Clear Hash")
	if *c.SetOption != (SetOption{Name: "Clear Hash"}) {
		t.Fatalf("%+v", *c.SetOption)
	}
	c, _ = ParseCommand("setoption name Threads value")
	if *c.SetOption != (SetOption{Name: "Threads", HasValue: true}) {
		t.Fatalf("%+v", *c.SetOption)
	}
	if _, err := ParseCommand("setoption value 3"); err == nil {
		t.Fatal("no name accepted")
	}
	// Written as an engine is sent it, and read back the same.
	for _, o := range []SetOption{{Name: "Polyglot BookFile", Value: "C:/My  Books/a.bin", HasValue: true}, {Name: "Clear Hash"}, {Name: "Threads", HasValue: true}} {
		c, err := ParseCommand(o.String())
		if err != nil || *c.SetOption != o {
			t.Errorf("%+v written as %q, read back as %+v (%v)", o, o.String(), *c.SetOption, err)
		}
	}
}

func TestClassifyEngineLine(t *testing.T) {
	for line, want := range map[string]EngineLineKind{
		"info depth 1": EngineInfo, "bestmove e2e4": EngineBestMove, "readyok": EngineReadyOK,
		" uciok\r": EngineUCIOK, "id name x": EngineID, "option name x type button": EngineOption,
		"Stockfish 15 by ...": EngineOther, "": EngineOther, "infos": EngineOther,
	} {
		if got := ClassifyEngineLine([]byte(line)); got != want {
			t.Errorf("%q: %v want %v", line, got, want)
		}
	}
}

func TestParseEngineLines(t *testing.T) {
	o, err := ParseOption("option name Debug Log File type string default ")
	if err != nil || o.Name != "Debug Log File" || o.Type != "string" || o.Default != "" {
		t.Fatalf("%+v %v", o, err)
	}
	o, _ = ParseOption("option name Style type combo default Normal var Solid var Normal var Risky")
	if !reflect.DeepEqual(o, Option{Name: "Style", Type: "combo", Default: "Normal", Vars: []string{"Solid", "Normal", "Risky"}}) {
		t.Fatalf("%+v", o)
	}
	o, _ = ParseOption("option name Hash type spin default 16 min 1 max 33554432")
	if o.Min != "1" || o.Max != "33554432" || o.Default != "16" {
		t.Fatalf("%+v", o)
	}
	if _, err := ParseOption("option type spin"); err == nil {
		t.Fatal("nameless option accepted")
	}

	in, _ := ParseInfo("info depth 12 seldepth 15 multipv 1 score cp -34 upperbound nodes 12345 nps 99 time 17 pv e2e4 e7e5 g1f3 hashfull 3")
	if in.Depth != 12 || in.SelDepth != 15 || !in.HasScore || in.Score.CP != -34 || !in.Score.Upper || in.Nodes != 12345 || in.Time != 17 ||
		!reflect.DeepEqual(in.PV, []string{"e2e4", "e7e5", "g1f3"}) || in.HashFull != 3 {
		t.Fatalf("%+v", in)
	}
	in, _ = ParseInfo("info score mate -3 depth 9")
	if !in.Score.IsMate || in.Score.Mate != -3 || in.Depth != 9 {
		t.Fatalf("%+v", in)
	}
	in, _ = ParseInfo("info string  book  move depth 3")
	if in.String != "book  move depth 3" || in.Depth != 0 {
		t.Fatalf("%+v", in)
	}
	in, _ = ParseInfo("info score")
	if in.HasScore {
		t.Fatal("score without value")
	}

	id, _ := ParseID("id name Stockfish 15.1")
	if id != (ID{"name", "Stockfish 15.1"}) {
		t.Fatalf("%+v", id)
	}
}

func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{"position startpos moves e2e4", "go searchmoves e2e4 wtime 1", "setoption name a value b",
		"position fen 8/8/8/8/8/8/8/8 w - - 0 1 moves", "info score cp 1 pv", "option name x type", "bestmove"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		ParseCommand(line)
		ParseInfo(line)
		ParseOption(line)
		ParseID(line)
		ClassifyEngineLine([]byte(line))
	})
}

func TestMovesAfterAgreesWithFullParse(t *testing.T) {
	for _, tc := range []struct{ prev, line string }{
		{"position startpos", "position startpos"},
		{"position startpos", "position startpos moves e2e4"},
		{"position startpos", "position startpos  moves\te2e4 e7e5\r"},
		{"position startpos moves", "position startpos moves e2e4"},
		{"position startpos moves e2e4", "position startpos moves e2e4 e7e5 g1f3"},
		{"position startpos moves e2e4", "position startpos moves e2e4e7e5"},
		{"position startpos moves e2e4", "position startpos moves e2e"},
		{"position startpos", "position startpos fen 8/8/8/8/8/8/8/K1k5 w - - 0 1"},
		{"position fen 8/8/8/8/8/8/8/K1k5 w - - 0 1", "position fen 8/8/8/8/8/8/8/K1k5 w - - 0 10"},
		{"position fen 8/8/8/8/8/8/8/K1k5 w - -", "position fen 8/8/8/8/8/8/8/K1k5 w - - 0 1 moves a1a2"},
		{"position startpos", "position startpos foo moves e2e4"},
		{"position startpos moves e2e4", "position startpos moves e2e4   "},
	} {
		prev, _ := ParseCommand(tc.prev)
		full, err := ParseCommand(tc.line)
		moves, ok := MovesAfter(tc.prev, tc.line, prev.Position.Moves != nil)
		if !ok {
			continue // the caller parses in full: nothing to agree on
		}
		if err != nil {
			t.Errorf("%q: fast path accepted a line the parser rejects (%v)", tc.line, err)
			continue
		}
		want := full.Position.Moves[len(prev.Position.Moves):]
		if !reflect.DeepEqual(append([]string{}, moves...), append([]string{}, want...)) || full.Position.FEN != prev.Position.FEN {
			t.Errorf("%q after %q: got %q want %q", tc.line, tc.prev, moves, want)
		}
	}
	if _, ok := MovesAfter("position startpos moves e2e4", "position startpos moves e2e4 e7e5", true); !ok {
		t.Fatal("the common case missed the fast path")
	}
}

func TestOptionStringRoundTrip(t *testing.T) {
	for _, l := range []string{
		"option name Hash type spin default 16 min 1 max 33554432",
		"option name Clear Hash type button",
		"option name UCI_Chess960 type check default false",
		"option name Style type combo default Normal var Solid var Normal var Risky",
		"option name SyzygyPath type string default <empty>",
		"option name Debug Log File type string default my file.txt",
	} {
		o, err := ParseOption(l)
		if err != nil || o.String() != l {
			t.Errorf("%q: read back as %q (%v)", l, o.String(), err)
		}
	}
}

func TestGoCharged(t *testing.T) {
	for _, tc := range []struct {
		line         string
		white, black bool
		want         string
	}{
		{"go wtime 60000 btime 50000 winc 1000 binc 1000", true, false, "go wtime 58500 btime 50000 winc 1000 binc 1000"},
		{"go wtime 60000 btime 50000", false, true, "go wtime 60000 btime 48500"},
		{"go  wtime 1000\tbtime 900 movestogo 3", true, true, "go wtime 1 btime 1 movestogo 3"},
		{"go movetime 2000", true, false, "go movetime 500"},
		{"go infinite", true, true, "go infinite"},
		{"go wtime x btime", true, true, "go"},
	} {
		c, _ := ParseCommand(tc.line)
		if got := c.Go.Charged(1500, tc.white, tc.black); got.String() != tc.want {
			t.Errorf("%q: got %q, want %q", tc.line, got.String(), tc.want)
		}
	}
}

// A go line read and written again says the same, in the one order.
func TestGoString(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"go", "go"},
		{"go wtime 1000 btime 1000", "go wtime 1000 btime 1000"},
		{"go ponder wtime 300000 btime 300000 movestogo 39", "go ponder wtime 300000 btime 300000 movestogo 39"},
		{"go depth 7 movetime 1980", "go depth 7 movetime 1980"},
		{"go movetime 1980 depth 7", "go depth 7 movetime 1980"},
		{"go searchmoves e2e4 d2d4 wtime 5 btime -15 winc 2 binc 3", "go wtime 5 btime -15 winc 2 binc 3 searchmoves e2e4 d2d4"},
		{"go infinite", "go infinite"},
		{"go mate 0 nodes 1000", "go nodes 1000 mate 0"},
		{"go movetime 0", "go movetime 0"},
	} {
		c, _ := ParseCommand(tc.line)
		if got := c.Go.String(); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.line, got, tc.want)
		}
	}
}
