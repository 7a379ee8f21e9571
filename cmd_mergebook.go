package main

import (
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/polyproxy/polyproxy/book"
)

func init() {
	register("merge-book", "merge two books (PolyGlot's merge-book; weights saturate, learn counts add)", runMergeBook)
}

func runMergeBook(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("merge-book", flag.ContinueOnError)
	fs.SetOutput(stderr)
	in1 := fs.String("in1", "", "first book `file` (its order and header win)")
	in2 := fs.String("in2", "", "second book `file`")
	out := fs.String("out", "", "book `file` to write (replaced atomically)")
	learnOnly := fs.Bool("learn-only", false, "output in1 unchanged except that in2's learn counts are added to the same entries")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: polyproxy merge-book -in1 A -in2 B -out C [-learn-only]")
		fmt.Fprintln(stderr, "A key in one book is copied; for a key in both, A's moves in A's order with B's weight")
		fmt.Fprintln(stderr, "added (capped at 65535), then B's other moves. Learn fields add as counters (games,")
		fmt.Fprintln(stderr, "points; both halved if a sum overflows). Header entries: A's, else B's, never combined.")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args, stderr, "in1", "in2", "out"); !ok {
		return code
	}
	start := time.Now()
	a, err := book.Open(*in1)
	if err != nil {
		fmt.Fprintf(stderr, "merge-book: %v\n", err)
		return 1
	}
	defer a.Close()
	b, err := book.Open(*in2)
	if err != nil {
		fmt.Fprintf(stderr, "merge-book: %v\n", err)
		return 1
	}
	defer b.Close()
	for _, bk := range []*book.Book{a, b} {
		for _, w := range bk.Warnings() {
			fmt.Fprintf(stderr, "merge-book: warning: %s\n", w)
		}
	}
	entries, st, err := book.Merge(a, b, *learnOnly)
	if err != nil {
		fmt.Fprintf(stderr, "merge-book: %v; nothing written\n", err)
		return 1
	}
	if err := book.WriteBook(*out, entries); err != nil {
		fmt.Fprintf(stderr, "merge-book: %v\n", err)
		return 1
	}
	fmt.Fprintf(stderr, "merge-book: %d + %d entries -> %d written to %s in %.2fs; %d moves in both",
		st.Entries1, st.Entries2, st.Written, *out, time.Since(start).Seconds(), st.Combined)
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
		fmt.Fprintf(stderr, "merge-book: warning: %d entries of %s are not in %s and were left out (-learn-only)\n", st.Unmatched, *in2, *in1)
	}
	return 0
}
