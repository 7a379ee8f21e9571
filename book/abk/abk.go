package abk

import (
	"encoding/binary"
	"fmt"

	"github.com/polyproxy/polyproxy/book/board"
)

// Arena's ABK book format. A file of 28-byte little-endian records: the
// first 900 are the header (among others the book's settings below), and
// record 900 (byte 25,200) is the first of the moves from the start
// position. The moves form a tree: a record's Next is the first reply (by
// the other side), its Sibling the next alternative of the same side; the
// moves of one position are a sibling chain. Castling is the king's
// two-square move. Transpositions are separate branches.
const (
	RecordSize  = 28
	FirstRecord = 900
	HeaderSize  = FirstRecord * RecordSize // 25,200 bytes
)

// Where the book's settings lie in the header: little-endian int32s.
const (
	minGamesOffset           = 0xDE
	minWonGamesOffset        = 0xE2
	minWinPercentWhiteOffset = 0xE6
	minWinPercentBlackOffset = 0xEA
	priorityImportanceOffset = 0xEE
	gamesImportanceOffset    = 0xF2
	scoreImportanceOffset    = 0xF6
	maxPlyOffset             = 0xFA
)

// syntheticMark, in the header far from the settings, marks a book
// whose game counts carry the chances of the book it was converted from
// (Write): each record's games are the chance in units of SyntheticUnit,
// plus the games played and learned (wins and losses are those games').
// polyproxy's reader tells the two apart and never shows the chance as
// games played. DroidFish reads nothing of the header but the settings; a
// header Arena rewrites loses the mark.
var syntheticMark = []byte("polyproxy: the game counts are a converted book's chances in units of 32768, plus the games learned since")

const syntheticMarkOffset = 0x4000

// SyntheticUnit is a converted book's unit of chance in a record's games
// (SyntheticGames): below it, the games learned; 32767 at most a record,
// and the chance of the likeliest move, 65535 units, still fits an int32.
const SyntheticUnit = 1 << 15

// SyntheticGames reports a header marked by polyproxy's writer: the
// book's game counts carry a converted book's chances in units of
// SyntheticUnit.
func SyntheticGames(header []byte) bool {
	end := syntheticMarkOffset + len(syntheticMark)
	return len(header) >= end && string(header[syntheticMarkOffset:end]) == string(syntheticMark)
}

// syntheticPart is the part of a record's games that carries a chance
// in a converted book (SyntheticGames), the rest being games played.
func syntheticPart(games int32) int64 { return int64(max(games, 0)) &^ (SyntheticUnit - 1) }

// deletedFlag is the flags value of a deleted record.
const deletedFlag = 0x01000000

// Settings are an ABK book's "book settings" as Arena keeps them in
// the header, as stored (Effective clamps them the way they are used).
type Settings struct {
	MinGames           int32 `json:"min_games"`
	MinWonGames        int32 `json:"min_won_games"`
	MinWinPercentWhite int32 `json:"min_win_percent_white"`
	MinWinPercentBlack int32 `json:"min_win_percent_black"`
	PriorityImportance int32 `json:"priority_importance"` // 0-15
	GamesImportance    int32 `json:"games_importance"`    // 0-15
	ScoreImportance    int32 `json:"score_importance"`    // 0-15
	MaxPly             int32 `json:"max_ply"`
}

var settingOffsets = [8]int{minGamesOffset, minWonGamesOffset, minWinPercentWhiteOffset,
	minWinPercentBlackOffset, priorityImportanceOffset, gamesImportanceOffset,
	scoreImportanceOffset, maxPlyOffset}

func (s *Settings) fields() [8]*int32 {
	return [8]*int32{&s.MinGames, &s.MinWonGames, &s.MinWinPercentWhite, &s.MinWinPercentBlack,
		&s.PriorityImportance, &s.GamesImportance, &s.ScoreImportance, &s.MaxPly}
}

// DecodeSettings reads the settings from a header (at least 0xFE bytes).
func DecodeSettings(header []byte) Settings {
	var s Settings
	for i, f := range s.fields() {
		*f = int32(binary.LittleEndian.Uint32(header[settingOffsets[i]:]))
	}
	return s
}

// Encode writes the settings into a header (at least 0xFE bytes).
func (s Settings) Encode(header []byte) {
	for i, f := range s.fields() {
		binary.LittleEndian.PutUint32(header[settingOffsets[i]:], uint32(*f))
	}
}

