package learn

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/abk"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/book/polyglot"
	"github.com/polyproxy/polyproxy/internal/fixture"
)

// Tests of live learning from the host's PGN (BookLearnPGN). The model is
// learn -pgn: after any tournament, a book learned live must be, byte for
// byte, the book learn -pgn writes from the tournament's PGN.

// hosted is a game as a host plays it, writes it, and shows it to each
// engine.
type hosted struct {
	fen          string // the FEN the host starts from and writes ("": the start position)
	chess960     bool
	moves        []board.Move
	pos          []board.Position // pos[i] is the game before move i
	keys         []board.Key
	white, black string
	result       string
	termination  string
	// extra is a last move of ours the host never played (we lost on
	// time with it under way); 0: none.
	extra board.Move
	// bothSides: one proxy moved for both sides (the GUI switched its
	// side during the game).
	bothSides bool
}

func newHosted(t testing.TB, fen string, chess960 bool, moves []board.Move, white, black, result string) *hosted {
	t.Helper()
	start := board.StartFEN
	if fen != "" {
		start = fen
	}
	p, err := board.ParseFENVariant(start, chess960)
	if err != nil {
		t.Fatal(err)
	}
	g := &hosted{fen: fen, chess960: chess960, white: white, black: black, result: result, termination: "adjudication"}
	pos := *p
	for _, m := range moves {
		if _, err := pos.LegalMove(m); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		g.pos, g.keys = append(g.pos, pos), append(g.keys, pos.Key())
		pos.Play(m)
	}
	g.pos, g.keys, g.moves = append(g.pos, pos), append(g.keys, pos.Key()), slices.Clone(moves)
	return g
}

// randomMoves plays n random legal moves from pos (fewer if the game
// ends), mostly among the first few so that lines meet again.
func randomMoves(rng *rand.Rand, pos board.Position, n int) []board.Move {
	var out []board.Move
	for range n {
		legal := pos.LegalMoves()
		if len(legal) == 0 {
			break
		}
		m := legal[rng.IntN(min(len(legal), 3+rng.IntN(len(legal))))]
		out = append(out, m)
		pos.Play(m)
	}
	return out
}

// pgn is the game as cutechess-cli writes it: its tags, the moves in SAN
// with a comment each, the termination's comment and the result.
func (g *hosted) pgn(round int, crlf bool) string {
	var b strings.Builder
	tag := func(name, value string) { fmt.Fprintf(&b, "[%s \"%s\"]\n", name, value) }
	tag("Event", "?")
	tag("Site", "?")
	tag("Date", "2026.07.30")
	tag("Round", fmt.Sprint(round))
	tag("White", g.white)
	tag("Black", g.black)
	tag("Result", g.result)
	if g.fen != "" {
		tag("FEN", g.fen)
		tag("SetUp", "1")
	}
	if g.chess960 {
		tag("Variant", "fischerandom")
	}
	tag("PlyCount", fmt.Sprint(len(g.moves)))
	tag("Termination", g.termination)
	b.WriteString("\n")
	for i, m := range g.moves {
		p := g.pos[i]
		if p.WhiteToMove() {
			fmt.Fprintf(&b, "%d. ", p.FullMove())
		} else if i == 0 {
			fmt.Fprintf(&b, "%d... ", p.FullMove())
		}
		fmt.Fprintf(&b, "%s {%+.2f/%d 0.%03ds} ", p.SAN(m), float64(i%7-3)/10, 5+i%9, i%1000)
		if i%6 == 5 {
			b.WriteString("\n")
		}
	}
	fmt.Fprintf(&b, "{Draw by adjudication} %s\n\n", g.result)
	s := b.String()
	if crlf {
		s = strings.ReplaceAll(s, "\n", "\r\n")
	}
	return s
}

// turns are the calls the adapter makes for one side of g, as a UCI host
// plays it, after ucinewgame: for each of our turns the GUI's position
// (the first with the game's line from its base) and our move. The host
// ends the game on its last move: on the opponent's, the GUI sends us
// nothing more; with an extra move, we were asked once more and answered
// too late.
func (g *hosted) turns(s *Session, white bool) []func() {
	var out []func()
	for _, turn := range g.loopTurns(s, s.settings.PGN, white) {
		out = append(out, func() { turn()() })
	}
	return out
}

// loopTurns are turns as the adapter makes them: its loop, as the GUI
// sends the position, notes what the session needs of that moment (when
// the game started, the host's PGN at pgnPath then); the session's calls
// it returns are made then or, beside the loop, later.
func (g *hosted) loopTurns(s *Session, pgnPath string, white bool) []func() (calls func()) {
	return g.seatTurns(s, pgnPath, seatPlay{white: white, switchAt: -1})
}

// seatPlay is how a GUI has one proxy play a game: the side it starts
// with; where (by the ply of our position) the GUI takes a move of ours
// back (1: our move, played again at once; 3: our move, a reply and our
// next move, then ours again), each with other moves of ours first; and
// where it plays a move in our place and has us play the other side from
// then on (-1: never).
type seatPlay struct {
	white     bool
	takeBacks map[int]int
	switchAt  int
}

// alternative is a legal move of pos other than m, and whether there is
// one.
func alternative(pos board.Position, m board.Move) (board.Move, bool) {
	for _, o := range pos.LegalMoves() {
		if o != m {
			return o, true
		}
	}
	return 0, false
}

// sides reports the sides the proxy has moves of in the game as sp plays
// it (a move taken back or played by the GUI in its place is not one).
func (g *hosted) sides(sp seatPlay) (white, black bool) {
	side := sp.white
	for i := range len(g.moves) + 1 {
		if g.pos[i].WhiteToMove() != side || i == len(g.moves) && g.extra == 0 {
			continue
		}
		if i == sp.switchAt {
			side = !side
			continue
		}
		if side {
			white = true
		} else {
			black = true
		}
	}
	return white, black
}

// seatTurns are loopTurns as sp plays g.
func (g *hosted) seatTurns(s *Session, pgnPath string, sp seatPlay) []func() (calls func()) {
	var out []func() func()
	first := true
	side := sp.white
	for i := range len(g.moves) + 1 {
		pos := g.pos[i]
		if pos.WhiteToMove() != side || i == len(g.moves) && g.extra == 0 {
			continue
		}
		next := pos
		if i < len(g.moves) {
			next = g.pos[i+1]
		} else {
			next.Play(g.extra)
		}
		line := slices.Clone(g.keys[:i+1])
		starts := first
		first = false
		white := side
		var taken []board.Position // the positions after our moves taken back, and the GUI's between
		if sp.takeBacks[i] > 0 || i == sp.switchAt {
			taken = g.takenBack(i, sp.takeBacks[i])
		}
		switched := i == sp.switchAt
		if switched {
			side = !side
		}
		out = append(out, func() func() {
			at, pgn := s.fromPGN.now(), statNow(pgnPath)
			return func() {
				s.Position(pos, !starts)
				if starts {
					s.GameStart(at, line, pgn)
				}
				for j, p := range taken {
					if j%2 == 0 {
						s.EngineScore(white, 20, 0, false)
						s.AfterBestmove(p)
					} else {
						s.Position(p, true)
					}
				}
				if switched {
					return // the GUI plays the move, and asks us for the other side
				}
				if len(taken) > 0 {
					s.Position(pos, true) // taken back
				}
				s.EngineScore(white, 20, 0, false)
				s.AfterBestmove(next)
			}
		})
	}
	return out
}

