package cli

import (
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/polyproxy/polyproxy/book/build"
	"github.com/polyproxy/polyproxy/book/pgn"
)

var sumCountsCommand = command{
	name: "sum-counts", summary: "add counts files (make-book -counts) made from parts of a game collection",
	usage: `usage: polyproxy sum-counts -out ALL.counts PART1.counts PART2.counts ...
Adds counts files (make-book -counts) exactly. Give them in the order of the games they
counted: a position's moves keep their order of first appearance, as one build has it.
Files counted with different -max-ply or game filters are refused. The games of each variant
(standard, Chess960) add up too, for the book's @PG@ header.
`,
	required: []string{"out"},
	// The inputs are arguments, in order, so that a shell glob or xargs
	// can pass them.
	operands: "counts files",
	new:      func() options { return &sumCountsOptions{} },
}

type sumCountsOptions struct {
	out    string
	inputs []string
}

func (o *sumCountsOptions) define(fs *flag.FlagSet) {
	fs.StringVar(&o.out, "out", "", "counts `file` to write (replaced atomically; not an input)")
}

func (o *sumCountsOptions) validate(cl *commandLine) error {
	o.inputs = cl.operands()
	if len(o.inputs) == 0 {
		return usageErrorf("no counts files to add")
	}
	return nil
}

func (o *sumCountsOptions) files() (inputs, outputs []fileArg) {
	for _, name := range o.inputs {
		inputs = append(inputs, fileArg{"counts file", name})
	}
	return inputs, []fileArg{{"-out", o.out}}
}

func (o *sumCountsOptions) run(e *env) error {
	start := time.Now()
	readers, ins, err := openCounts(o.inputs)
	if err != nil {
		return err
	}
	defer ins.Close()
	var st build.SumStats
	err = e.outs.WriteFileFrom(o.out, func(w io.Writer) error {
		var err error
		st, err = build.SumCounts(readers, w)
		return err
	})
	if err != nil {
		return fmt.Errorf("%w; nothing written", err)
	}
	if err := e.commit(); err != nil {
		return err
	}
	ins.warn(e)
	fmt.Fprintf(e.stderr, "sum-counts: %d files, %d games", len(o.inputs), st.Games)
	if n := build.Chess960Games(st.Variants); n > 0 {
		fmt.Fprintf(e.stderr, " (%d Chess960)", n)
	}
	fmt.Fprintf(e.stderr, ", %d positions, %d position-moves written to %s in %.2fs\n",
		st.Positions, st.Records, o.out, time.Since(start).Seconds())
	return nil
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
func (ins pgnInputs) warn(e *env) {
	for _, in := range ins {
		for _, w := range in.Warnings() {
			e.warnf("%s: %s", in.Name, w)
		}
	}
}
