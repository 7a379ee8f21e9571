package learn

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/internal/hostilepgn"
)

// describeGames writes down what the reader of a host's PGN took in: each
// game's place, name and text as read.
func describeGames(games []*hostGame) string {
	var b strings.Builder
	for _, g := range games {
		fmt.Fprintf(&b, "gen %d at %d hash %016x", g.gen, g.offset, g.hash)
		if g.game == nil {
			fmt.Fprintf(&b, " error %v\n", g.err)
			continue
		}
		fmt.Fprintf(&b, " result %q white %q black %q fen %q:", g.game.Result, g.game.Tag("White"), g.game.Tag("Black"), g.game.Tag("FEN"))
		for i := range g.game.NumMoves() {
			fmt.Fprintf(&b, " %s", g.game.Move(i))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// readHostPGN reads text written to a new file in pieces cut at cuts (a
// look after each), or at once when cuts is empty, and returns the games
// taken in.
func readHostPGN(t testing.TB, path string, text []byte, cuts []int) []*hostGame {
	h := newHostPGN(path, time.Now)
	if err := h.refresh(); err != nil { // no file yet
		t.Fatal(err)
	}
	done := 0
	for _, c := range append(cuts, len(text)) {
		if c < done || c > len(text) {
			continue
		}
		appendFile(t, path, string(text[done:c]))
		done = c
		if err := h.refresh(); err != nil {
			t.Fatal(err)
		}
		// What is checked at the next look to tell a file written anew:
		// the last bytes read, where they are.
		if h.next != int64(done) || h.tailAt+int64(len(h.tail)) != h.next || len(h.tail) != min(tailLen, done) || string(h.tail) != string(text[h.tailAt:h.next]) {
			t.Fatalf("after reading %d bytes: %d bytes read, tail %q at %d", done, h.next, h.tail, h.tailAt)
		}
	}
	return h.games
}

// The host's PGN read while it is written, a piece at a time, gives the
// games read from the whole file at once: the same places, the same texts
// (a game is taken only whole), CRLF or not, whatever the cuts, and
// whatever the windows the file is read in (the first cut picks them, from
// 1 byte: cut inside lines, tags and tokens).
func FuzzHostPGNPieces(f *testing.F) {
	g := func(result, moves string) string {
		return fmt.Sprintf("[Event \"?\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"%s\"]\n\n%s {comment} %s\n\n", result, moves, result)
	}
	two := g("1-0", "1. e4 e5 2. Nf3") + g("1/2-1/2", "1. d4 {+0.1/3 0.2s} d5 2. c4 (2. Nf3 Nf6) e6")
	f.Add([]byte(two), []byte{3, 40, 41, 77, 200})
	f.Add([]byte(strings.ReplaceAll(two, "\n", "\r\n")), []byte{1, 2, 3, 4, 5, 6, 100})
	f.Add([]byte("\xef\xbb\xbf"+two+"[Event \"x\"]\n1. e4 {open"), []byte{2, 90})
	f.Add([]byte(g("0-1", "1. f3 e5 2. g4 Qh4#")+"{a comment between games}\n"+g("*", "1. e4")), []byte{60, 61, 62, 120})
	f.Add([]byte("[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n[Result \"1-0\"]\n\n1. Kb1 1-0xyz 1-0\n\n"), []byte{52, 53, 54})
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, text, cutBytes []byte) {
		if len(text) > 4096 || len(cutBytes) > 64 {
			return
		}
		sub, err := os.MkdirTemp(dir, "")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(sub)
		var cuts []int
		pos := 0
		for _, c := range cutBytes {
			pos += int(c)
			cuts = append(cuts, pos)
		}
		whole := describeGames(readHostPGN(t, filepath.Join(sub, "whole.pgn"), text, nil))
		if len(cutBytes) > 0 {
			defer setHostWindow(int(cutBytes[0])%64 + 1)()
		}
		pieces := describeGames(readHostPGN(t, filepath.Join(sub, "pieces.pgn"), text, cuts))
		if whole != pieces {
			t.Fatalf("read whole:\n%s\nread in pieces at %v in windows of %d:\n%s", whole, cuts, hostWindow, pieces)
		}
	})
}

// appendFile adds text to the file at path, creating it if need be.
func appendFile(t testing.TB, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// hostRound is a short game of the host's, told apart by its round.
func hostRound(round int, moves string) string {
	return fmt.Sprintf("[Event \"?\"]\n[Round \"%d\"]\n[Result \"1-0\"]\n\n%s 1-0\n\n", round, moves)
}

func rounds(games []*hostGame) []string {
	var out []string
	for _, g := range games {
		out = append(out, fmt.Sprintf("gen %d round %s at %d", g.gen, g.game.Tag("Round"), g.offset))
	}
	return out
}

// A file truncated and written anew that has grown past where reading
// stopped by the time it is read again (its reader ran late) is read anew
// from its start: no game written since the truncation is passed over.
func TestHostPGNRewrittenPastWhereReadingStopped(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.pgn")
	h := newHostPGN(path, time.Now)
	if err := h.refresh(); err != nil { // no file yet
		t.Fatal(err)
	}
	appendFile(t, path, hostRound(1, "1. e4 e5"))
	if err := h.refresh(); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	second := hostRound(2, "1. d4 d5 2. c4 e6")
	appendFile(t, path, second)
	appendFile(t, path, hostRound(3, "1. c4"))
	if err := h.refresh(); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(rounds(h.games), "; ")
	want := fmt.Sprintf("gen 1 round 1 at 0; gen 2 round 2 at 0; gen 2 round 3 at %d", len(second))
	if got != want {
		t.Errorf("games read: %s\nwant %s", got, want)
	}
}

// Where the file ended as a game started (the loop's stat, at a time), in
// the generations its reader read, which may have read it only later:
// every game written after is after the mark, and none written before is
// but where the file was written anew unseen.
func TestHostPGNMarkOfAStat(t *testing.T) {
	one, two, three := hostRound(1, "1. e4 e5"), hostRound(2, "1. d4 d5 2. c4"), hostRound(3, "1. c4")
	for _, c := range []struct {
		name string
		// steps: "write N" appends round N, "truncate", "rotate" (a new
		// file takes the name), "anew" (a new file holding what the file
		// held takes the name), "read" (the reader looks), "start" (the
		// game starts: the loop stats the file).
		steps string
		after []string // the rounds read after the mark, by generation
	}{
		{"no file, read after", "start write2 read", []string{"gen 1 round 2 at 0"}},
		{"read before", "write1 read start write2 read", []string{fmt.Sprintf("gen 1 round 2 at %d", len(one))}},
		{"read only after", "write1 start write2 read", []string{fmt.Sprintf("gen 1 round 2 at %d", len(one))}},
		{"read only after, truncated before", "write1 write2 start truncate write3 read", []string{"gen 1 round 3 at 0"}},
		{"replaced before read", "write1 read start rotate write3 read", []string{"gen 2 round 3 at 0"}},
		{"gone, then a new file", "write1 read rotate start write3 read", []string{"gen 2 round 3 at 0"}},
		{"truncated after", "write1 write2 read start truncate write3 read", []string{"gen 2 round 3 at 0"}},
		// Written anew before the start: the file's last bytes then say
		// what it held.
		{"truncated before, read only after", "write1 read truncate write2 start write3 read", []string{fmt.Sprintf("gen 2 round 3 at %d", len(two))}},
		// A file written anew with what it held is the same file grown.
		{"written anew after, read before", "write1 read start anew write3 read", []string{fmt.Sprintf("gen 1 round 3 at %d", len(one))}},
		{"written anew after, read only after", "write1 start anew write3 read", []string{fmt.Sprintf("gen 1 round 3 at %d", len(one))}},
		{"written anew before, read before", "write1 read anew start write3 read", []string{fmt.Sprintf("gen 1 round 3 at %d", len(one))}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "games.pgn")
			clk := &clock{t: time.Now()}
			h := newHostPGN(path, clk.now)
			texts := map[string]string{"write1": one, "write2": two, "write3": three}
			var at time.Time
			var st PGNStat
			for i, step := range strings.Fields(c.steps) {
				clk.pass(time.Second)
				switch step {
				case "start":
					at, st = clk.now(), statNow(path)
				case "read":
					if err := h.refresh(); err != nil {
						t.Fatal(err)
					}
				case "truncate":
					if err := os.Truncate(path, 0); err != nil {
						t.Fatal(err)
					}
				case "rotate":
					if err := os.Rename(path, filepath.Join(dir, fmt.Sprint(i))); err != nil {
						t.Fatal(err)
					}
				case "anew":
					next := filepath.Join(dir, fmt.Sprint(i))
					if err := os.WriteFile(next, fixture.ReadFile(t, path), 0o644); err != nil {
						t.Fatal(err)
					}
					if err := os.Rename(next, path); err != nil {
						t.Fatal(err)
					}
				default:
					appendFile(t, path, texts[step])
				}
			}
			m := h.markOf(st, at)
			var after []*hostGame
			for _, g := range h.games {
				if g.after(m) {
					after = append(after, g)
				}
			}
			if got := rounds(after); strings.Join(got, "; ") != strings.Join(c.after, "; ") {
				t.Errorf("mark %+v: after it %q, want %q (all read: %q)", m, got, c.after, rounds(h.games))
			}
		})
	}
}

