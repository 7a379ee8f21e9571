package build

import (
	"flag"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/polyproxy/polyproxy/internal/flagval"
	"github.com/polyproxy/polyproxy/internal/lazy"
)

// Bounds of make-book's numeric settings.
const (
	// MaxGamePlies is above the longest possible game (about 17,700
	// plies under the 75-move rule).
	MaxGamePlies = 1 << 15
	// maxElo is above any rating a player or engine has.
	maxElo = 10000
	// maxBaseTime is a year in seconds: more than any TimeControl's base.
	maxBaseTime = 366 * 24 * 3600
)

// Setting is one of make-book's settings of what a book holds, declared
// once: its flag, whether it is on, what a counts file's header says of
// it, and so whether make-book -from-counts takes it. A setting of what
// is counted (max-ply, a game filter) is named in a counts file's header,
// so that counts made with different ones never add up, and
// -from-counts refuses it: the counts were made with their own. A move
// rule is applied to the counts, so -from-counts takes it.
type Setting struct {
	Flag  string // make-book's flag, without the dash; a counts header's name for it
	Usage string
	// value is the flag's value, storing into o.
	value func(o *Options) flag.Value
	// counted: its value is a counts header's "flag=value" while on
	// (nil for a move rule). A setting that only adds to another one's
	// value (skip-forfeits) is counted and says nothing itself.
	counted func(o *Options) (v string, on bool)
	// filter: a game filter, applied to each game's tags while on.
	filter bool
}

// Counted tells whether the setting is one of what is counted: a counts
// header names it, and make-book -from-counts refuses it.
func (s *Setting) Counted() bool { return s.counted != nil }

// Define defines s's flag on fs, storing into o; its default is o's
// value.
func (s *Setting) Define(fs *flag.FlagSet, o *Options) { fs.Var(s.value(o), s.Flag, s.Usage) }

// Settings is the table, in the order a counts header names them. It is
// built on first use (its usage lines are formatted): only make-book and
// learn read it, and every run of the proxy would pay.
func Settings() []Setting { return settings.Get() }

