package build

import (
	"slices"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/polyglot"
)

// MergeStats reports what a merge did.
type MergeStats struct {
	Entries1, Entries2 int // entries read from each input (header included)
	Written            int
	Combined           int    // B entries whose move A has too (weights added)
	Saturated          int    // weights capped at 65535
	LearnHalved        int    // learn sums halved to fit 16-bit counters
	Unmatched          int    // -learn-only: B entries with no (key, move) in A, left out
	Header             string // where the header came from: "in1", "in2", "in1+in2" (a new one naming both books' variants) or ""
}

// keyRun returns the end of the run of entries with the key of entry i.
func keyRun(b *book.Book, i int) int {
	k := b.Entry(i).Key
	j := i + 1
	for j < b.Len() && b.Entry(j).Key == k {
		j++
	}
	return j
}

// Merge combines two sorted books with PolyGlot 2.0.4's merge-book rule: a
// key found in one input is copied; for a key in both, A's entries come in
// A's order with the weight of B's entry for the same move added, then B's
// other moves in B's order. Unlike PolyGlot, weights saturate at 65535
// instead of wrapping, and learn fields are added as counters (Learn.Plus)
// instead of B's being dropped, so learning done on several machines can be
// combined. Header entries (key 0, the @PG@ header) are never combined: A's
// header is kept, or B's if A has none.
//
// With learnOnly the result is A itself, entry for entry, with the learn
// counts of B's same (key, move) added in; weights and moves stay A's, and
// B's entries that A lacks are counted in Unmatched and left out.
//
// Both books must be sorted (Verify); an unsorted one is an *OrderError.
func Merge(a, b *book.Book, learnOnly bool) ([]book.Entry, MergeStats, error) {
	st := MergeStats{Entries1: a.Len(), Entries2: b.Len()}
	for _, bk := range []*book.Book{a, b} {
		if err := bk.Verify(); err != nil {
			return nil, st, err
		}
	}
	capacity := a.Len() + b.Len()
	if learnOnly {
		capacity = a.Len()
	}
	out := make([]book.Entry, 0, capacity)

	ha, hb := polyglot.HeaderEntries(a), polyglot.HeaderEntries(b)
	var merged []string
	if !learnOnly {
		merged = mergedVariants(a, b)
	}
	switch {
	case merged != nil:
		st.Header = "in1+in2"
		h, _ := polyglot.ReadHeader(a)
		if h == nil {
			h, _ = polyglot.ReadHeader(b)
		}
		out = append(out, polyglot.HeaderEntriesFor(merged, h.Comment)...)
	case ha > 0:
		st.Header = "in1"
		for i := 0; i < ha; i++ {
			out = append(out, a.Entry(i))
		}
	case hb > 0 && !learnOnly:
		st.Header = "in2"
		for j := 0; j < hb; j++ {
			out = append(out, b.Entry(j))
		}
	}

	var others []book.Entry // B's moves that A's run lacks
	i, j := ha, hb
	for i < a.Len() || j < b.Len() {
		switch {
		case j == b.Len() || i < a.Len() && a.Entry(i).Key < b.Entry(j).Key:
			end := keyRun(a, i)
			for ; i < end; i++ {
				out = append(out, a.Entry(i))
			}
		case i == a.Len() || b.Entry(j).Key < a.Entry(i).Key:
			end := keyRun(b, j)
			if learnOnly {
				st.Unmatched += end - j
				j = end
				continue
			}
			for ; j < end; j++ {
				out = append(out, b.Entry(j))
			}
		default: // the same key in both
			aEnd, bEnd := keyRun(a, i), keyRun(b, j)
			run := len(out)
			for ; i < aEnd; i++ {
				out = append(out, a.Entry(i))
			}
			others = others[:0]
			for ; j < bEnd; j++ {
				e := b.Entry(j)
				k := run
				for k < len(out) && out[k].Move != e.Move {
					k++
				}
				if k == len(out) {
					others = append(others, e)
					continue
				}
				st.Combined++
				if !learnOnly {
					if w := uint32(out[k].Weight) + uint32(e.Weight); w > 0xffff {
						out[k].Weight = 0xffff
						st.Saturated++
					} else {
						out[k].Weight = uint16(w)
					}
				}
				var halved bool
				out[k].Learn, halved = out[k].Learn.Plus(e.Learn)
				if halved {
					st.LearnHalved++
				}
			}
			if learnOnly {
				st.Unmatched += len(others)
			} else {
				out = append(out, others...)
			}
		}
	}
	st.Written = len(out)
	return out, st, nil
}

// mergedVariants is the variant list of a merge of a and b when it
// differs from the header kept (A's, else B's), or nil. Headers that are
// unreadable or name no variant are kept as they are.
func mergedVariants(a, b *book.Book) []string {
	variants := func(bk *book.Book) ([]string, bool) {
		h, err := polyglot.ReadHeader(bk)
		switch {
		case err != nil || h != nil && len(h.Variants) == 0: // says nothing of its variants
			return nil, false
		case h == nil:
			return []string{polyglot.VariantNormal}, true
		}
		return h.Variants, true
	}
	va, okA := variants(a)
	vb, okB := variants(b)
	if !okA || !okB || polyglot.HeaderEntries(a) == 0 && polyglot.HeaderEntries(b) == 0 {
		return nil
	}
	all := slices.Clone(va)
	for _, v := range vb {
		if !slices.Contains(all, v) {
			all = append(all, v)
		}
	}
	kept := va
	if polyglot.HeaderEntries(a) == 0 {
		kept = vb
	}
	if slices.Equal(all, kept) {
		return nil
	}
	normalFirst(all)
	return all
}
