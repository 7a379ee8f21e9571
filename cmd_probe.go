package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/polyproxy/polyproxy/book"
)

func init() {
	register("probe", "show a position's key and every book entry for it", runProbe)
}

// probeEntry is one entry in probe's JSON output.
type probeEntry struct {
	Index    int     `json:"index"` // entry number in the file
	Move     string  `json:"move"`  // as played (castling e1g1)
	Raw      string  `json:"raw"`   // as stored (castling e1h1)
	Weight   uint16  `json:"weight"`
	Share    float64 `json:"share"` // of the legal entries' total weight, 0..1
	Learn    uint32  `json:"learn"`
	Games    uint16  `json:"games"`
	Points   uint16  `json:"points"` // half points: win 2, draw 1
	Legal    bool    `json:"legal"`
	Eligible bool    `json:"eligible"` // could be chosen (weight, threshold)
	Note     string  `json:"note,omitempty"`
}

type probeResult struct {
	Key         string       `json:"key"`
	FEN         string       `json:"fen"`
	TotalWeight uint64       `json:"total_weight"` // of the legal entries
	Entries     []probeEntry `json:"entries"`
}

func runProbe(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("probe", flag.ContinueOnError)
	fs.SetOutput(stderr)
	bookPath := fs.String("book", "", "book `file` to read")
	fen := fs.String("fen", "", "start `position` (default: the standard start position)")
	moves := fs.String("moves", "", "`UCI moves` to play from the start position, space-separated, e.g. \"e2e4 e7e5\"")
	asJSON := fs.Bool("json", false, "print exactly one JSON object: {\"key\":...,\"entries\":[{\"move\":...,\"raw\":...,\"weight\":...,\"learn\":...,\"legal\":...},...]}")
	threshold := fs.Int("threshold", book.DefaultOptions().ThresholdPerMille, "BookTreshold in `per mille`, for the eligible column")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: polyproxy probe -book FILE [-fen FEN] [-moves \"e2e4 e7e5 ...\"] [-json] [-threshold N]")
		fmt.Fprintln(stderr, "Lists the position's entries in file order. Shares are of the total weight of the legal entries;")
		fmt.Fprintln(stderr, "learn is the raw field, shown as games (high 16 bits) / points (low 16 bits, half points).")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args, stderr, "book"); !ok {
		return code
	}
	line, err := book.NewLine(*fen)
	if err != nil {
		fmt.Fprintln(stderr, "probe: -fen:", err)
		return 2
	}
	if err := line.PlayMoves(*moves); err != nil {
		fmt.Fprintln(stderr, "probe: -moves:", err)
		return 2
	}
	b, err := openChecked(*bookPath, stderr, "probe")
	if err != nil {
		return 1
	}
	defer b.Close()

	opts := book.DefaultOptions()
	opts.ThresholdPerMille = *threshold
	cands := book.NewChooser(opts, 1).Candidates(b, &line.Pos, nil)
	res := probeResult{Key: line.Pos.Key().String(), Entries: []probeEntry{}}
	if cp := line.Chess(); cp != nil {
		res.FEN = cp.String()
	}
	for _, cd := range cands {
		games, points := book.LearnGamesPoints(cd.Entry.Learn)
		res.TotalWeight += cd.Weight
		res.Entries = append(res.Entries, probeEntry{
			Index: cd.Index, Move: cd.Move.String(), Raw: cd.Entry.Move.String(), Weight: cd.Entry.Weight,
			Share: cd.Share, Learn: cd.Entry.Learn, Games: games, Points: points,
			Legal: cd.Legal, Eligible: cd.Eligible, Note: cd.Why,
		})
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		if err := enc.Encode(res); err != nil {
			fmt.Fprintln(stderr, "probe:", err)
			return 1
		}
		return 0
	}
	fmt.Fprintf(stdout, "book: %s\nfen:  %s\nkey:  %s\n", *bookPath, res.FEN, res.Key)
	if len(res.Entries) == 0 {
		fmt.Fprintln(stdout, "not in book")
		return 0
	}
	fmt.Fprintf(stdout, "%d entries, total weight of the legal ones %d\n\n", len(res.Entries), res.TotalWeight)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "move\traw\tweight\tshare\tlearn\tgames\tpoints\tlegal\t\tnote")
	for _, e := range res.Entries {
		share, legal := "-", "no"
		if e.Legal {
			share, legal = fmt.Sprintf("%.2f%%", 100*e.Share), "yes"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%#08x\t%d\t%d\t%s\t\t%s\n", e.Move, e.Raw, e.Weight, share, e.Learn, e.Games, e.Points, legal, e.Note)
	}
	tw.Flush()
	return 0
}
