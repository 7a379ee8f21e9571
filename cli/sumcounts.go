package cli

import (
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/build"
	"github.com/polyproxy/polyproxy/book/pgn"
)

func runSumCounts(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("sum-counts", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "counts `file` to write (replaced atomically; not an input)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: polyproxy sum-counts -out ALL.counts PART1.counts PART2.counts ...")
		fmt.Fprintln(stderr, "Adds counts files (make-book -counts) exactly. Give them in the order of the games they")
		fmt.Fprintln(stderr, "counted: a position's moves keep their order of first appearance, as one build has it.")
		fmt.Fprintln(stderr, "Files counted with different -max-ply or game filters are refused. The games of each variant")
		fmt.Fprintln(stderr, "(standard, Chess960) add up too, for the book's @PG@ header.")
		fs.PrintDefaults()
	}
	// The inputs are arguments, in order, so that a shell glob or xargs
	// can pass them.
	if err := parseFlagsAndArgs(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return usageErrorf("-out is required")
	}
	if fs.NArg() == 0 {
		return usageErrorf("no counts files to add")
	}
	var inputs []fileArg
	for _, name := range fs.Args() {
		inputs = append(inputs, fileArg{"counts file", name})
	}
	if err := checkOutputs(inputs, []fileArg{{"-out", *out}}); err != nil {
		return err
	}
	start := time.Now()
	readers, ins, err := openCounts(fs.Args())
	if err != nil {
		return err
	}
	defer ins.Close()
	var st build.SumStats
	err = book.WriteFileFrom(*out, func(w io.Writer) error {
		var err error
		st, err = build.SumCounts(readers, w)
		return err
	})
	if err != nil {
		return fmt.Errorf("%v; nothing written", err)
	}
	ins.warn(stderr, "sum-counts")
	fmt.Fprintf(stderr, "sum-counts: %d files, %d games", fs.NArg(), st.Games)
	if n := chess960Games(st.Variants); n > 0 {
		fmt.Fprintf(stderr, " (%d Chess960)", n)
	}
	fmt.Fprintf(stderr, ", %d positions, %d position-moves written to %s in %.2fs\n",
		st.Positions, st.Records, *out, time.Since(start).Seconds())
	return nil
}

// chess960Games is how many of the games counted were Chess960 games.
func chess960Games(variants []build.VariantGames) uint64 {
	for _, v := range variants {
		if v.Name == book.VariantChess960 {
			return v.Games
		}
	}
	return 0
}

// openCounts opens counts files (compressed ones too) and reads their
// headers; the inputs are for closing and for their warnings.
func openCounts(files []string) ([]*build.CountsReader, pgnInputs, error) {
	var ins pgnInputs
	var readers []*build.CountsReader
	for _, name := range files {
		in, err := openInput(name)
		if err != nil {
			ins.Close()
			return nil, nil, err
		}
		ins = append(ins, in)
		cr, err := build.NewCountsReader(in)
		if err != nil {
			ins.Close()
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
		readers = append(readers, cr)
	}
	return readers, ins, nil
}

// pgnInputs are files opened with pgn.Open.
type pgnInputs []*pgn.Input

func (ins pgnInputs) Close() {
	for _, in := range ins {
		in.Close()
	}
}

// warn prints, once the inputs are read, what reading them read past
// (padding or garbage after compressed data).
func (ins pgnInputs) warn(stderr io.Writer, cmd string) {
	for _, in := range ins {
		for _, w := range in.Warnings() {
			warnf(stderr, cmd, "%s: %s", in.Name, w)
		}
	}
}