// Effective is the settings as they decide the moves: each clamped to its
// range (games counts to 0 and up, percents 0-100, importances 0-15, max
// ply 0-9999), and with all three importances 0 the filters off, as Arena's
// readers (DroidFish's among them) take them.
func (s Settings) Effective() Settings {
	clamp := func(v, hi int32) int32 { return min(max(v, 0), hi) }
	e := Settings{
		MinGames:           max(s.MinGames, 0),
		MinWonGames:        max(s.MinWonGames, 0),
		MinWinPercentWhite: clamp(s.MinWinPercentWhite, 100),
		MinWinPercentBlack: clamp(s.MinWinPercentBlack, 100),
		PriorityImportance: clamp(s.PriorityImportance, 15),
		GamesImportance:    clamp(s.GamesImportance, 15),
		ScoreImportance:    clamp(s.ScoreImportance, 15),
		MaxPly:             clamp(s.MaxPly, 9999),
	}
	if e.PriorityImportance == 0 && e.GamesImportance == 0 && e.ScoreImportance == 0 {
		e.MinGames, e.MinWonGames, e.MinWinPercentWhite, e.MinWinPercentBlack = 0, 0, 0, 0
	}
	return e
}

// Record is one 28-byte record of an ABK book.
type Record struct {
	From, To board.Square
	// Promo is the promotion piece: 0 none, 1 rook, 2 knight, 3 bishop,
	// 4 queen; negative for White's (as Arena writes it), positive for
	// Black's.
	Promo    int8
	Priority int8 // 0 bad ... 9 best
	// Games, Wins and Losses count the games the move was played in, and
	// of them those White won and lost (White's view for either side's
	// moves).
	Games, Wins, Losses int32
	Flags               int32 // deletedFlag for a deleted move
	Next                int32 // first reply (by the other side); 0 or less: none
	Sibling             int32 // next alternative (same side); 0 or less: none
}

// DecodeRecord reads a record from the first 28 bytes of b.
func DecodeRecord(b []byte) Record {
	_ = b[RecordSize-1]
	i32 := func(o int) int32 { return int32(binary.LittleEndian.Uint32(b[o:])) }
	return Record{
		From: board.Square(b[0]), To: board.Square(b[1]), Promo: int8(b[2]), Priority: int8(b[3]),
		Games: i32(4), Wins: i32(8), Losses: i32(12), Flags: i32(16), Next: i32(20), Sibling: i32(24),
	}
}

// Encode writes the record into the first 28 bytes of b.
func (r Record) Encode(b []byte) {
	_ = b[RecordSize-1]
	b[0], b[1], b[2], b[3] = byte(r.From), byte(r.To), byte(r.Promo), byte(r.Priority)
	for i, v := range [6]int32{r.Games, r.Wins, r.Losses, r.Flags, r.Next, r.Sibling} {
		binary.LittleEndian.PutUint32(b[4+4*i:], uint32(v))
	}
}

// Deleted reports a record marked deleted.
func (r Record) Deleted() bool { return r.Flags == deletedFlag }

// Move is the record's move in Polyglot's coding, as played (castling as
// the king's move, e1g1); ok is false for squares or a promotion code out
// of range.
func (r Record) Move() (m board.Move, ok bool) {
	if r.From > 63 || r.To > 63 {
		return 0, false
	}
	var p board.Promo
	switch r.Promo {
	case 0:
		p = board.NoPromo
	case 1, -1:
		p = board.PromoRook
	case 2, -2:
		p = board.PromoKnight
	case 3, -3:
		p = board.PromoBishop
	case 4, -4:
		p = board.PromoQueen
	default:
		return 0, false
	}
	return board.NewMove(r.From, r.To, p), true
}

// promoCode is the record's promotion code for p played by white.
func promoCode(p board.Promo, white bool) int8 {
	var c int8
	switch p {
	case board.PromoRook:
		c = 1
	case board.PromoKnight:
		c = 2
	case board.PromoBishop:
		c = 3
	case board.PromoQueen:
		c = 4
	}
	if white {
		c = -c
	}
	return c
}

// startMove reports whether the record's move is one of the 20 moves of
// the start position: what the first record of a book must hold (the
// header has no signature; many writers leave it zero but for the
// settings).
func startMove(r Record) bool {
	if r.Promo != 0 || r.From > 63 || r.To > 63 {
		return false
	}
	from, to := int(r.From), int(r.To)
	switch {
	case from >= 8 && from < 16: // a pawn: one or two squares ahead
		return to == from+8 || to == from+16
	case from == 1: // Nb1: a3, c3
		return to == 16 || to == 18
	case from == 6: // Ng1: f3, h3
		return to == 21 || to == 23
	}
	return false
}

// Problem is a corrupt part of an ABK tree: the record where it was met
// and what is wrong. The rest of the book is still read.
type Problem struct {
	Record int32
	Reason string
}

func (e Problem) Error() string { return fmt.Sprintf("record %d: %s", e.Record, e.Reason) }
