package build

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/polyproxy/polyproxy/book/pgn"
)

// GameFilter chooses the games (and, for -player and -min-mover-elo, the
// moves) a build counts, from the games' tags. The zero value keeps
// everything, so builds without filters stay PolyGlot's.
type GameFilter struct {
	// MinElo keeps a game only if both WhiteElo and BlackElo are at least
	// this; a missing or unreadable rating ("?", "-") drops the game.
	MinElo int
	// MinMoverElo counts only the moves of a player whose own rating tag
	// is at least this; the other side's moves are left out (a missing
	// rating counts as too low).
	MinMoverElo int
	// FromDate, ToDate (YYYYMMDD as a number, 0 = no bound) keep a game
	// whose Date tag (UTCDate when Date is missing or all "?") can lie in
	// the range: "2024.??.??" is the whole of 2024 and is kept if any day
	// of 2024 is in range. A game without a known year is dropped.
	FromDate, ToDate int
	// Players, when set, counts only the moves of these players (White or
	// Black tag, compared without case and surrounding blanks): a
	// repertoire book. Games where none of them plays are dropped.
	Players []string
	// TimeClasses, when set, keeps only games of these classes (lichess's
	// names, from the TimeControl tag: see TimeClass).
	TimeClasses []string
	// MinBaseTime keeps only games whose TimeControl gives at least this
	// many seconds of base time ("-", no limit, passes).
	MinBaseTime int
	// SkipTerminations drops games whose Termination tag is one of these
	// (compared without case), e.g. "time forfeit" and "abandoned".
	SkipTerminations []string
}

// Reasons a filter drops a game, for the summary.
const (
	FilterElo         = "rating"
	FilterDate        = "date"
	FilterPlayer      = "player"
	FilterTimeControl = "time control"
	FilterTermination = "termination"
)

// FilterReasons lists them in the order summaries list them.
var FilterReasons = [...]string{FilterElo, FilterDate, FilterPlayer, FilterTimeControl, FilterTermination}

// apply says whether a game is kept and whose moves count; reason is one
// of FilterReasons when it is dropped.
func (f *GameFilter) apply(g *pgn.Game) (white, black bool, reason string) {
	white, black = true, true
	if f.MinElo > 0 {
		we, wok := elo(g.Tag("WhiteElo"))
		be, bok := elo(g.Tag("BlackElo"))
		if !wok || !bok || we < f.MinElo || be < f.MinElo {
			return false, false, FilterElo
		}
	}
	if f.MinMoverElo > 0 {
		we, wok := elo(g.Tag("WhiteElo"))
		be, bok := elo(g.Tag("BlackElo"))
		white, black = wok && we >= f.MinMoverElo, bok && be >= f.MinMoverElo
		if !white && !black {
			return false, false, FilterElo
		}
	}
	if f.FromDate > 0 || f.ToDate > 0 {
		d := g.Tag("Date")
		lo, hi, ok := ParseDateRange(d)
		if !ok {
			lo, hi, ok = ParseDateRange(g.Tag("UTCDate"))
		}
		if !ok || f.FromDate > 0 && hi < f.FromDate || f.ToDate > 0 && lo > f.ToDate {
			return false, false, FilterDate
		}
	}
	if len(f.Players) > 0 {
		w, b := isPlayer(f.Players, g.Tag("White")), isPlayer(f.Players, g.Tag("Black"))
		white, black = white && w, black && b
		if !white && !black {
			return false, false, FilterPlayer
		}
	}
	if len(f.TimeClasses) > 0 || f.MinBaseTime > 0 {
		tc := g.Tag("TimeControl")
		base, inc, ok := ParseTimeControl(tc)
		if !ok {
			return false, false, FilterTimeControl
		}
		if f.MinBaseTime > 0 && base >= 0 && base < f.MinBaseTime {
			return false, false, FilterTimeControl
		}
		if len(f.TimeClasses) > 0 && !containsFold(f.TimeClasses, TimeClass(base, inc)) {
			return false, false, FilterTimeControl
		}
	}
	if len(f.SkipTerminations) > 0 && containsFold(f.SkipTerminations, strings.TrimSpace(g.Tag("Termination"))) {
		return false, false, FilterTermination
	}
	return white, black, ""
}

