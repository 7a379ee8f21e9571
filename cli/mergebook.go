package cli

import (
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/abk"
	"github.com/polyproxy/polyproxy/book/build"
	"github.com/polyproxy/polyproxy/book/formats"
)

func runMergeBook(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("merge-book", flag.ContinueOnError)
	fs.SetOutput(stderr)
	in1 := fs.String("in1", "", "first book `file` (its order and header win)")
	in2 := fs.String("in2", "", "second book `file`")
	out := fs.String("out", "", "book `file` to write: ABK (Arena's format) for a .abk name, else Polyglot (replaced atomically; not an input)")
	learnOnly := fs.Bool("learn-only", false, "output in1 unchanged except that in2's learn counts are added to the same entries")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: polyproxy merge-book -in1 A -in2 B -out C [-learn-only]")
		fmt.Fprintln(stderr, "A key in one book is copied; for a key in both, A's moves in A's order with B's weight")
		fmt.Fprintln(stderr, "added (capped at 65535), then B's other moves. Learn fields add as counters (games,")
		fmt.Fprintln(stderr, "points; both halved if a sum overflows). Header entries: A's, else B's; a new one when their variant lists differ.")
		fmt.Fprintln(stderr, "Either book may be ABK (Arena's format, read as the Polyglot book it amounts to); a .abk -out writes")
		fmt.Fprintln(stderr, "the merged book as an ABK tree from the start position.")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, "in1", "in2", "out"); err != nil {
		return err
	}
	if err := checkOutputs([]fileArg{{"-in1", *in1}, {"-in2", *in2}}, []fileArg{{"-out", *out}}); err != nil {
		return err
	}
	start := time.Now()
	a, err := formats.Open(*in1)
	if err != nil {
		return err
	}
	defer a.Close()
	b, err := formats.Open(*in2)
	if err != nil {
		return err
	}
	defer b.Close()
	for _, bk := range []*book.Book{a, b} {
		for _, w := range bk.Warnings() {
			warnf(stderr, "merge-book", "%s", w)
		}
	}
	entries, st, err := build.Merge(a, b, *learnOnly)
	if err != nil {
		return fmt.Errorf("%v; nothing written", err)
	}
	written, err := writeBookAs("merge-book", *out, entries, abk.MaxPly, stderr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "merge-book: %d + %d entries -> %s written to %s in %.2fs; %d moves in both",
		st.Entries1, st.Entries2, written, *out, time.Since(start).Seconds(), st.Combined)
	if st.Saturated > 0 {
		fmt.Fprintf(stderr, ", %d weights capped at 65535", st.Saturated)
	}
	if st.LearnHalved > 0 {
		fmt.Fprintf(stderr, ", %d learn sums halved to fit", st.LearnHalved)
	}
	if st.Header != "" {
		fmt.Fprintf(stderr, ", header from %s", st.Header)
	}
	fmt.Fprintln(stderr)
	if st.Unmatched > 0 {
		warnf(stderr, "merge-book", "%d entries of %s are not in %s and were left out (-learn-only)", st.Unmatched, *in2, *in1)
	}
	return nil
}
