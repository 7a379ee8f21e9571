// Package lichessgames writes seeded games shaped like a lichess database
// export (a monthly .pgn dump), for make-book's tests and the bench: there
// is no real database here, and a large one must not be kept as a file.
//
// The games are standard chess. Moves are drawn so that openings repeat
// (in every position each move has a fixed popularity, and the first plies
// keep to the popular ones) and middlegames diverge (later plies spread
// over many moves), as in real collections. Each game carries lichess's
// tags (Event by speed, Site, Date, UTCDate/UTCTime, players, ratings and
// rating changes, ECO, Opening, TimeControl, Termination), its move text on
// one line with a { [%clk h:mm:ss] } comment after every move and, in the
// analysed games, [%eval] before it; results, ratings and time controls
// are mixed.
//
// Game i is drawn from its own seed (Seed, i): the same options give the
// same bytes, and games First..First+Games-1 are the same text whether
// written in one piece or in several.
package lichessgames

import (
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"

	"github.com/polyproxy/polyproxy/book/board"
)

// Options say which games to write.
type Options struct {
	Seed  uint64
	First int // number of the first game (0-based)
	Games int
}

// timeControl is one of lichess's pools, with its share of the games
// (percent) and the Event name of its speed.
type timeControl struct {
	tag, event string
	base, inc  int
	share      int
}

var timeControls = []timeControl{
	{"15+0", "Rated UltraBullet game", 15, 0, 1},
	{"60+0", "Rated Bullet game", 60, 0, 18},
	{"120+1", "Rated Bullet game", 120, 1, 8},
	{"180+0", "Rated Blitz game", 180, 0, 20},
	{"180+2", "Rated Blitz game", 180, 2, 10},
	{"300+0", "Rated Blitz game", 300, 0, 14},
	{"300+3", "Rated Blitz game", 300, 3, 7},
	{"600+0", "Rated Rapid game", 600, 0, 12},
	{"600+5", "Rated Rapid game", 600, 5, 4},
	{"900+10", "Rated Rapid game", 900, 10, 3},
	{"1800+0", "Rated Classical game", 1800, 0, 2},
	{"-", "Rated Correspondence game", -1, 0, 1},
}

// openings name a game's ECO and Opening tags (the names are real, the
// choice is by the position after a few plies, not by theory).
var openings = [...]struct{ eco, name string }{
	{"B01", "Scandinavian Defense"}, {"C00", "French Defense: Knight Variation"},
	{"B20", "Sicilian Defense"}, {"C20", "King's Pawn Game"}, {"D00", "Queen's Pawn Game"},
	{"A40", "Horwitz Defense"}, {"C44", "Scotch Game"}, {"C50", "Italian Game"},
	{"B10", "Caro-Kann Defense"}, {"A00", "Van't Kruijs Opening"}, {"C41", "Philidor Defense"},
	{"D02", "Queen's Pawn Game: London System"}, {"A45", "Indian Defense"}, {"B00", "Owen Defense"},
	{"C60", "Ruy Lopez"}, {"A10", "English Opening"},
}

// Write writes the games to w, drawing them on all cores (each game has
// its own seed, so the text is the same).
func Write(w io.Writer, o Options) error {
	const batch = 256
	workers := runtime.GOMAXPROCS(0)
	type part struct {
		first, games int
		text         chan []byte
	}
	parts := make(chan part, 2*workers)
	work := make(chan part, 2*workers)
	quit := make(chan struct{})
	defer close(quit)
	go func() {
		defer close(parts)
		defer close(work)
		for i := o.First; i < o.First+o.Games; i += batch {
			p := part{i, min(batch, o.First+o.Games-i), make(chan []byte, 1)}
			select {
			case parts <- p:
			case <-quit:
				return
			}
			select {
			case work <- p:
			case <-quit:
				return
			}
		}
	}()
	for range workers {
		go func() {
			for p := range work {
				p.text <- PGN(Options{Seed: o.Seed, First: p.first, Games: p.games})
			}
		}()
	}
	for p := range parts {
		if _, err := w.Write(<-p.text); err != nil {
			return err
		}
	}
	return nil
}

// PGN is the games as one text.
func PGN(o Options) []byte {
	var g generator
	var out []byte
	for i := o.First; i < o.First+o.Games; i++ {
		g.game(o.Seed, i)
		out = append(out, g.out...)
	}
	return out
}

// generator writes one game at a time into out, reusing its buffers.
type generator struct {
	rng    *rand.Rand
	src    *rand.PCG
	out    []byte
	moves  []byte
	ranked []rankedMove
}

type rankedMove struct {
	m     board.Move
	score uint64
}