func elo(s string) (int, bool) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	return n, err == nil && n > 0
}

func isPlayer(players []string, name string) bool {
	return containsFold(players, strings.TrimSpace(name))
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(strings.TrimSpace(x), s) {
			return true
		}
	}
	return false
}

// ParseDateRange reads a PGN date, "YYYY.MM.DD" with "??" for unknown
// parts, as the range of days it can be (YYYYMMDD numbers; a month has
// days 01-31 for this purpose). A flag's date may stop early: "2024" or
// "2024.06". ok is false without a known year.
func ParseDateRange(s string) (lo, hi int, ok bool) {
	parts := strings.Split(strings.TrimSpace(s), ".")
	if len(parts) > 3 {
		return 0, 0, false
	}
	year, err := strconv.Atoi(parts[0])
	if err != nil || len(parts[0]) != 4 || year < 0 {
		return 0, 0, false
	}
	lo, hi = year*10000+101, year*10000+1231
	if len(parts) < 2 {
		return lo, hi, true
	}
	month, err := strconv.Atoi(parts[1])
	if err != nil || month < 1 || month > 12 {
		return lo, hi, true // "??": any month
	}
	lo, hi = year*10000+month*100+1, year*10000+month*100+31
	if len(parts) < 3 {
		return lo, hi, true
	}
	if day, err := strconv.Atoi(parts[2]); err == nil && day >= 1 && day <= 31 {
		lo, hi = year*10000+month*100+day, year*10000+month*100+day
	}
	return lo, hi, true
}

// ParseTimeControl reads a TimeControl tag: "600+5" (base seconds +
// increment), "600", a first period "40/5400+30:..." (its seconds and
// increment), or "-" (no limit: base -1). ok is false for "?", a missing
// tag and anything else.
func ParseTimeControl(s string) (base, inc int, ok bool) {
	s = strings.TrimSpace(s)
	if s == "-" {
		return -1, 0, true
	}
	if i := strings.IndexByte(s, ':'); i >= 0 {
		s = s[:i]
	}
	if i := strings.IndexByte(s, '/'); i >= 0 {
		s = s[i+1:]
	}
	b, i, hasInc := strings.Cut(s, "+")
	base, err := strconv.Atoi(b)
	if err != nil || base < 0 {
		return 0, 0, false
	}
	if hasInc {
		if inc, err = strconv.Atoi(i); err != nil || inc < 0 {
			return 0, 0, false
		}
	}
	return base, inc, true
}

// TimeClasses are lichess's classes by estimated game duration, base +
// 40 × increment seconds: ultrabullet < 30 s, bullet < 180 s, blitz < 480
// s, rapid < 1500 s, classical beyond; correspondence is "-".
var TimeClasses = []string{"ultrabullet", "bullet", "blitz", "rapid", "classical", "correspondence"}

// TimeClass is the class of a time control (base -1: no limit).
func TimeClass(base, inc int) string {
	if base < 0 {
		return "correspondence"
	}
	switch d := base + 40*inc; {
	case d < 30:
		return "ultrabullet"
	case d < 180:
		return "bullet"
	case d < 480:
		return "blitz"
	case d < 1500:
		return "rapid"
	}
	return "classical"
}

// ParseFlagDate reads a -from-date or -to-date value: YYYY, YYYY.MM or
// YYYY.MM.DD ('-' or '/' also separate). to picks the end of a partial
// date's range.
func ParseFlagDate(s string, to bool) (int, error) {
	s = strings.NewReplacer("-", ".", "/", ".").Replace(strings.TrimSpace(s))
	lo, hi, ok := ParseDateRange(s)
	parts := strings.Split(s, ".")
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || i == 1 && (n < 1 || n > 12) || i == 2 && (n < 1 || n > 31) {
			ok = false
		}
	}
	if !ok {
		return 0, fmt.Errorf("bad date %q (want YYYY, YYYY.MM or YYYY.MM.DD)", s)
	}
	if to {
		return hi, nil
	}
	return lo, nil
}
