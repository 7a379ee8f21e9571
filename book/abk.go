package book

import (
	"encoding/binary"
	"fmt"
	"io"
	"path/filepath"
	"strings"

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
	ABKRecordSize  = 28
	ABKFirstRecord = 900
	ABKHeaderSize  = ABKFirstRecord * ABKRecordSize // 25,200 bytes
)

// Where the book's settings lie in the header: little-endian int32s.
const (
	abkMinGamesOffset           = 0xDE
	abkMinWonGamesOffset        = 0xE2
	abkMinWinPercentWhiteOffset = 0xE6
	abkMinWinPercentBlackOffset = 0xEA
	abkPriorityImportanceOffset = 0xEE
	abkGamesImportanceOffset    = 0xF2
	abkScoreImportanceOffset    = 0xF6
	abkMaxPlyOffset             = 0xFA
)

// abkDeleted is the flags value of a deleted record.
const abkDeleted = 0x01000000

// ABKSettings are an ABK book's "book settings" as Arena keeps them in
// the header, as stored (Effective clamps them the way they are used).
type ABKSettings struct {
	MinGames           int32 `json:"min_games"`
	MinWonGames        int32 `json:"min_won_games"`
	MinWinPercentWhite int32 `json:"min_win_percent_white"`
	MinWinPercentBlack int32 `json:"min_win_percent_black"`
	PriorityImportance int32 `json:"priority_importance"` // 0-15
	GamesImportance    int32 `json:"games_importance"`    // 0-15
	ScoreImportance    int32 `json:"score_importance"`    // 0-15
	MaxPly             int32 `json:"max_ply"`
}

var abkSettingOffsets = [8]int{abkMinGamesOffset, abkMinWonGamesOffset, abkMinWinPercentWhiteOffset,
	abkMinWinPercentBlackOffset, abkPriorityImportanceOffset, abkGamesImportanceOffset,
	abkScoreImportanceOffset, abkMaxPlyOffset}

func (s *ABKSettings) fields() [8]*int32 {
	return [8]*int32{&s.MinGames, &s.MinWonGames, &s.MinWinPercentWhite, &s.MinWinPercentBlack,
		&s.PriorityImportance, &s.GamesImportance, &s.ScoreImportance, &s.MaxPly}
}

// DecodeABKSettings reads the settings from a header (at least 0xFE bytes).
func DecodeABKSettings(header []byte) ABKSettings {
	var s ABKSettings
	for i, f := range s.fields() {
		*f = int32(binary.LittleEndian.Uint32(header[abkSettingOffsets[i]:]))
	}
	return s
}

// Encode writes the settings into a header (at least 0xFE bytes).
func (s ABKSettings) Encode(header []byte) {
	for i, f := range s.fields() {
		binary.LittleEndian.PutUint32(header[abkSettingOffsets[i]:], uint32(*f))
	}
}

// Effective is the settings as they decide the moves: each clamped to its
// range (games counts to 0 and up, percents 0-100, importances 0-15, max
// ply 0-9999), and with all three importances 0 the filters off, as Arena's
// readers (DroidFish's among them) take them.
func (s ABKSettings) Effective() ABKSettings {
	clamp := func(v, hi int32) int32 { return min(max(v, 0), hi) }
	e := ABKSettings{
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

// ABKRecord is one 28-byte record of an ABK book.
type ABKRecord struct {
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
	Flags               int32 // abkDeleted for a deleted move
	Next                int32 // first reply (by the other side); 0 or less: none
	Sibling             int32 // next alternative (same side); 0 or less: none
}

// DecodeABKRecord reads a record from the first 28 bytes of b.
func DecodeABKRecord(b []byte) ABKRecord {
	_ = b[ABKRecordSize-1]
	i32 := func(o int) int32 { return int32(binary.LittleEndian.Uint32(b[o:])) }
	return ABKRecord{
		From: board.Square(b[0]), To: board.Square(b[1]), Promo: int8(b[2]), Priority: int8(b[3]),
		Games: i32(4), Wins: i32(8), Losses: i32(12), Flags: i32(16), Next: i32(20), Sibling: i32(24),
	}
}

// Encode writes the record into the first 28 bytes of b.
func (r ABKRecord) Encode(b []byte) {
	_ = b[ABKRecordSize-1]
	b[0], b[1], b[2], b[3] = byte(r.From), byte(r.To), byte(r.Promo), byte(r.Priority)
	for i, v := range [6]int32{r.Games, r.Wins, r.Losses, r.Flags, r.Next, r.Sibling} {
		binary.LittleEndian.PutUint32(b[4+4*i:], uint32(v))
	}
}

// Deleted reports a record marked deleted.
func (r ABKRecord) Deleted() bool { return r.Flags == abkDeleted }

// Move is the record's move in Polyglot's coding, as played (castling as
// the king's move, e1g1); ok is false for squares or a promotion code out
// of range.
func (r ABKRecord) Move() (m board.Move, ok bool) {
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

// abkPromo is the record's promotion code for p played by white.
func abkPromo(p board.Promo, white bool) int8 {
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

// abkStartMove reports whether the record's move is one of the 20 moves of
// the start position: what tells an ABK file by its content (the header
// has no signature; many writers leave it zero but for the settings).
func abkStartMove(r ABKRecord) bool {
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

// IsABKPath reports a file name ending in .abk (any case): the tools
// write an ABK book to such a name, a Polyglot book to any other.
func IsABKPath(path string) bool { return strings.EqualFold(filepath.Ext(path), ".abk") }

// ABKError is a corrupt part of an ABK tree: the record where it was met
// and what is wrong. The rest of the book is still read.
type ABKError struct {
	Record int32
	Reason string
}

func (e ABKError) Error() string { return fmt.Sprintf("record %d: %s", e.Record, e.Reason) }

// isABKFile reports whether the open file f of size bytes is an ABK book:
// by its content, or by its name when too short or too damaged to tell (so
// that the error speaks of ABK).
func isABKFile(f io.ReaderAt, path string, size int64) (bool, error) {
	if IsABKPath(path) {
		return true, nil
	}
	if size < ABKHeaderSize+ABKRecordSize {
		return false, nil
	}
	head := make([]byte, ABKRecordSize)
	if _, err := f.ReadAt(head, ABKHeaderSize); err != nil {
		return false, err
	}
	return abkStartMove(DecodeABKRecord(head)), nil
}