// game writes game n of seed into g.out: its tags, then its moves. It
// draws from a source seeded by seed and n alone, so a game is the same
// text whichever games are written with it.
func (g *generator) game(seed uint64, n int) {
	if g.src == nil {
		g.src = rand.NewPCG(0, 0)
		g.rng = rand.New(g.src)
	}
	g.src.Seed(seed, uint64(n)^0x6c69636865737300)
	rng := g.rng
	tc := pickTimeControl(rng.IntN(100))
	analysed := rng.IntN(10) == 0
	whiteElo, blackElo := rating(rng), rating(rng)

	// The moves first: the result and the ECO depend on them.
	end := g.playMoves(tc, analysed)
	result, termination := pickResult(rng, end)
	diff := 3 + rng.IntN(8)
	whiteDiff, blackDiff := 0, 0
	switch result {
	case "1-0":
		whiteDiff, blackDiff = diff, -diff
	case "0-1":
		whiteDiff, blackDiff = -diff, diff
	}
	eco := openings[uint64(end.ecoKey)%uint64(len(openings))]
	day, secs := 1+rng.IntN(31), rng.IntN(86400)

	o := g.out[:0]
	o = tag(o, "Event", tc.event)
	o = append(o, "[Site \"https://lichess.org/"...)
	for range 8 {
		o = append(o, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"[rng.IntN(62)])
	}
	o = append(o, "\"]\n"...)
	date := "2024.01." + twoDigits(day)
	o = tag(o, "Date", date)
	o = tag(o, "Round", "-")
	o = tag(o, "White", player(rng))
	o = tag(o, "Black", player(rng))
	o = tag(o, "Result", result)
	o = tag(o, "UTCDate", date)
	o = tag(o, "UTCTime", twoDigits(secs/3600)+":"+twoDigits(secs/60%60)+":"+twoDigits(secs%60))
	o = tag(o, "WhiteElo", strconv.Itoa(whiteElo))
	o = tag(o, "BlackElo", strconv.Itoa(blackElo))
	o = tag(o, "WhiteRatingDiff", signed(whiteDiff))
	o = tag(o, "BlackRatingDiff", signed(blackDiff))
	o = tag(o, "ECO", eco.eco)
	o = tag(o, "Opening", eco.name)
	o = tag(o, "TimeControl", tc.tag)
	o = tag(o, "Termination", termination)
	o = append(o, '\n')
	o = append(o, g.moves...)
	o = append(o, result...)
	o = append(o, "\n\n"...)
	g.out = o
}

// gameEnd is how a game's moves ended.
type gameEnd struct {
	ecoKey            board.Key // the position after 6 plies: it names the opening
	mated, stalemate  bool
	whiteToMoveAtLast bool
}

// playMoves draws a game's moves into g.moves, in SAN with move numbers,
// and with a comment after each (eval when analysed, clock unless
// correspondence) as lichess writes them.
func (g *generator) playMoves(tc timeControl, analysed bool) gameEnd {
	rng := g.rng
	pos := board.StartPosition()
	plies := 16 + rng.IntN(110)
	opening := 2 + rng.IntN(18) // plies played from the popular moves
	clocks := [2]float64{float64(tc.base), float64(tc.base)}
	eval := 0.2
	var end gameEnd
	comments := tc.base >= 0 || analysed
	g.moves = g.moves[:0]
	for ply := 0; ply < plies; ply++ {
		legal := pos.LegalMoves()
		if len(legal) == 0 {
			end.mated, end.stalemate = pos.InCheck(), !pos.InCheck()
			break
		}
		// Popular moves are chosen with probability falling geometrically
		// by rank: steeply in the opening, gently afterwards.
		keep := 0.6
		if ply >= opening {
			keep = 0.12
		}
		m := g.choose(pos, legal, keep)
		if ply%2 == 0 {
			g.moves = strconv.AppendInt(g.moves, int64(ply/2+1), 10)
			g.moves = append(g.moves, ". "...)
		} else if comments {
			g.moves = strconv.AppendInt(g.moves, int64(ply/2+1), 10)
			g.moves = append(g.moves, "... "...)
		}
		g.moves = append(g.moves, pos.SAN(m)...)
		pos.Play(m)
		if ply == 5 {
			end.ecoKey = pos.Key()
		}
		if !comments {
			g.moves = append(g.moves, ' ')
			continue
		}
		g.moves = append(g.moves, " { "...)
		if analysed {
			eval += rng.NormFloat64() * 0.35
			g.moves = appendEval(g.moves, eval, ply, plies)
		}
		if tc.base >= 0 {
			side := ply % 2
			think := rng.ExpFloat64() * float64(tc.base) / 60
			clocks[side] = max(0, clocks[side]-think) + float64(tc.inc)
			if analysed {
				g.moves = append(g.moves, ' ')
			}
			g.moves = appendClock(g.moves, clocks[side])
		}
		g.moves = append(g.moves, " } "...)
	}
	end.whiteToMoveAtLast = pos.WhiteToMove()
	return end
}

// pickResult draws the result of a game that ended so, and how it ended:
// a mate or stalemate decides it, else lichess's mix of wins and draws,
// some on time or abandoned.
func pickResult(rng *rand.Rand, end gameEnd) (result, termination string) {
	result, termination = "1/2-1/2", "Normal"
	switch r := rng.IntN(100); {
	case end.mated && end.whiteToMoveAtLast:
		result = "0-1"
	case end.mated:
		result = "1-0"
	case end.stalemate:
	case r < 49:
		result = "1-0"
	case r < 95:
		result = "0-1"
	}
	if !end.mated && !end.stalemate && result != "1/2-1/2" {
		if rng.IntN(4) == 0 {
			termination = "Time forfeit"
		} else if rng.IntN(200) == 0 {
			termination = "Abandoned"
		}
	}
	return result, termination
}

// choose draws a move: in every position the moves are ranked by a hash
// of the position and the move (the same ranking in every game, as real
// players prefer the same moves), and rank r is chosen with probability
// keep·(1-keep)^r.
func (g *generator) choose(pos *board.Position, legal []board.Move, keep float64) board.Move {
	g.ranked = g.ranked[:0]
	for _, m := range legal {
		g.ranked = append(g.ranked, rankedMove{m, mix(uint64(pos.Key()) ^ uint64(m)*0x9e3779b97f4a7c15)})
	}
	// Insertion sort by score, highest first: a few dozen moves.
	for i := 1; i < len(g.ranked); i++ {
		for j := i; j > 0 && g.ranked[j].score > g.ranked[j-1].score; j-- {
			g.ranked[j], g.ranked[j-1] = g.ranked[j-1], g.ranked[j]
		}
	}
	r := 0
	for r < len(g.ranked)-1 && g.rng.Float64() >= keep {
		r++
	}
	return g.ranked[r].m
}

// mix is SplitMix64's finaliser: a well-spread hash of x.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

func pickTimeControl(percent int) timeControl {
	for _, tc := range timeControls {
		if percent < tc.share {
			return tc
		}
		percent -= tc.share
	}
	return timeControls[len(timeControls)-1]
}

// rating is a player's rating: roughly lichess's spread.
func rating(rng *rand.Rand) int {
	return int(math.Round(min(3200, max(600, 1550+rng.NormFloat64()*330))))
}

// player is one of 50,000 user names.
func player(rng *rand.Rand) string {
	n := rng.IntN(50000)
	prefixes := [...]string{"chess", "Magnus", "pawn", "knight", "Blitz", "tactic", "Dragon", "rook"}
	return prefixes[n%len(prefixes)] + strconv.FormatInt(int64(n), 36)
}

func tag(o []byte, name, value string) []byte {
	o = append(o, '[')
	o = append(o, name...)
	o = append(o, " \""...)
	o = append(o, value...)
	return append(o, "\"]\n"...)
}

func twoDigits(n int) string {
	return string([]byte{byte('0' + n/10), byte('0' + n%10)})
}

func signed(n int) string {
	if n >= 0 {
		return "+" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// appendClock writes [%clk h:mm:ss].
func appendClock(b []byte, secs float64) []byte {
	s := int(secs)
	b = append(b, "[%clk "...)
	b = strconv.AppendInt(b, int64(s/3600), 10)
	b = append(b, ':')
	b = append(b, twoDigits(s/60%60)...)
	b = append(b, ':')
	b = append(b, twoDigits(s%60)...)
	return append(b, ']')
}

// appendEval writes [%eval 0.17], or a mate score such as [%eval #-3]
// near the end of a lopsided game.
func appendEval(b []byte, eval float64, ply, plies int) []byte {
	b = append(b, "[%eval "...)
	if math.Abs(eval) > 6 && plies-ply < 8 {
		n := int64(max(1, (plies-ply+1)/2))
		b = append(b, '#')
		b = strconv.AppendInt(b, n*sign(eval), 10)
		return append(b, ']')
	}
	b = strconv.AppendFloat(b, math.Round(eval*100)/100, 'f', -1, 64)
	return append(b, ']')
}

func sign(x float64) int64 {
	if x < 0 {
		return -1
	}
	return 1
}