// setHostWindow reads the host's PGN in windows of n bytes until the
// function it returns is called.
func setHostWindow(n int) func() {
	old := hostWindow
	hostWindow = n
	return func() { hostWindow = old }
}

// refreshingWriter appends what is written to the host's PGN and looks at
// it after each write, as the host writes a game while the proxy reads,
// counting the bytes the looks allocate.
type refreshingWriter struct {
	t         testing.TB
	h         *hostPGN
	allocated uint64
}

func (w *refreshingWriter) Write(p []byte) (int, error) {
	appendFile(w.t, w.h.path, string(p))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err := w.h.refresh()
	runtime.ReadMemStats(&after)
	w.allocated += after.TotalAlloc - before.TotalAlloc
	return len(p), err
}

// writeHostile writes a hostile input to a new host's PGN as a host would,
// a piece at a time, with a look after each; it returns the reader and
// what its looks allocated.
func writeHostile(t testing.TB, shape hostilepgn.Shape, size int64) (*hostPGN, uint64) {
	h := newHostPGN(filepath.Join(t.TempDir(), "games.pgn"), time.Now)
	if err := h.refresh(); err != nil { // no file yet
		t.Fatal(err)
	}
	w := &refreshingWriter{t: t, h: h}
	if err := hostilepgn.Write(w, hostilepgn.Options{Shape: shape, Size: size, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	return h, w.allocated
}

// A game with a huge comment, on one line or over lines (some like tags),
// written while the proxy reads, is found with the games around it, as
// with a short comment, and reading it holds no more than the windows:
// the game being written is read again from the file, never kept. (At
// 1 MiB in windows of 4 KiB; the same reading of a 200 MB comment is
// BenchmarkHostPGNHostile's.)
func TestHostPGNHugeComment(t *testing.T) {
	defer setHostWindow(4 << 10)()
	for _, shape := range []hostilepgn.Shape{hostilepgn.CommentOneLine, hostilepgn.CommentLines, hostilepgn.CommentTagLines} {
		t.Run(string(shape), func(t *testing.T) {
			small, _ := writeHostile(t, shape, 100)
			want := gamesRead(small.games)
			if len(want) != 4 {
				t.Fatalf("with a short comment: %q", want)
			}
			h, allocated := writeHostile(t, shape, 1<<20)
			if got := gamesRead(h.games); !slices.Equal(got, want) {
				t.Fatalf("with a comment of 1 MiB: %q, want %q", got, want)
			}
			if allocated > 256<<10 {
				t.Errorf("reading a game with a comment of 1 MiB allocated %d bytes", allocated)
			}
		})
	}
}

// gamesRead names the games taken: their Event tag, result and moves.
func gamesRead(games []*hostGame) []string {
	var out []string
	for _, g := range games {
		if g.game == nil {
			out = append(out, g.err.Error())
			continue
		}
		s := fmt.Sprintf("%s %s:", g.game.Tag("Event"), g.game.Result)
		for i := range g.game.NumMoves() {
			s += " " + string(g.game.Move(i))
		}
		out = append(out, s)
	}
	return out
}

var hostileSize = flag.Int64("hostile-size", 16<<20, "the hostile part's size in BenchmarkHostPGNHostile (bytes, plies or games by shape)")

// BenchmarkHostPGNHostile: the first look at a host's PGN holding a game
// with a huge comment (one line, or over lines) reads it in the windows'
// memory; B/op is what the look allocates. By hand for the 200 MB case:
// -hostile-size 200000000 under /usr/bin/time -v.
func BenchmarkHostPGNHostile(b *testing.B) {
	for _, shape := range []hostilepgn.Shape{hostilepgn.CommentOneLine, hostilepgn.CommentLines} {
		b.Run(string(shape), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "games.pgn")
			f, err := os.Create(path)
			if err != nil {
				b.Fatal(err)
			}
			if err := hostilepgn.Write(f, hostilepgn.Options{Shape: shape, Size: *hostileSize, Seed: 1}); err != nil {
				b.Fatal(err)
			}
			size, err := f.Seek(0, io.SeekCurrent)
			if err != nil {
				b.Fatal(err)
			}
			if err := f.Close(); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(size)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				// The file appears after the first look, so the second reads it
				// all.
				h := newHostPGN(path+".later", time.Now)
				if err := h.refresh(); err != nil {
					b.Fatal(err)
				}
				if err := os.Rename(path, path+".later"); err != nil {
					b.Fatal(err)
				}
				if err := h.refresh(); err != nil {
					b.Fatal(err)
				}
				if len(h.games) != 4 {
					b.Fatalf("%d games read", len(h.games))
				}
				if err := os.Rename(path+".later", path); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// statNow is the host's PGN file now as the proxy's loop takes it as a
// game starts: the stat before its answer, the last bytes just after.
func statNow(path string) PGNStat {
	st := StatPGN(path)
	st.ReadTail()
	return *st
}

// The loop's stat as a game starts does not open the file: the host may
// hold it, or the disk be slow, and the answer must not wait. Its last
// bytes are read once the answer is out (ReadTail).
func TestStatPGNOnlyStats(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.pgn")
	appendFile(t, path, hostRound(1, "1. e4 e5"))
	st := StatPGN(path)
	if !st.known || st.file == nil || st.tail != nil {
		t.Fatalf("the stat: known %v, file %v, %d bytes read", st.known, st.file != nil, len(st.tail))
	}
	appendFile(t, path, hostRound(2, "1. d4 d5")) // a game written since: not in the tail
	st.ReadTail()
	if want := hostRound(1, "1. e4 e5"); string(st.tail) != want[max(0, len(want)-tailLen):] {
		t.Fatalf("tail %q", st.tail)
	}
}

// BenchmarkStatPGN is what the proxy's loop spends on the host's PGN as
// the GUI starts a game: a stat before its answer, and the file's last
// bytes read after it.
func BenchmarkStatPGN(b *testing.B) {
	path := filepath.Join(b.TempDir(), "games.pgn")
	appendFile(b, path, strings.Repeat(hostRound(1, "1. e4 e5"), 100))
	b.Run("stat", func(b *testing.B) {
		for range b.N {
			if _, err := os.Stat(path); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("StatPGN", func(b *testing.B) {
		for range b.N {
			if st := StatPGN(path); st.file == nil {
				b.Fatal("no file")
			}
		}
	})
	b.Run("ReadTail", func(b *testing.B) {
		st := StatPGN(path)
		for range b.N {
			st.ReadTail()
			if len(st.tail) != tailLen {
				b.Fatalf("%d bytes read", len(st.tail))
			}
		}
	})
}
