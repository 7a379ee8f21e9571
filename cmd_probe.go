package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/config"
)

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

func runProbe(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("probe", flag.ContinueOnError)
	fs.SetOutput(stderr)
	bookPath := fs.String("book", "", "book `file` to read")
	fen := fs.String("fen", "", "start `position` (default: the standard start position)")
	moves := fs.String("moves", "", "`UCI moves` to play from the start position, space-separated, e.g. \"e2e4 e7e5\"")
	asJSON := fs.Bool("json", false, "print exactly one JSON object: {\"key\":...,\"entries\":[{\"move\":...,\"raw\":...,\"weight\":...,\"learn\":...,\"legal\":...},...]}")
	threshold := fs.Int("threshold", config.DefaultBookThreshold, "BookTreshold in `per mille`, for the eligible column")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: polyproxy probe -book FILE [-fen FEN] [-moves \"e2e4 e7e5 ...\"] [-json] [-threshold N]")
		fmt.Fprintln(stderr, "Lists the position's entries in file order. Shares are of the total weight of the legal entries;")
		fmt.Fprintln(stderr, "learn is the raw field, shown as games (high 16 bits) / points (low 16 bits, half points).")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, "book"); err != nil {
		return err
	}
	line, err := board.NewLine(*fen)
	if err != nil {
		return usageErrorf("-fen: %v", err)
	}
	if err := line.PlayMoves(strings.Fields(*moves), 0); err != nil {
		return usageErrorf("-moves: %v", err)
	}
	b, err := openChecked(*bookPath, stderr, "probe")
	if err != nil {
		return err
	}
	defer b.Close()

	opts := book.Options{Mode: book.Weighted, ThresholdPerMille: *threshold}
	cands := book.NewChooser(opts, 1).Candidates(b, &line.Pos, nil)
	res := probeResult{Key: line.Pos.Key().String(), FEN: line.Pos.FEN(), Entries: []probeEntry{}}
	for _, cd := range cands {
		res.TotalWeight += cd.Weight
		res.Entries = append(res.Entries, probeEntry{
			Index: cd.Index, Move: cd.Move.String(), Raw: cd.Entry.Move.String(), Weight: cd.Entry.Weight,
			Share: cd.Share, Learn: uint32(cd.Entry.Learn), Games: cd.Entry.Learn.Games(), Points: cd.Entry.Learn.Points(),
			Legal: cd.Legal, Eligible: cd.Eligible, Note: cd.Why,
		})
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(res)
	}
	fmt.Fprintf(stdout, "book: %s\nfen:  %s\nkey:  %s\n", *bookPath, res.FEN, res.Key)
	if len(res.Entries) == 0 {
		fmt.Fprintln(stdout, "not in book")
		return nil
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
	return tw.Flush()
}