// seatPlayOf picks how the GUI has a proxy play g, starting with White
// or not: in a fifth of the games it plays our move and switches our side
// (at our first move in half of those), provided we then move for the
// other side, and the game is not one alike in every move to another
// (canSwitch); and it takes back an eighth of our moves.
func (g *hosted) seatPlayOf(rng *rand.Rand, white, canSwitch bool) seatPlay {
	sp := seatPlay{white: white, switchAt: -1, takeBacks: map[int]int{}}
	var ours []int
	for i := range len(g.moves) + 1 {
		if g.pos[i].WhiteToMove() == white && (i < len(g.moves) || g.extra != 0) {
			ours = append(ours, i)
		}
	}
	if canSwitch && g.extra == 0 && len(ours) > 0 && rng.IntN(5) == 0 {
		at := ours[0]
		if rng.IntN(2) == 0 {
			at = ours[rng.IntN(len(ours))]
		}
		if at+1 < len(g.moves) {
			sp.switchAt = at
		}
	}
	side := white
	for i := range len(g.moves) {
		if g.pos[i].WhiteToMove() != side {
			continue
		}
		if i == sp.switchAt {
			side = !side
			continue
		}
		if rng.IntN(8) == 0 {
			sp.takeBacks[i] = 1 + 2*rng.IntN(2)
		}
	}
	return sp
}

// takenBack is what a proxy plays, at ply i of g, before the GUI takes it
// back (or plays its own move in its place): the position after another
// move of ours, and for plies 3, after a reply and our next move too.
func (g *hosted) takenBack(i, plies int) []board.Position {
	pos := g.pos[i]
	var m board.Move
	if i < len(g.moves) {
		m = g.moves[i]
	}
	other, ok := alternative(pos, m)
	if !ok {
		return nil
	}
	pos.Play(other)
	out := []board.Position{pos}
	for range plies - 1 {
		legal := pos.LegalMoves()
		if len(legal) == 0 {
			break
		}
		pos.Play(legal[0])
		out = append(out, pos)
	}
	if len(out)%2 == 0 {
		out = out[:len(out)-1] // the reply without our move: the GUI asked nothing
	}
	return out
}

// playAs drives s through one side of g alone.
func (g *hosted) playAs(s *Session, white bool) {
	s.NewGame()
	for _, turn := range g.turns(s, white) {
		turn()
	}
}

// bookOf makes a book of the first plies of games, each entry with an
// initial learn value, and an extra move never played in some positions.
func bookOf(t testing.TB, rng *rand.Rand, games []*hosted, plies int) []book.Entry {
	t.Helper()
	type id struct {
		k board.Key
		m board.Move
	}
	seen := map[id]bool{}
	var entries []book.Entry
	for _, g := range games {
		for i := range min(plies, len(g.moves)) {
			pos := g.pos[i]
			if pos.NoKeyReason() != "" {
				continue
			}
			stored := pos.ToBook(g.moves[i])
			if seen[id{g.keys[i], stored}] || rng.IntN(8) == 0 {
				continue
			}
			seen[id{g.keys[i], stored}] = true
			entries = append(entries, book.Entry{Key: g.keys[i], Move: stored, Weight: uint16(1 + rng.IntN(100)), Learn: book.MakeLearn(int64(rng.IntN(5)), int64(rng.IntN(5)))})
		}
	}
	return entries
}

// writeBookFile writes entries as a Polyglot book, or an ABK one, at path.
func writeBookFile(t testing.TB, path string, entries []book.Entry, asABK bool) {
	t.Helper()
	es := slices.Clone(entries)
	slices.SortStableFunc(es, func(a, b book.Entry) int {
		switch {
		case a.Key < b.Key:
			return -1
		case a.Key > b.Key:
			return 1
		}
		return 0
	})
	if asABK {
		if _, err := abk.Write(path, book.FromEntries("test", es), 60); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err := polyglot.WriteFile(path, es); err != nil {
		t.Fatal(err)
	}
}

// learnPGNModel is learn -pgn: the book at path after counting the games
// of text for player, as the command counts them.
func learnPGNModel(t testing.TB, path, text, player string) []byte {
	t.Helper()
	b, err := formats.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	updates, _, err := FromPGN(strings.NewReader(text), b, player, nil)
	b.Close()
	if err != nil {
		t.Fatal(err)
	}
	lf, err := formats.OpenLearnFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer lf.Close()
	if _, err := lf.Apply(t.Context(), updates); err != nil {
		t.Fatal(err)
	}
	return fixture.ReadFile(t, path)
}

// clock is the sessions' time: each step of a game takes a little of it,
// and sleeping passes it at once.
type clock struct {
	t       time.Time
	onSleep func()
}

func (c *clock) now() time.Time { return c.t }
func (c *clock) sleep(d time.Duration) {
	c.t = c.t.Add(d)
	if c.onSleep != nil {
		c.onSleep()
	}
}
func (c *clock) pass(d time.Duration) { c.t = c.t.Add(d) }

// pgnSession is a session learning into books from the host PGN at pgn,
// on clk, keeping its claims in claims.
func pgnSession(clk *clock, claims, pgn string, books ...string) (*Session, *logs) {
	s, l, set := pgnSessionUnset(clk, claims, pgn, books...)
	s.SetLearning(set)
	return s, l
}

// pgnSessionUnset is pgnSession with its settings not given yet.
func pgnSessionUnset(clk *clock, claims, pgn string, books ...string) (*Session, *logs, Settings) {
	s, l := newTestSession()
	s.fromPGN.now, s.fromPGN.sleep, s.fromPGN.claims = clk.now, clk.sleep, claims
	set := learning(true, books...)
	set.PGN = pgn
	return s, l, set
}

func (l *logs) count(s string) int {
	n := 0
	for _, v := range append(slices.Clone(l.info), l.warn...) {
		if strings.Contains(v, s) {
			n++
		}
	}
	return n
}

// tellable reports that the proxies of two games, each seeing every
// position of its game but the last one or two (the opponent's last move,
// our last move lost on time), can tell them apart: they part two plies
// or more before the end of either. Games that do not, or start from
// different positions, may be counted one for the other.
func tellable(a, b *hosted) bool {
	if a.keys[0] != b.keys[0] {
		return true
	}
	c := 0
	for c < len(a.moves) && c < len(b.moves) && a.moves[c] == b.moves[c] {
		c++
	}
	return c <= min(len(a.moves), len(b.moves))-2
}

var tournaments = flag.Int("tournaments", 60, "the seeded tournaments TestLiveLearningFromHostPGNMatchesLearnPGN plays (by hand: thousands)")

// A tournament in rounds: each proxy (a session, all learning into one
// book or each into its own) plays a game a round, some games a pair of
// proxies against each other; the host writes each round's games in some
// order, some of them only during the next round; the file may not exist
// at first, may hold older games (one with the very moves a proxy plays
// later), and may be rotated or truncated between rounds. Games share long
// prefixes or are identical, start from FEN positions or an opening's
// moves, or are Chess960; some end on the opponent's move, some on a time
// loss with our move under way. After the sessions close, every book is
// byte for byte what learn -pgn writes from all the games written.
func TestLiveLearningFromHostPGNMatchesLearnPGN(t *testing.T) {
	seeds := *tournaments
	if testing.Short() {
		seeds = min(seeds, 15)
	}
	for seed := 1; seed <= seeds; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { tournament(t, uint64(seed)) })
	}
}

