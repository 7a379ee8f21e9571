package ctg

import (
	"encoding/binary"
	"fmt"
)

// StatsSize is the size of a position's statistics, after its moves.
const StatsSize = 33

// Stats are a position's statistics as the book holds them, from the view
// of the side to move there: three-byte counts of the games that reached
// it and of their wins, losses and draws; two pairs (games, sum) the
// format's description calls the players' rating and their performance;
// the recommendation byte and the commentary byte. Bytes 12-15 and 31
// have no known meaning and are kept as read.
type Stats struct {
	Games, Wins, Losses, Draws int
	Unknown12                  uint32
	RatedGames                 int
	RatingSum                  uint32
	PerfGames                  int
	PerfSum                    uint32
	Recommendation             byte
	Unknown31                  byte
	Commentary                 byte
}

func u24(b []byte) int { return int(b[0])<<16 | int(b[1])<<8 | int(b[2]) }

func putU24(b []byte, v int) { b[0], b[1], b[2] = byte(v>>16), byte(v>>8), byte(v) }

// DecodeStats reads statistics from the first StatsSize bytes of b.
func DecodeStats(b []byte) Stats {
	_ = b[StatsSize-1]
	return Stats{
		Games: u24(b[0:]), Wins: u24(b[3:]), Losses: u24(b[6:]), Draws: u24(b[9:]),
		Unknown12:  binary.BigEndian.Uint32(b[12:]),
		RatedGames: u24(b[16:]), RatingSum: binary.BigEndian.Uint32(b[19:]),
		PerfGames: u24(b[23:]), PerfSum: binary.BigEndian.Uint32(b[26:]),
		Recommendation: b[30], Unknown31: b[31], Commentary: b[32],
	}
}

// Encode writes the statistics into the first StatsSize bytes of b; counts
// are cut to their three bytes.
func (s Stats) Encode(b []byte) {
	_ = b[StatsSize-1]
	putU24(b[0:], s.Games)
	putU24(b[3:], s.Wins)
	putU24(b[6:], s.Losses)
	putU24(b[9:], s.Draws)
	binary.BigEndian.PutUint32(b[12:], s.Unknown12)
	putU24(b[16:], s.RatedGames)
	binary.BigEndian.PutUint32(b[19:], s.RatingSum)
	putU24(b[23:], s.PerfGames)
	binary.BigEndian.PutUint32(b[26:], s.PerfSum)
	b[30], b[31], b[32] = s.Recommendation, s.Unknown31, s.Commentary
}

// Avoid reports a position marked as one to avoid in tournaments
// (recommendation 64-127, a "red" move into it).
func (s *Stats) Avoid() bool { return s.Recommendation >= 64 && s.Recommendation < 128 }

// MainLine reports a position marked as a main line (recommendation 128
// and up, a "green" move into it).
func (s *Stats) MainLine() bool { return s.Recommendation >= 128 }

// Rating is the players' average rating (0 without rated games).
func (s *Stats) Rating() int {
	if s.RatedGames == 0 {
		return 0
	}
	return int(int64(s.RatingSum) / int64(s.RatedGames))
}

// Performance is the players' average performance (0 without games).
func (s *Stats) Performance() int {
	if s.PerfGames == 0 {
		return 0
	}
	return int(int64(s.PerfSum) / int64(s.PerfGames))
}

// Annotation is a book move's annotation byte.
type Annotation byte

// The annotations known.
const (
	NoAnnotation Annotation = 0x00
	Good         Annotation = 0x01 // !
	Mistake      Annotation = 0x02 // ?
	Brilliant    Annotation = 0x03 // !!
	Blunder      Annotation = 0x04 // ??
	Interesting  Annotation = 0x05 // !?
	Dubious      Annotation = 0x06 // ?!
	OnlyMove     Annotation = 0x08
	Zugzwang     Annotation = 0x16
)

func (a Annotation) String() string {
	switch a {
	case NoAnnotation:
		return ""
	case Good:
		return "!"
	case Mistake:
		return "?"
	case Brilliant:
		return "!!"
	case Blunder:
		return "??"
	case Interesting:
		return "!?"
	case Dubious:
		return "?!"
	case OnlyMove:
		return "only move"
	case Zugzwang:
		return "zugzwang"
	}
	return fmt.Sprintf("0x%02x", byte(a))
}

// Options are the two choices DroidFish offers over a CTG book's weights.
type Options struct {
	// TournamentMode never plays a move into a position marked to avoid
	// in tournaments.
	TournamentMode bool `json:"tournament_mode"`
	// PreferMainLines multiplies the weight of a move into a main-line
	// position, and of an "only move", by mainLineFactor: the other moves
	// are then as good as never played.
	PreferMainLines bool `json:"prefer_main_lines"`
}

// mainLineFactor is what PreferMainLines multiplies by; an "only move"
// into a main line gets it once, not twice.
const mainLineFactor = 1e6

// factor is the annotation's share of a move's weight: ! 1.23, !! 1.46,
// ?, ?? and ?! 0 (never played), an only move mainLineFactor when main
// lines are preferred, any other 1.
func (a Annotation) factor(opt Options) float64 {
	switch a {
	case Good:
		return 1.23
	case Brilliant:
		return 1.46
	case Mistake, Blunder, Dubious:
		return 0
	case OnlyMove:
		if opt.PreferMainLines {
			return mainLineFactor
		}
	}
	return 1
}

// Weight is DroidFish's weight for a move of annotation a leading to a
// position of statistics next (nil: the book has not got it, weight 0):
// the annotation's factor, times the main-line factor or 0 by the options
// and next's recommendation, times the points the move's side scored from
// there (next's losses twice and its draws), plus 1/10000 so that a move
// whose games were all lost can still be played.
func Weight(a Annotation, next *Stats, opt Options) float64 {
	if next == nil {
		return 0
	}
	w := a.factor(opt)
	switch {
	case next.Avoid():
		if opt.TournamentMode {
			w = 0
		}
	case next.MainLine():
		if opt.PreferMainLines && w != mainLineFactor {
			w *= mainLineFactor
		}
	}
	return w * (float64(2*next.Losses+next.Draws) + 1e-4)
}
