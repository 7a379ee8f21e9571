package reply

import (
	"slices"
	"testing"
)

// replyOp is one step of a Queue test.
type replyOp struct {
	expect  Kind     // expect this reply (when not None)
	emit    []string // emit these lines (when not nil)
	tag     string   // with emit: its after records "after TAG"
	settle  Kind     // settle this reply (when not None) ...
	settled bool     // ... and whether one was owed
	restart int      // 1: replaceLostBestmoves(false), 2: (true)
	lost    int      // with restart: how many were replaced
	// sent is what reaches the GUI during this step (lines, and "after TAG"
	// where an after runs).
	sent []string
}

func TestReplyQueue(t *testing.T) {
	bm := func(m string) []string { return []string{"bestmove " + m} }
	for _, tc := range []struct {
		name string
		ops  []replyOp
		owed [2]int // readyok and bestmove markers left
	}{
		{"nothing owed: at once", []replyOp{
			{emit: bm("e2e4"), tag: "book", sent: []string{"bestmove e2e4", "after book"}},
		}, [2]int{}},
		{"behind an owed readyok", []replyOp{
			{expect: ReadyOK},
			{emit: []string{"info string book move e2e4", "bestmove e2e4"}, tag: "book"},
			{settle: ReadyOK, settled: true, sent: []string{"info string book move e2e4", "bestmove e2e4", "after book"}},
		}, [2]int{}},
		{"behind an owed bestmove", []replyOp{
			{expect: Bestmove},
			{emit: bm("e2e4")},
			{settle: Bestmove, settled: true, sent: bm("e2e4")},
		}, [2]int{}},
		{"several markers: waits for all before it", []replyOp{
			{expect: ReadyOK},
			{expect: Bestmove},
			{emit: bm("e2e4"), tag: "1"},
			{settle: ReadyOK, settled: true},
			{settle: Bestmove, settled: true, sent: []string{"bestmove e2e4", "after 1"}},
		}, [2]int{}},
		{"settled out of order, released in order", []replyOp{
			{expect: Bestmove},
			{emit: bm("0000"), tag: "1"},
			{expect: ReadyOK},
			{emit: bm("e2e4"), tag: "2"},
			// readyok during the search: the first lines still wait for the
			// bestmove, the second for them.
			{settle: ReadyOK, settled: true},
			{settle: Bestmove, settled: true, sent: []string{"bestmove 0000", "after 1", "bestmove e2e4", "after 2"}},
		}, [2]int{}},
		{"lines between markers go as far as the next marker", []replyOp{
			{expect: ReadyOK},
			{emit: bm("a"), tag: "a"},
			{expect: ReadyOK},
			{emit: bm("b"), tag: "b"},
			{settle: ReadyOK, settled: true, sent: []string{"bestmove a", "after a"}},
			{settle: ReadyOK, settled: true, sent: []string{"bestmove b", "after b"}},
		}, [2]int{}},
		{"the oldest marker of a kind settles first", []replyOp{
			{expect: Bestmove},
			{emit: bm("a")},
			{expect: Bestmove},
			{emit: bm("b")},
			{settle: Bestmove, settled: true, sent: bm("a")},
			{settle: Bestmove, settled: true, sent: bm("b")},
		}, [2]int{}},
		{"a reply nobody asked for settles nothing", []replyOp{
			{settle: Bestmove},
			{settle: ReadyOK},
			{expect: ReadyOK},
			{emit: bm("e2e4")},
			{settle: Bestmove},
			{settle: ReadyOK, settled: true, sent: bm("e2e4")},
			{settle: ReadyOK},
		}, [2]int{}},
		{"restart: owed bestmoves of stopped searches become bestmove 0000", []replyOp{
			{expect: Bestmove},
			{emit: bm("e2e4"), tag: "book"},
			{expect: Bestmove},
			{restart: 1, lost: 2, sent: []string{"bestmove 0000", "bestmove e2e4", "after book", "bestmove 0000"}},
		}, [2]int{}},
		{"restart keeping the re-issued search's bestmove", []replyOp{
			{expect: Bestmove},
			{expect: ReadyOK},
			{emit: bm("x"), tag: "x"},
			{expect: Bestmove},
			{emit: bm("y"), tag: "y"},
			// The readyok is asked again, the last search issued again.
			{restart: 2, lost: 1, sent: bm("0000")},
			{settle: ReadyOK, settled: true, sent: []string{"bestmove x", "after x"}},
			{settle: Bestmove, settled: true, sent: []string{"bestmove y", "after y"}},
		}, [2]int{}},
		{"restart with nothing owed", []replyOp{
			{restart: 2},
			{restart: 1},
		}, [2]int{}},
		{"what is still owed is counted", []replyOp{
			{expect: ReadyOK},
			{expect: Bestmove},
			{expect: ReadyOK},
			{emit: bm("z")},
		}, [2]int{2, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var sent []string
			q := NewQueue(func(l string) { sent = append(sent, l) }, "bestmove 0000")
			for i, op := range tc.ops {
				sent = sent[:0]
				switch {
				case op.expect != None:
					q.Expect(op.expect)
				case op.emit != nil:
					var after func()
					if op.tag != "" {
						tag := op.tag
						after = func() { sent = append(sent, "after "+tag) }
					}
					q.Emit(op.emit, after)
				case op.settle != None:
					if got := q.Settle(op.settle); got != op.settled {
						t.Fatalf("step %d: settle = %v, want %v", i, got, op.settled)
					}
				case op.restart != 0:
					if got := q.ReplaceLostBestmoves(op.restart == 2); got != op.lost {
						t.Fatalf("step %d: %d replaced, want %d", i, got, op.lost)
					}
				}
				if !slices.Equal(sent, op.sent) {
					t.Fatalf("step %d: sent %q, want %q", i, sent, op.sent)
				}
			}
			if got := [2]int{q.Owes(ReadyOK), q.Owes(Bestmove)}; got != tc.owed {
				t.Errorf("still owed (readyok, bestmove) %v, want %v", got, tc.owed)
			}
		})
	}
}

// An after that emits more lines (as a callback may) queues them behind
// the lines already released with it, never ahead.
func TestReplyQueueAfterEmitsInOrder(t *testing.T) {
	var sent []string
	q := NewQueue(func(l string) { sent = append(sent, l) }, "bestmove 0000")
	q.Expect(Bestmove)
	q.Emit([]string{"x"}, func() { q.Emit([]string{"z"}, nil) })
	q.Emit([]string{"y"}, nil)
	q.Settle(Bestmove)
	if want := []string{"x", "y", "z"}; !slices.Equal(sent, want) {
		t.Fatalf("sent %q, want %q", sent, want)
	}
	// With nothing owed, after runs at once, after its lines.
	sent = nil
	q.Emit([]string{"a"}, func() { sent = append(sent, "after a") })
	if want := []string{"a", "after a"}; !slices.Equal(sent, want) {
		t.Fatalf("sent %q, want %q", sent, want)
	}
}