func tournament(t *testing.T, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 31))
	dir := t.TempDir()
	clk := &clock{t: time.Now()}
	pgnPath := filepath.Join(dir, "games.pgn")
	proxies := 1 + rng.IntN(3)
	shared := rng.IntN(2) == 0
	abk := rng.IntN(4) == 0
	crlf := rng.IntN(3) == 0
	kind := rng.IntN(4) // 0 start position, 1 FEN suite, 2 an opening's moves, 3 Chess960
	rounds := 3 + rng.IntN(4)
	names := make([]string, proxies)
	for i := range names {
		names[i] = "proxy"
		if !shared {
			names[i] = fmt.Sprintf("proxy%d", i)
		}
	}

	// The openings.
	var openings []*hosted
	for range 3 {
		switch kind {
		case 1, 3:
			fen := board.Chess960StartFEN(518)
			if kind == 3 {
				fen = board.Chess960StartFEN(rng.IntN(960))
			}
			p, _ := board.ParseFENVariant(fen, kind == 3)
			ms := randomMoves(rng, *p, 2+rng.IntN(6))
			o := newHosted(t, fen, kind == 3, ms, "", "", "")
			if kind == 1 {
				fen = o.pos[len(ms)].FEN() // an EPD suite's position, the game's FEN
				o = newHosted(t, fen, false, nil, "", "", "")
			} else {
				fen = o.pos[len(ms)].ShredderFEN()
				o = newHosted(t, fen, true, nil, "", "", "")
			}
			openings = append(openings, o)
		case 2:
			openings = append(openings, newHosted(t, "", false, randomMoves(rng, *board.StartPosition(), 4+rng.IntN(6)), "", "", ""))
		default:
			openings = append(openings, newHosted(t, "", false, nil, "", "", ""))
		}
	}

	// Every round's games, made first so that the book can hold their
	// openings.
	type seat struct {
		game  *hosted
		proxy int
		play  seatPlay
	}
	// Take-backs and colour switches, and how the host writes its file,
	// come from a stream of their own: the rest of each seed's tournament
	// is as it was without them.
	playRng := rand.New(rand.NewPCG(seed, 53))
	results := []string{"1-0", "0-1", "1/2-1/2"}
	var all []*hosted
	var rounds_ [][]seat
	for range rounds {
		var seats []seat
		var played []*hosted
		free := rng.Perm(proxies)
		for len(free) > 0 {
			// A game like another of the round (the same moves, or a long
			// common prefix), or a new one; each must be told apart from
			// every other game by what its proxies see (tellable).
			var g *hosted
			var same *hosted // a game with the very moves of this one
			for g == nil {
				o := openings[rng.IntN(len(openings))]
				fen, chess960 := o.fen, o.chess960
				var moves []board.Move
				same = nil
				switch k := rng.IntN(6); {
				case len(played) > 0 && k < 2:
					same = played[rng.IntN(len(played))]
					if same.bothSides {
						// A proxy moved for both sides there: a game alike
						// in every move it saw has other proxies on its
						// sides, whose claims may leave it none.
						continue
					}
					fen, chess960, moves = same.fen, same.chess960, same.moves
				case len(played) > 0 && k < 4:
					other := played[rng.IntN(len(played))]
					cut := len(other.moves) * (2 + rng.IntN(3)) / 5
					fen, chess960 = other.fen, other.chess960
					moves = append(slices.Clone(other.moves[:cut]), randomMoves(rng, other.pos[cut], 1+rng.IntN(12))...)
				default:
					moves = append(slices.Clone(o.moves), randomMoves(rng, o.pos[len(o.moves)], 6+rng.IntN(40))...)
				}
				if len(moves) == 0 {
					continue // the game ended in the opening
				}
				g = newHosted(t, fen, chess960, moves, "", "", results[rng.IntN(3)])
				if same != nil {
					// Identical games have identical results: either
					// may be counted for either proxy.
					g.result = same.result
				} else if rng.IntN(6) == 0 {
					// A time loss with our move under way: we were asked
					// to move after the last move, and the host wrote the
					// game without ours.
					last := g.pos[len(moves)]
					if legal := last.LegalMoves(); len(legal) > 0 {
						g.extra = legal[rng.IntN(len(legal))]
						g.result = map[bool]string{true: "0-1", false: "1-0"}[last.WhiteToMove()]
						g.termination = "time forfeit"
					}
				}
				for _, other := range all {
					if !tellable(g, other) && !slices.Equal(g.moves, other.moves) {
						g = nil
						break
					}
				}
			}
			white := rng.IntN(2) == 0
			p := free[0]
			free = free[1:]
			g.white, g.black = names[p], "sf"
			if !white {
				g.white, g.black = "sf", names[p]
			}
			var pair = -1
			if len(free) > 0 && rng.IntN(3) == 0 { // two proxies play each other
				pair = free[0]
				free = free[1:]
				if white {
					g.black = names[pair]
				} else {
					g.white = names[pair]
				}
			}
			play := seatPlay{white: white, switchAt: -1}
			if pair < 0 {
				// The GUI may take moves back, and play a move in our
				// place and switch our side: the host names us on the
				// sides we have moves on in the game it writes.
				play = g.seatPlayOf(playRng, white, same == nil)
				w, b := g.sides(play)
				g.white, g.black = map[bool]string{true: names[p], false: "sf"}[w], map[bool]string{true: names[p], false: "sf"}[b]
				g.bothSides = w && b
			}
			played = append(played, g)
			all = append(all, g)
			seats = append(seats, seat{g, p, play})
			if pair >= 0 {
				seats = append(seats, seat{g, pair, seatPlay{white: !white, switchAt: -1}})
			}
		}
		rounds_ = append(rounds_, seats)
	}

	// The books, made from the games' openings.
	ext := ".bin"
	if abk {
		ext = ".abk"
	}
	entries := bookOf(t, rng, all, 24)
	bookPaths := make([]string, proxies)
	for i := range bookPaths {
		bookPaths[i] = filepath.Join(dir, "book"+ext)
		if !shared {
			bookPaths[i] = filepath.Join(dir, fmt.Sprintf("book%d%s", i, ext))
		}
		writeBookFile(t, bookPaths[i], entries, abk)
	}
	initial := fixture.ReadFile(t, bookPaths[0])

	// Older games in the file, one with the moves a proxy plays later.
	if rng.IntN(2) == 0 {
		old := *all[len(all)-1]
		old.white, old.black, old.result = "old1", "old2", "1-0"
		appendFile(t, pgnPath, old.pgn(0, crlf))
	}

	// The sessions' calls, as the adapter makes them beside its loop, may
	// come late: in some tournaments each proxy's calls wait, from its
	// settings on, and are made a few at a time, whole games later.
	lagRng := rand.New(rand.NewPCG(seed, 97))
	lag := lagRng.IntN(2) == 0
	sessions := make([]*Session, proxies)
	logsOf := make([]*logs, proxies)
	queued := make([][]func(), proxies)
	call := func(i int, f func()) {
		if lag {
			queued[i] = append(queued[i], f)
		} else {
			f()
		}
	}
	catchUp := func(i, n int) {
		n = min(n, len(queued[i]))
		for _, f := range queued[i][:n] {
			f()
		}
		queued[i] = queued[i][n:]
	}
	for i := range sessions {
		var set Settings
		sessions[i], logsOf[i], set = pgnSessionUnset(clk, filepath.Join(dir, "claims"), pgnPath, bookPaths[i])
		call(i, func() { sessions[i].SetLearning(set) })
	}
	var written strings.Builder // every game of the tournament the host wrote
	// The host appends each game to its file, or writes the file anew with
	// what it held and the game: in place (and a proxy may look at it
	// halfway), or by renaming a new file into place.
	hostWrites := playRng.IntN(3) // 0 append, 1 rewrite, 2 rename
	content := ""                 // what the file holds, as the host knows it
	if text, err := os.ReadFile(pgnPath); err == nil {
		content = string(text)
	}
	write := func(g *hosted, round int) {
		text := g.pgn(round, crlf)
		written.WriteString(text)
		content += text
		switch hostWrites {
		case 0:
			appendFile(t, pgnPath, text)
		case 1:
			cut := len(content)
			if !lag && playRng.IntN(3) == 0 {
				cut = playRng.IntN(len(content))
			}
			if err := os.WriteFile(pgnPath, []byte(content[:cut]), 0o644); err != nil {
				t.Fatal(err)
			}
			if cut < len(content) {
				sessions[playRng.IntN(proxies)].hostPGN(pgnPath) // a look, halfway
				appendFile(t, pgnPath, content[cut:])
			}
		case 2:
			next := pgnPath + ".next"
			if err := os.WriteFile(next, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(next, pgnPath); err != nil {
				t.Fatal(err)
			}
		}
	}
	var late []*hosted
	lateRound := 0
	for r, seats := range rounds_ {
		// The proxies' games of the round run at once: a new game for
		// each, then each one's turns in turn; the last round's late
		// games are written during them.
		var turns [][]func() func()
		for _, st := range seats {
			call(st.proxy, sessions[st.proxy].NewGame)
			turns = append(turns, st.game.seatTurns(sessions[st.proxy], pgnPath, st.play))
		}
		// The file may be rotated or truncated between rounds, once the
		// games written so far have been found: games a host moves away
		// before they are read are lost to any reader.
		if r > 0 && len(late) == 0 {
			move := rng.IntN(6)
			if move < 2 {
				for i := range sessions {
					catchUp(i, len(queued[i]))
				}
			}
			switch move {
			case 0:
				if err := os.Rename(pgnPath, fmt.Sprintf("%s.%d", pgnPath, r)); err != nil && !os.IsNotExist(err) {
					t.Fatal(err)
				}
				content = ""
			case 1:
				if err := os.Truncate(pgnPath, 0); err != nil && !os.IsNotExist(err) {
					t.Fatal(err)
				}
				content = ""
			}
		}
		for more := true; more; {
			more = false
			for i := range turns {
				if len(turns[i]) == 0 {
					continue
				}
				more = true
				clk.pass(100 * time.Millisecond)
				if len(late) > 0 && rng.IntN(20) == 0 {
					write(late[0], lateRound)
					late = late[1:]
				}
				call(seats[i].proxy, turns[i][0]())
				turns[i] = turns[i][1:]
				if p := lagRng.IntN(proxies); lagRng.IntN(5) == 0 {
					catchUp(p, lagRng.IntN(8))
				}
			}
		}
		for _, g := range late {
			write(g, lateRound)
		}
		late = nil
		// The host writes the round's games as they end (in some order),
		// some only during the next round.
		var games []*hosted
		for _, st := range seats {
			if !slices.Contains(games, st.game) {
				games = append(games, st.game)
			}
		}
		rng.Shuffle(len(games), func(i, j int) { games[i], games[j] = games[j], games[i] })
		for _, g := range games {
			if r < len(rounds_)-1 && rng.IntN(4) == 0 {
				late, lateRound = append(late, g), r+1
				continue
			}
			write(g, r+1)
		}
	}
	clk.pass(time.Second)
	for i, s := range sessions {
		catchUp(i, len(queued[i]))
		s.Close()
	}

	for i, path := range bookPaths {
		if !shared || i == 0 {
			modelPath := filepath.Join(dir, fmt.Sprintf("model%d%s", i, ext))
			if err := os.WriteFile(modelPath, initial, 0o644); err != nil {
				t.Fatal(err)
			}
			want := learnPGNModel(t, modelPath, written.String(), names[i])
			if got := fixture.ReadFile(t, path); !bytes.Equal(got, want) {
				t.Errorf("book %d learned live differs from learn -pgn (%d proxies, shared %v, abk %v, crlf %v, kind %d, lag %v, host writes %d)\nlog:\n%s",
					i, proxies, shared, abk, crlf, kind, lag, hostWrites, strings.Join(append(logsOf[i].info, logsOf[i].warn...), "\n"))
			}
		}
	}
	for i, l := range logsOf {
		if n := l.count("not learned"); n > 0 || len(l.warn) > 0 {
			t.Errorf("proxy %d: %d games not learned; warnings %q", i, n, l.warn)
		}
	}
}

