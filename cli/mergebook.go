package cli

import (
	"flag"
	"fmt"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/build"
	"github.com/polyproxy/polyproxy/book/formats"
)

var mergeBookCommand = command{
	name: "merge-book", summary: "merge two books (PolyGlot's merge-book; weights saturate, learn counts add)",
	usage: `usage: polyproxy merge-book BOOK1 BOOK2 -out OUT [-learn-only]      (or -in1 BOOK1 -in2 BOOK2)
A key in one book is copied; for a key in both, BOOK1's moves in its order with BOOK2's weight
added (capped at 65535), then BOOK2's other moves. Learn fields add as counters (games,
points; both halved if a sum overflows). Header entries: BOOK1's, else BOOK2's; a new one when their variant lists differ.
Either book may be ABK (Arena's format) or CTG (ChessBase's: its walk from the start position),
read as the Polyglot book it amounts to; a .abk -out writes the merged book as an ABK tree from
the start position. An existing OUT is replaced under the lock learners take (a learner's write waits,
and this waits for it); OUT may be BOOK1 or BOOK2, and is then written only if it is unchanged since it was read.
`,
	required: []string{"in1", "in2", "out"},
	args:     []operand{{flag: "in1", name: "BOOK1"}, {flag: "in2", name: "BOOK2"}},
	new:      func() options { return &mergeBookOptions{} },
}

type mergeBookOptions struct {
	in1, in2, out string
	learnOnly     bool
	read          readFlags
}

func (o *mergeBookOptions) define(fs *flag.FlagSet) {
	fs.StringVar(&o.in1, "in1", "", "first book `file` (its order and header win)")
	fs.StringVar(&o.in2, "in2", "", "second book `file`")
	fs.StringVar(&o.out, "out", "", "book `file` to write: ABK (Arena's format) for a .abk name, else Polyglot (replaced atomically under its lock; may be BOOK1 or BOOK2)")
	fs.BoolVar(&o.learnOnly, "learn-only", false, "output in1 unchanged except that in2's learn counts are added to the same entries")
	o.read.define(fs)
}

func (o *mergeBookOptions) replacesInputs() {}

func (o *mergeBookOptions) validate(*commandLine) error { return nil }

func (o *mergeBookOptions) files() (inputs, outputs []fileArg) {
	return []fileArg{{"-in1", o.in1}, {"-in2", o.in2}}, []fileArg{{"-out", o.out}}
}

func (o *mergeBookOptions) run(e *env) error {
	start := time.Now()
	out, err := lockOutput(e, o.out)
	if err != nil {
		return err
	}
	out.reading(o.in1)
	a, err := formats.OpenWhole(o.in1, o.read.options(), 0)
	if err != nil {
		return err
	}
	defer a.Close()
	out.reading(o.in2)
	b, err := formats.OpenWhole(o.in2, o.read.options(), 0)
	if err != nil {
		return err
	}
	defer b.Close()
	for _, bk := range []*book.Book{a, b} {
		warnBook(e, bk, bk.Warnings())
	}
	entries, st, err := build.Merge(a, b, o.learnOnly)
	if err != nil {
		return fmt.Errorf("%w; nothing written", err)
	}
	written, err := writeBookAs(e, o.out, entries, formats.MaxPly)
	if err != nil {
		return err
	}
	if err := e.commit(); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "merge-book: %d + %d entries -> %s written to %s in %.2fs; %d moves in both",
		st.Entries1, st.Entries2, written, o.out, time.Since(start).Seconds(), st.Combined)
	if st.Saturated > 0 {
		fmt.Fprintf(e.stderr, ", %d weights capped at 65535", st.Saturated)
	}
	if st.LearnHalved > 0 {
		fmt.Fprintf(e.stderr, ", %d learn sums halved to fit", st.LearnHalved)
	}
	if st.Header != "" {
		fmt.Fprintf(e.stderr, ", header from %s", st.Header)
	}
	fmt.Fprintln(e.stderr)
	if st.Unmatched > 0 {
		e.warnf("%d entries of %s are not in %s and were left out (-learn-only)", st.Unmatched, o.in2, o.in1)
	}
	return nil
}