var settings = lazy.Value[[]Setting]{New: func() []Setting {
	return []Setting{
		{Flag: "max-ply", Usage: "count only the first `N` plies of each game" + intRange(0, MaxGamePlies),
			value:   func(o *Options) flag.Value { return &flagval.IntRange{P: &o.MaxPly, Min: 0, Max: MaxGamePlies} },
			counted: func(o *Options) (string, bool) { return strconv.Itoa(o.MaxPly), true }},
		{Flag: "min-game", Usage: "keep a move only if played in at least `N` games" + intRange(0, math.MaxInt32),
			value: func(o *Options) flag.Value { return &flagval.IntRange{P: &o.MinGame, Min: 0, Max: math.MaxInt32} }},
		{Flag: "min-score", Usage: "keep a move only if it scored at least `PCT` percent, from 0 to 100",
			value: func(o *Options) flag.Value { return &flagval.FloatRange{P: &o.MinScore, Min: 0, Max: 100} }},
		// As in PolyGlot, the later of -only-white / -only-black wins.
		{Flag: "only-white", Usage: "keep only moves of White",
			value: func(o *Options) flag.Value { return flagval.Switch(func() error { o.Colours = WhiteOnly; return nil }) }},
		{Flag: "only-black", Usage: "keep only moves of Black",
			value: func(o *Options) flag.Value { return flagval.Switch(func() error { o.Colours = BlackOnly; return nil }) }},
		{Flag: "uniform", Usage: "give every kept move weight 1",
			value: func(o *Options) flag.Value { return flagval.Bool{P: &o.Uniform} }},
		{Flag: "min-share", Usage: "keep a move only if played in at least `PCT` percent of its position's games, from 0 to 100",
			value: func(o *Options) flag.Value { return &flagval.FloatRange{P: &o.MinShare, Min: 0, Max: 100} }},
		{Flag: "min-elo", Usage: "only games where both WhiteElo and BlackElo are at least `N` (no rating: dropped)" + intRange(0, maxElo),
			value:   func(o *Options) flag.Value { return &flagval.IntRange{P: &o.Filter.MinElo, Min: 0, Max: maxElo} },
			counted: func(o *Options) (string, bool) { return strconv.Itoa(o.Filter.MinElo), o.Filter.MinElo > 0 }, filter: true},
		{Flag: "min-mover-elo", Usage: "only the moves of a player whose own rating is at least `N`" + intRange(0, maxElo),
			value:   func(o *Options) flag.Value { return &flagval.IntRange{P: &o.Filter.MinMoverElo, Min: 0, Max: maxElo} },
			counted: func(o *Options) (string, bool) { return strconv.Itoa(o.Filter.MinMoverElo), o.Filter.MinMoverElo > 0 }, filter: true},
		{Flag: "from-date", Usage: "only games dated `YYYY[.MM[.DD]]` or later (Date tag, else UTCDate)",
			value:   func(o *Options) flag.Value { return dateValue{&o.Filter.FromDate, false} },
			counted: func(o *Options) (string, bool) { return strconv.Itoa(o.Filter.FromDate), o.Filter.FromDate > 0 }, filter: true},
		{Flag: "to-date", Usage: "only games dated up to `YYYY[.MM[.DD]]` (a partial date: to its end)",
			value:   func(o *Options) flag.Value { return dateValue{&o.Filter.ToDate, true} },
			counted: func(o *Options) (string, bool) { return strconv.Itoa(o.Filter.ToDate), o.Filter.ToDate > 0 }, filter: true},
		{Flag: "player", Usage: "only the moves of player `NAME` (White/Black tag, any case, commas kept: \"Carlsen, Magnus\"); repeat the flag for several",
			value:   func(o *Options) flag.Value { return (*flagval.Players)(&o.Filter.Players) },
			counted: func(o *Options) (string, bool) { return countedList(o.Filter.Players) }, filter: true},
		{Flag: "time-control", Usage: "only games of these `CLASSES`: " + strings.Join(TimeClasses, ",") + " (TimeControl tag)",
			value:   func(o *Options) flag.Value { return flagval.List{P: &o.Filter.TimeClasses, Check: checkTimeClass} },
			counted: func(o *Options) (string, bool) { return countedList(o.Filter.TimeClasses) }, filter: true},
		{Flag: "min-base-time", Usage: "only games with a base time of at least `SECONDS` (TimeControl tag; - passes)" + intRange(0, maxBaseTime),
			value: func(o *Options) flag.Value {
				return &flagval.IntRange{P: &o.Filter.MinBaseTime, Min: 0, Max: maxBaseTime}
			},
			counted: func(o *Options) (string, bool) { return strconv.Itoa(o.Filter.MinBaseTime), o.Filter.MinBaseTime > 0 }, filter: true},
		{Flag: "skip-termination", Usage: "drop games whose Termination tag is one of these `VALUES`",
			value:   func(o *Options) flag.Value { return flagval.List{P: &o.Filter.SkipTerminations} },
			counted: func(o *Options) (string, bool) { return countedList(o.Filter.SkipTerminations) }, filter: true},
		{Flag: "skip-forfeits", Usage: "drop games lost on time or abandoned (Termination \"Time forfeit\" or \"Abandoned\")",
			value: func(o *Options) flag.Value {
				return flagval.Switch(func() error {
					o.Filter.SkipTerminations = append(o.Filter.SkipTerminations, "Time forfeit", "Abandoned")
					return nil
				})
			},
			counted: func(*Options) (string, bool) { return "", false }, filter: true},
	}
}}

func intRange(min, max int) string { return fmt.Sprintf(", from %d to %d", min, max) }

// countedList is a list as a counts header writes it: lower case,
// sorted, each once, so that the order and case of flags do not matter.
func countedList(l []string) (string, bool) {
	var out []string
	for _, x := range l {
		out = append(out, strings.ToLower(strings.TrimSpace(x)))
	}
	slices.Sort(out)
	return strings.Join(slices.Compact(out), ","), len(l) > 0
}

func checkTimeClass(c string) error {
	if !slices.Contains(TimeClasses, strings.ToLower(c)) {
		return fmt.Errorf("unknown class %q (have %s)", c, strings.Join(TimeClasses, ", "))
	}
	return nil
}

// dateValue is a date flag stored as YYYYMMDD: a partial date is its
// first day, or its last with to.
type dateValue struct {
	p  *int
	to bool
}

func (d dateValue) String() string {
	if d.p == nil || *d.p == 0 {
		return ""
	}
	return strconv.Itoa(*d.p)
}

func (d dateValue) Set(s string) (err error) {
	*d.p, err = ParseFlagDate(s, d.to)
	return err
}

// CountSettings describes what a build counts (the counted settings that
// are on), for a counts file's header: files are added only when their
// settings are equal.
func (o *Options) CountSettings() string {
	var parts []string
	table := Settings()
	for i := range table {
		s := &table[i]
		if s.counted == nil {
			continue
		}
		if v, on := s.counted(o); on {
			parts = append(parts, s.Flag+"="+v)
		}
	}
	return strings.Join(parts, " ")
}

// filtering tells whether a game filter is on: the games' tags are read
// only then.
func (o *Options) filtering() bool {
	table := Settings()
	for i := range table {
		s := &table[i]
		if !s.filter {
			continue
		}
		if _, on := s.counted(o); on {
			return true
		}
	}
	return false
}