// moves parses UCI moves played from fen ("" the start position).
func movesFrom(t testing.TB, fen string, uci ...string) []board.Move {
	t.Helper()
	l := fixture.Line(t, fen, strings.Join(uci, " "))
	pos, err := board.ParseFEN(board.StartFEN)
	if fen != "" {
		pos, err = board.ParseFEN(fen)
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []board.Move
	for _, s := range uci {
		m, err := board.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		m = pos.ToPlayed(m)
		out = append(out, m)
		pos.Play(m)
	}
	if pos.Key() != l.Pos.Key() {
		t.Fatal("moves replayed differently")
	}
	return out
}

// pgnTest is a host PGN, books, and the sessions of one test.
type pgnTest struct {
	t        *testing.T
	dir, pgn string
	clk      *clock
	entries  []book.Entry
	initial  []byte
	written  strings.Builder
}

func newPGNTest(t *testing.T, games ...*hosted) *pgnTest {
	pt := &pgnTest{t: t, dir: t.TempDir(), clk: &clock{t: time.Now()}}
	pt.pgn = filepath.Join(pt.dir, "games.pgn")
	pt.entries = bookOf(t, rand.New(rand.NewPCG(1, 2)), games, 40)
	return pt
}

// book writes a copy of the test's book.
func (pt *pgnTest) book(name string) string {
	path := filepath.Join(pt.dir, name)
	writeBookFile(pt.t, path, pt.entries, strings.HasSuffix(name, ".abk"))
	pt.initial = fixture.ReadFile(pt.t, path)
	return path
}

func (pt *pgnTest) session(books ...string) (*Session, *logs) {
	return pgnSession(pt.clk, filepath.Join(pt.dir, "claims"), pt.pgn, books...)
}

// write appends a game to the host's PGN; counted: it is a game of the
// tournament, which learn -pgn counts.
func (pt *pgnTest) write(g *hosted, round int, counted bool) {
	text := g.pgn(round, false)
	appendFile(pt.t, pt.pgn, text)
	if counted {
		pt.written.WriteString(text)
	}
}

// check compares the book at path with learn -pgn's for player.
func (pt *pgnTest) check(path, player string, l ...*logs) {
	pt.t.Helper()
	model := filepath.Join(pt.dir, "model"+filepath.Ext(path))
	if err := os.WriteFile(model, pt.initial, 0o644); err != nil {
		pt.t.Fatal(err)
	}
	want := learnPGNModel(pt.t, model, pt.written.String(), player)
	if got := fixture.ReadFile(pt.t, path); !bytes.Equal(got, want) {
		var lines []string
		for _, lg := range l {
			lines = append(lines, lg.info...)
			lines = append(lines, lg.warn...)
		}
		pt.t.Errorf("the book learned live differs from learn -pgn's; log:\n%s", strings.Join(lines, "\n"))
	}
}

// A game in the file from before ours, with our very moves (the last
// tournament's, say), is not ours: only games written after ours started
// are.
func TestHostPGNGameFromBeforeIsNotOurs(t *testing.T) {
	ms := movesFrom(t, "", "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6")
	old := newHosted(t, "", false, ms, "proxy", "sf", "0-1")
	ours := newHosted(t, "", false, ms, "proxy", "sf", "1-0")
	pt := newPGNTest(t, ours)
	path := pt.book("book.bin")
	pt.write(old, 1, false)
	s, l := pt.session(path)
	ours.playAs(s, true)
	pt.write(ours, 2, true)
	s.Close()
	pt.check(path, "proxy", l)
}

// The session's calls come after the fact (beside the proxy's loop, behind
// a slow book write, say): the whole game was played and written before
// its first position reaches the session. The game is still found, among
// the games written since the GUI started it, and a game with the same
// moves written before is still not taken.
func TestHostPGNCallsComeLate(t *testing.T) {
	ms := movesFrom(t, "", "g1f3", "d7d5", "g2g3", "g8f6", "f1g2", "e7e6", "e1g1", "f8e7")
	before := newHosted(t, "", false, ms, "proxy", "sf", "0-1")
	ours := newHosted(t, "", false, ms, "proxy", "sf", "1/2-1/2")
	pt := newPGNTest(t, ours)
	path := pt.book("book.bin")
	pt.write(before, 1, false)
	s, l := pt.session(path) // looks at the file: the game before is there
	pt.clk.pass(time.Second)
	started, stat := pt.clk.now(), statNow(pt.pgn)
	pt.clk.pass(time.Second)
	pt.write(ours, 2, true)
	pt.write(newHosted(t, "", false, movesFrom(t, "", "e2e4"), "a", "b", "1-0"), 3, false)
	pt.clk.pass(10 * time.Second)
	s.NewGame()
	for i, turn := range ours.turns(s, true) {
		if i == 0 {
			// The first turn's calls, with the time the GUI sent it.
			s.Position(ours.pos[0], false)
			s.GameStart(started, ours.keys[:1], stat)
			s.EngineScore(true, 20, 0, false)
			s.AfterBestmove(ours.pos[1])
			continue
		}
		turn()
	}
	s.Close()
	pt.check(path, "proxy", l)
}

// The session's calls come late from the very start (behind a slow book
// write, a loaded machine): the settings naming the file, and with them
// the session's first look at it, come after its first game was played
// and written. The game is still found, and a game with the same moves
// written before the game started (an earlier run's) is still not taken.
func TestHostPGNFirstLookComesLate(t *testing.T) {
	ms := movesFrom(t, "", "d2d4", "g8f6", "c2c4", "e7e6", "g1f3", "d7d5", "b1c3", "f8e7")
	for _, earlier := range []bool{false, true} {
		t.Run(map[bool]string{false: "no file yet", true: "a file from an earlier run"}[earlier], func(t *testing.T) {
			before := newHosted(t, "", false, ms, "proxy", "sf", "0-1")
			ours := newHosted(t, "", false, ms, "proxy", "sf", "1-0")
			pt := newPGNTest(t, ours)
			path := pt.book("book.bin")
			if earlier {
				pt.write(before, 1, false)
			}
			s, l, set := pgnSessionUnset(pt.clk, filepath.Join(pt.dir, "claims"), pt.pgn, path)
			pt.clk.pass(time.Second)
			var calls []func()
			for _, turn := range ours.loopTurns(s, pt.pgn, true) {
				calls = append(calls, turn())
				pt.clk.pass(10 * time.Millisecond)
			}
			pt.write(ours, 2, true)
			pt.clk.pass(time.Second)
			s.SetLearning(set)
			s.NewGame()
			for _, c := range calls {
				c()
			}
			s.Close()
			pt.check(path, "proxy", l)
			if l.count("not learned") != 0 || l.count(`is "proxy" - "sf", round 2, 1-0`) != 1 {
				t.Errorf("log:\n%s", strings.Join(append(l.info, l.warn...), "\n"))
			}
		})
	}
}

// A game not in the file yet when it ended waits; the proxy's next game
// is then played, and written with the one before, before any of its
// calls reach the session: finding the first game must not forget the
// next one, read with it.
func TestHostPGNNextGameWrittenBeforeItsCalls(t *testing.T) {
	g1 := newHosted(t, "", false, movesFrom(t, "", "e2e4", "c7c5", "g1f3", "d7d6", "d2d4"), "proxy", "sf", "1-0")
	g2 := newHosted(t, "", false, movesFrom(t, "", "c2c4", "e7e5", "b1c3", "g8f6", "g2g3"), "proxy", "sf", "0-1")
	pt := newPGNTest(t, g1, g2)
	path := pt.book("book.bin")
	s, l := pt.session(path)
	g1.playAs(s, true)
	s.NewGame() // the next game's ucinewgame: g1 ended, not written yet
	var calls []func()
	for _, turn := range g2.loopTurns(s, pt.pgn, true) {
		calls = append(calls, turn())
		pt.clk.pass(10 * time.Millisecond)
	}
	pt.write(g1, 1, true)
	pt.write(g2, 2, true)
	pt.clk.pass(time.Second)
	for _, c := range calls {
		c()
	}
	s.Close()
	pt.check(path, "proxy", l)
	if l.count("not learned") != 0 || l.count(`is "proxy" - "sf"`) != 2 {
		t.Errorf("log:\n%s", strings.Join(append(l.info, l.warn...), "\n"))
	}
}

// Two proxies (one book, one name, the same side) whose games part only
// in the opponent's last move, which neither saw, with other results:
// each counts one of them, never both the same.
func TestHostPGNConcurrentProxiesCountEachGameOnce(t *testing.T) {
	common := []string{"d2d4", "d7d5", "c2c4", "e7e6", "b1c3", "g8f6"}
	x := newHosted(t, "", false, movesFrom(t, "", append(slices.Clone(common), "c1g5", "f8e7")...), "proxy", "sf", "1-0")
	y := newHosted(t, "", false, movesFrom(t, "", append(slices.Clone(common), "c1g5", "b8d7")...), "proxy", "sf", "1/2-1/2")
	pt := newPGNTest(t, x, y)
	path := pt.book("book.bin")
	a, la := pt.session(path)
	b, lb := pt.session(path)
	a.NewGame()
	b.NewGame()
	ta, tb := x.turns(a, true), y.turns(b, true)
	for i := range ta {
		ta[i]()
		tb[i]()
		pt.clk.pass(time.Second)
	}
	pt.write(x, 1, true)
	pt.write(y, 1, true)
	a.NewGame()
	b.NewGame()
	pt.clk.pass(5 * time.Second)
	a.Close()
	b.Close()
	pt.check(path, "proxy", la, lb)
}

// A proxy whose game fits two games waits for the other proxies to claim
// theirs: here the other proxy saw the opponent's last move (it then lost
// on time) and fits one game only, which is not the first proxy's.
func TestHostPGNUniqueFitIsClaimedFirst(t *testing.T) {
	common := []string{"e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4"}
	x := newHosted(t, "", false, movesFrom(t, "", append(slices.Clone(common), "g8f6")...), "proxy", "sf", "1/2-1/2")
	y := newHosted(t, "", false, movesFrom(t, "", append(slices.Clone(common), "b8c6")...), "proxy", "sf", "0-1")
	y.extra, y.termination = movesFrom(t, "", append(slices.Clone(common), "b8c6", "b1c3")...)[len(common)+1], "time forfeit"
	pt := newPGNTest(t, x, y)
	path := pt.book("book.bin")
	a, la := pt.session(path)
	b, lb := pt.session(path)
	a.NewGame()
	b.NewGame()
	ta, tb := x.turns(a, true), y.turns(b, true)
	for i := range max(len(ta), len(tb)) {
		if i < len(ta) {
			ta[i]()
		}
		if i < len(tb) {
			tb[i]()
		}
		pt.clk.pass(time.Second)
	}
	pt.write(y, 1, true) // first in the file: the first proxy's first choice
	pt.write(x, 1, true)
	a.NewGame() // fits both: waits
	pt.clk.pass(100 * time.Millisecond)
	b.NewGame() // fits y only: claims it
	for range 10 {
		pt.clk.pass(time.Second)
		a.Position(*board.StartPosition(), false)
		b.Position(*board.StartPosition(), false)
	}
	a.Close()
	b.Close()
	pt.check(path, "proxy", la, lb)
	if la.count("fit it alike") > 0 || la.count(`round 1, 1/2-1/2`) != 1 || lb.count(`round 1, 0-1`) != 1 {
		t.Errorf("logs:\n%s\n--\n%s", strings.Join(la.info, "\n"), strings.Join(lb.info, "\n"))
	}
}

// A game from an opening suite's FEN starts there: a game of others that
// passes through the same positions from another start (the start
// position, with the suite's move played) is not ours, though every
// position we were sent is in it.
func TestHostPGNGameMustStartAtTheBase(t *testing.T) {
	fen := "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
	rest := []string{"e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "c2c3"}
	ours := newHosted(t, fen, false, movesFrom(t, fen, rest...), "proxy", "sf", "1-0")
	other := newHosted(t, "", false, movesFrom(t, "", append([]string{"e2e4"}, rest...)...), "other1", "other2", "0-1")
	pt := newPGNTest(t, ours)
	path := pt.book("book.bin")
	s, l := pt.session(path)
	ours.playAs(s, true)
	pt.write(other, 1, false)
	pt.write(ours, 1, true)
	s.Close()
	pt.check(path, "proxy", l)
}

// A game of others with all our moves in it, but longer than ours (by
// more than the opponent's move we did not see) or shorter (ending before
// the last position we were sent: ending just after it is our time loss),
// is not ours.
func TestHostPGNLongerOrShorterGameIsNotOurs(t *testing.T) {
	line := []string{"c2c4", "e7e5", "b1c3", "g8f6", "g1f3", "b8c6", "g2g3", "d7d5", "c4d5", "f6d5"}
	for _, c := range []struct {
		name        string
		ours, other int // plies of each
	}{
		{"longer by two plies", 7, 9},
		{"longer by three plies", 6, 9},
		{"ending before our last position", 8, 5},
		{"ending two plies before it", 7, 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			ours := newHosted(t, "", false, movesFrom(t, "", line[:c.ours]...), "proxy", "sf", "1-0")
			other := newHosted(t, "", false, movesFrom(t, "", line[:c.other]...), "other1", "other2", "0-1")
			pt := newPGNTest(t, ours)
			path := pt.book("book.bin")
			s, l := pt.session(path)
			ours.playAs(s, true)
			pt.write(other, 1, false)
			pt.write(ours, 1, true)
			s.Close()
			pt.check(path, "proxy", l)
		})
	}
}

// A game that never reaches the file is reported once the wait is over,
// and learned nothing; the games after it are learned.
func TestHostPGNMissingGameIsReported(t *testing.T) {
	g1 := newHosted(t, "", false, movesFrom(t, "", "e2e4", "e7e5", "g1f3", "b8c6"), "proxy", "sf", "1-0")
	g2 := newHosted(t, "", false, movesFrom(t, "", "d2d4", "d7d5", "c2c4", "c7c6"), "proxy", "sf", "0-1")
	pt := newPGNTest(t, g1, g2)
	path := pt.book("book.bin")
	s, l := pt.session(path)
	g1.playAs(s, true)
	g2.playAs(s, true) // g1 is looked for, not found
	if l.count("game 1 (ended by ucinewgame) is not in") != 1 {
		t.Errorf("wait not logged: %q", l.info)
	}
	pt.write(g2, 2, true)
	pt.clk.pass(59 * time.Second)
	s.NewGame() // g2 found; g1 still waited for
	if l.count("not found") != 0 {
		t.Fatalf("reported before its time: %q", l.warn)
	}
	pt.clk.pass(2 * time.Second)
	s.Position(*board.StartPosition(), false)
	if l.count("game 1 (ended by ucinewgame) not found in") != 1 || l.count("within 1m0s of its end: not learned") != 1 {
		t.Errorf("missing game not reported: %q", l.warn)
	}
	s.Close()
	pt.check(path, "proxy", l)
}

// At the end of the session the games not found yet are waited for a
// little, and the log says so: one written meanwhile is learned, one never
// written is reported.
func TestHostPGNWaitAtQuit(t *testing.T) {
	g1 := newHosted(t, "", false, movesFrom(t, "", "e2e4", "e7e5", "g1f3", "b8c6"), "proxy", "sf", "1-0")
	g2 := newHosted(t, "", false, movesFrom(t, "", "d2d4", "d7d5", "c2c4", "c7c6"), "proxy", "sf", "0-1")
	pt := newPGNTest(t, g1, g2)
	path := pt.book("book.bin")
	s, l := pt.session(path)
	g1.playAs(s, true)
	g2.playAs(s, true)
	sleeps := 0
	pt.clk.onSleep = func() {
		if sleeps++; sleeps == 3 {
			pt.write(g2, 2, true)
		}
	}
	start := pt.clk.now()
	s.Close()
	if waited := pt.clk.now().Sub(start); waited < defaultWaits.quit || waited > defaultWaits.quit+defaultWaits.retry {
		t.Errorf("waited %s at the end", waited)
	}
	if l.count("waiting up to 3s for 2 game(s)") != 1 || l.count("game 1 (ended by ucinewgame) not found in") != 1 || l.count("by the end of the session: not learned") != 1 || l.count(`is "proxy" - "sf", round 2`) != 1 {
		t.Errorf("log:\n%s", strings.Join(append(l.info, l.warn...), "\n"))
	}
	pt.check(path, "proxy", l)
}

// The file is read while the host writes it: a game written a few bytes at
// a time is taken only whole, and found once it is.
func TestHostPGNGameWrittenInPieces(t *testing.T) {
	g := newHosted(t, "", false, movesFrom(t, "", "e2e4", "e7e5", "g1f3", "b8c6", "f1b5"), "proxy", "sf", "1/2-1/2")
	pt := newPGNTest(t, g)
	path := pt.book("book.bin")
	s, l := pt.session(path)
	g.playAs(s, true)
	text := g.pgn(1, true)
	whole := strings.LastIndex(text, g.result) + len(g.result) // its termination marker written
	for i := 0; i < len(text); i += 7 {
		appendFile(t, pt.pgn, text[i:min(i+7, len(text))])
		pt.clk.pass(time.Second)
		s.NewGame()
		if found := l.count(`) is "`); found != 0 && i+7 < whole {
			t.Fatalf("found with %d of %d bytes written", i+7, len(text))
		}
	}
	pt.written.WriteString(text)
	s.Close()
	if l.count(`) is "`) != 1 {
		t.Errorf("not found: %q", l.warn)
	}
	pt.check(path, "proxy", l)
}

// Without a PGN file and without results from the GUI (UCI), the log says
// once that live learning has no result source; the GUI's results (CECP)
// count as before and nothing is said.
func TestNoResultSourceSaidOnce(t *testing.T) {
	g := newHosted(t, "", false, movesFrom(t, "", "e2e4", "e7e5", "g1f3", "b8c6"), "proxy", "sf", "1-0")
	s, l := newTestSession()
	g.playAs(s, true)
	g.playAs(s, true)
	s.Close()
	if n := l.count("no game results (UCI) and BookLearnPGN names no PGN file"); n != 1 {
		t.Errorf("said %d times: %q", n, l.info)
	}
	s, l = newTestSession()
	g.playAs(s, true)
	s.GameResult(WhiteWins, "result")
	g.playAs(s, true)
	s.GameResult(Drawn, "result")
	s.Close()
	if n := l.count("no game results"); n != 0 {
		t.Errorf("said with the GUI's results: %q", l.info)
	}
}

// Through a CECP front, the position after each move of ours is reported
// again as the game's (the front plays our move on the core's game), and
// the GUI sends its result. A move of ours that came after our flag fell
// is in no host's PGN, and the game is found without it. The CECP front's
// board before the GUI's first "new" is no game: BookLearnPGN set while it
// stands is said nothing of.
func TestHostPGNOurMoveReportedAgainThroughCECP(t *testing.T) {
	line := []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"}
	ms := movesFrom(t, "", line...)
	lateWhite := newHosted(t, "", false, ms, "proxy", "sf", "0-1")
	lateWhite.extra, lateWhite.termination = movesFrom(t, "", append(slices.Clone(line), "b5a4")...)[len(ms)], "time forfeit"
	ontime := newHosted(t, "", false, movesFrom(t, "", "d2d4", "d7d5", "c2c4", "e7e6", "b1c3"), "sf", "proxy", "1/2-1/2")
	pt := newPGNTest(t, lateWhite, ontime)
	path := pt.book("book.bin")
	s, l, set := pgnSessionUnset(pt.clk, filepath.Join(pt.dir, "claims"), pt.pgn, path)
	s.SetLearning(learning(true, path))
	s.Position(*board.StartPosition(), false) // the board before "new"
	s.SetLearning(set)
	for round, tc := range []struct {
		g       *hosted
		white   bool
		outcome Outcome
	}{{lateWhite, true, BlackWins}, {ontime, false, Drawn}} {
		s.NewGame()
		for i := range len(tc.g.moves) + 1 {
			pos := tc.g.pos[i]
			if pos.WhiteToMove() != tc.white || i == len(tc.g.moves) && tc.g.extra == 0 {
				continue
			}
			next := pos
			if i < len(tc.g.moves) {
				next = tc.g.pos[i+1]
			} else {
				next.Play(tc.g.extra)
			}
			at, pgn := pt.clk.now(), statNow(pt.pgn)
			s.Position(pos, i > 1)
			if i <= 1 {
				s.GameStart(at, slices.Clone(tc.g.keys[:i+1]), pgn)
			}
			s.EngineScore(tc.white, 20, 0, false)
			s.AfterBestmove(next)
			s.Position(next, true) // the CECP front plays our move on the game
		}
		pt.write(tc.g, round+1, true)
		s.GameResult(tc.outcome, "result")
	}
	s.Close()
	if n := l.count(`) is "`); n != 2 || l.count(`game 1 (ended by result) is "`) != 1 || l.count("during the game") != 0 || l.count("not learned") != 0 {
		t.Errorf("%d games found; log:\n%s", n, strings.Join(append(l.info, l.warn...), "\n"))
	}
	pt.check(path, "proxy", l)
}

// The host writes its file anew, holding the games it held and then ours:
// the older game with our moves, written again with the rest, is still
// older than our game, which is found after it. The host renames a new
// file into place, or writes the file again in place (and the session may
// look at it halfway); the session may read it first only after that.
func TestHostPGNOlderGameInAFileWrittenAnew(t *testing.T) {
	ms := movesFrom(t, "", "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "c2c3")
	for _, c := range []struct {
		name string
		how  string // rename, rewrite
		late bool   // the session's calls, and its first look, come after the file was written anew
		half bool   // the session looks while the file holds half the older game
	}{
		{"renamed", "rename", false, false},
		{"rewritten in place", "rewrite", false, false},
		{"rewritten, looked at halfway", "rewrite", false, true},
		{"renamed, read first after", "rename", true, false},
		{"rewritten, read first after", "rewrite", true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			older := newHosted(t, "", false, ms, "proxy", "sf", "1-0")
			ours := newHosted(t, "", false, ms, "proxy", "sf", "0-1")
			pt := newPGNTest(t, ours)
			path := pt.book("book.bin")
			pt.write(older, 1, false)
			s, l, set := pgnSessionUnset(pt.clk, filepath.Join(pt.dir, "claims"), pt.pgn, path)
			if !c.late {
				s.SetLearning(set)
				s.NewGame()
			}
			pt.clk.pass(time.Second)
			var calls []func()
			for _, turn := range ours.loopTurns(s, pt.pgn, true) {
				call := turn()
				if c.late {
					calls = append(calls, call)
				} else {
					call()
				}
				pt.clk.pass(10 * time.Millisecond)
			}
			whole := older.pgn(1, false) + ours.pgn(2, false)
			switch c.how {
			case "rename":
				next := filepath.Join(pt.dir, "next.pgn")
				if err := os.WriteFile(next, []byte(whole), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Rename(next, pt.pgn); err != nil {
					t.Fatal(err)
				}
			case "rewrite":
				cut := len(whole)
				if c.half {
					cut = len(older.pgn(1, false)) / 2
				}
				if err := os.WriteFile(pt.pgn, []byte(whole[:cut]), 0o644); err != nil {
					t.Fatal(err)
				}
				if c.half {
					s.NewGame() // the game ends: the file is looked at
					pt.clk.pass(time.Second)
				}
				appendFile(t, pt.pgn, whole[cut:])
			}
			pt.written.WriteString(ours.pgn(2, false))
			pt.clk.pass(time.Second)
			if c.late {
				s.SetLearning(set)
				s.NewGame()
				for _, call := range calls {
					call()
				}
			}
			s.Close()
			pt.check(path, "proxy", l)
			if l.count(`is "proxy" - "sf", round 2, 0-1`) != 1 || l.count("fit it alike") != 0 {
				t.Errorf("log:\n%s", strings.Join(append(l.info, l.warn...), "\n"))
			}
		})
	}
}

// Proxies of a tournament play the same game over and over (a trivial
// engine: every game alike in every move and the result), one of them
// far behind: its calls come only after all its games were played and
// written, each game fitting all the games alike written since it
// started. Each of its games is counted as its calls come (games that
// count alike wait for no claims), and what learning one costs does not
// grow with the games alike before it: at four times the games, the bytes
// allocated per game stay within twice. Every book ends as learn -pgn's.
func TestHostPGNGamesAlikeCostTheSameAtAnyLength(t *testing.T) {
	perGame := func(rounds int) float64 {
		a := proxiesAlike(t, 4)
		g, pt, sessions := a.hosted, a.pgn, a.sessions
		var behind []func() // the first proxy's calls
		round := 0
		for range rounds {
			for i, s := range sessions {
				turns := g.loopTurns(s, pt.pgn, true)
				if i == 0 {
					behind = append(behind, s.NewGame)
					for _, turn := range turns {
						behind = append(behind, turn())
					}
					continue
				}
				s.NewGame()
				for _, turn := range turns {
					turn()()
				}
			}
			pt.clk.pass(10 * time.Millisecond)
			for range sessions {
				round++
				pt.write(g, round, true)
			}
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for _, call := range behind {
			call()
			pt.clk.pass(time.Millisecond)
		}
		sessions[0].NewGame() // its last game ends
		runtime.ReadMemStats(&after)
		if found := a.logs[0].count(`) is "proxy" - "fake"`); found != rounds {
			t.Errorf("%d rounds: %d games of the proxy behind counted as their calls came", rounds, found)
		}
		a.close(t)
		return float64(after.TotalAlloc-before.TotalAlloc) / float64(rounds)
	}
	small, large := perGame(25), perGame(100)
	t.Logf("bytes allocated per game learned: %.0f at 25 rounds, %.0f at 100", small, large)
	if large > 2*small {
		t.Errorf("learning a game allocated %.0f bytes at 100 rounds, %.0f at 25", large, small)
	}
}

// Games found one after another, faster than counting into a book takes
// (a proxy catching up, the last games at quit), are counted into it
// together: one lock, one read of an ABK book, one sync, and one line in
// the log for each entry, however many games moved it.
func TestHostPGNGamesFoundTogetherAreCountedTogether(t *testing.T) {
	g := newHosted(t, "", false, movesFrom(t, "", "e2e4", "e7e5", "g1f3", "b8c6", "f1c4"), "proxy", "sf", "1-0")
	for _, name := range []string{"book.bin", "book.abk"} {
		t.Run(name, func(t *testing.T) {
			pt := newPGNTest(t, g)
			pt.entries = nil // every move of the game, on its line from the start (ABK)
			for i, m := range g.moves {
				pt.entries = append(pt.entries, book.Entry{Key: g.keys[i], Move: g.pos[i].ToBook(m), Weight: 10})
			}
			path := pt.book(name)
			s, l := pt.session(path)
			for round := 1; round <= 5; round++ {
				g.playAs(s, true)
				pt.write(g, round, true)
			}
			s.Close()
			pt.check(path, "proxy", l)
			// The first game is counted as it is found, the four after it
			// within a quarter second together.
			if found, nf3 := l.count(`) is "proxy"`), l.count("move g1f3: "); found != 5 || nf3 != 2 {
				t.Errorf("%d games found, g1f3 counted %d times:\n%s", found, nf3, strings.Join(l.info, "\n"))
			}
		})
	}
}

// A game that fits a game another proxy claimed while it was still being
// played (the other game ended and was written first) sees that claim,
// however long before its own end it was made, and counts its own game.
func TestHostPGNClaimMadeDuringOurGameIsSeen(t *testing.T) {
	common := []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"}
	x := newHosted(t, "", false, movesFrom(t, "", append(slices.Clone(common), "b5a4", "g8f6")...), "proxy", "sf", "1-0")
	y := newHosted(t, "", false, movesFrom(t, "", append(slices.Clone(common), "b5a4", "d7d6")...), "proxy", "sf", "0-1")
	pt := newPGNTest(t, x, y)
	path := pt.book("book.bin")
	a, la := pt.session(path)
	b, lb := pt.session(path)
	a.NewGame()
	b.NewGame()
	ta, tb := x.turns(a, true), y.turns(b, true)
	for i := range ta {
		ta[i]()
		tb[i]()
		pt.clk.pass(time.Second)
	}
	pt.write(y, 1, true)
	b.NewGame() // y ends first, alone in the file: b claims it
	pt.clk.pass(5 * time.Second)
	pt.write(x, 2, true)
	a.NewGame() // fits x and y, y claimed 5 s ago
	pt.clk.pass(5 * time.Second)
	a.Close()
	b.Close()
	pt.check(path, "proxy", la, lb)
	if la.count(`round 2, 1-0`) != 1 || lb.count(`round 1, 0-1`) != 1 {
		t.Errorf("logs:\n%s\n--\n%s", strings.Join(la.info, "\n"), strings.Join(lb.info, "\n"))
	}
}

// A proxy holds the claims of the games still looked for, not of every
// game of the tournament: with four proxies playing round after round, the
// claims each holds do not grow with the rounds, and every game is still
// counted once.
func TestHostPGNClaimsHeldDoNotGrowWithTheGames(t *testing.T) {
	held := func(rounds int) int {
		a := proxiesAlike(t, 4)
		g, pt, sessions := a.hosted, a.pgn, a.sessions
		round, most := 0, 0
		for range rounds {
			for _, s := range sessions {
				s.NewGame()
				for _, turn := range g.loopTurns(s, pt.pgn, true) {
					turn()()
				}
			}
			// Games a few seconds apart: claims older than the slack a
			// clock set back is allowed can go.
			pt.clk.pass(3 * time.Second)
			for range sessions {
				round++
				pt.write(g, round, true)
			}
			for _, s := range sessions {
				s.NewGame() // the game ends and is looked for
				for _, c := range s.fromPGN.claimFiles {
					most = max(most, len(c.claimed))
				}
			}
		}
		a.close(t)
		return most
	}
	small, large := held(10), held(40)
	t.Logf("claims held at most: %d over 10 rounds, %d over 40", small, large)
	if large > small {
		t.Errorf("a proxy held %d claims over 40 rounds of 4 games, %d over 10: they grow with the games", large, small)
	}
}

// alike is a tournament of proxies learning into one book from one host
// file, every game the same short repetition.
type alike struct {
	hosted   *hosted
	pgn      *pgnTest
	book     string
	sessions []*Session
	logs     []*logs // each session's
}

// proxiesAlike starts a tournament alike of n proxies.
func proxiesAlike(t *testing.T, n int) *alike {
	ms := movesFrom(t, "", "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8")
	g := newHosted(t, "", false, ms, "proxy", "fake", "1/2-1/2")
	a := &alike{hosted: g, pgn: newPGNTest(t, g), sessions: make([]*Session, n), logs: make([]*logs, n)}
	a.book = a.pgn.book("book.bin")
	for i := range a.sessions {
		a.sessions[i], a.logs[i] = a.pgn.session(a.book)
	}
	return a
}

// close ends the sessions and requires the book to be learn -pgn's, with
// every game learned and nothing warned.
func (a *alike) close(t *testing.T) {
	t.Helper()
	for _, s := range a.sessions {
		s.Close()
	}
	a.pgn.check(a.book, "proxy", a.logs...)
	for i, l := range a.logs {
		if n := l.count("not learned"); n > 0 || len(l.warn) > 0 {
			t.Errorf("proxy %d: %d games not learned; warnings %q", i, n, l.warn)
		}
	}
}
