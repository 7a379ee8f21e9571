// Package reply keeps the GUI's answers in the order it asked for them:
// the replies the engine owes for the GUI's requests, and the proxy's
// own answers (a book's bestmove) waiting behind them.
package reply

// Kind is a reply the engine owes for a request the proxy forwarded.
type Kind int

const (
	None     Kind = iota // not owed: our own answers
	ReadyOK              // for an isready
	Bestmove             // for a go
	// OwnReadyOK is for our own isready after a command of the
	// user's (go perft, d, eval, bench...): the engine has printed its
	// answer when the readyok comes, which is then not relayed.
	OwnReadyOK
)

// Queue keeps the GUI's replies in the order it asked for them. The
// engine's replies go to the GUI as they come; our own answers (a book
// answer, a "bestmove 0000") must not overtake a reply the engine still
// owes for an earlier request, or the GUI would take our bestmove for the
// answer to its isready, or one go's bestmove for another's.
//
// So every owed reply is a marker in the queue, and our answers queue behind
// the markers owed when they were sent; they go out, oldest first, once
// every marker before them is settled. Nothing owed: they go out at once.
//
// T is what our answers are: the core's are bestmoves.
type Queue[T any] struct {
	entries []queued[T]
	send    func(T) // hands one of our answers to the GUI's front
	// lost is the answer that replaces a bestmove the engine never gives.
	lost T
}

// queued is a marker (owed) or our answers, with what to do once they are
// sent.
type queued[T any] struct {
	owed  Kind
	items []T
	after func()
}

func NewQueue[T any](send func(T), lostBestmove T) Queue[T] {
	return Queue[T]{send: send, lost: lostBestmove}
}

// Expect notes a reply the engine owes: our answers sent from now on wait
// for it.
func (q *Queue[T]) Expect(r Kind) {
	q.entries = append(q.entries, queued[T]{owed: r})
}

// Owes counts the replies of kind r still owed.
func (q *Queue[T]) Owes(r Kind) int {
	n := 0
	for _, e := range q.entries {
		if e.owed == r {
			n++
		}
	}
	return n
}

// Settle marks the oldest owed reply of kind r as answered (false: none
// was owed, a reply nobody asked for) and sends what no longer waits.
// Markers of different kinds may settle out of order: an engine answers
// an isready at once, even during a search it still owes a bestmove for.
func (q *Queue[T]) Settle(r Kind) bool {
	for i, e := range q.entries {
		if e.owed == r {
			q.entries = append(q.entries[:i], q.entries[i+1:]...)
			q.drain()
			return true
		}
	}
	return false
}

// NextReadyOK is the kind of the oldest readyok owed, the GUI's or our
// own (the engine answers isready in order), or None.
func (q *Queue[T]) NextReadyOK() Kind {
	for _, e := range q.entries {
		if e.owed == ReadyOK || e.owed == OwnReadyOK {
			return e.owed
		}
	}
	return None
}

// Emit sends our answers now, or once the replies owed before them are
// settled; after (may be nil) runs right after they are sent.
func (q *Queue[T]) Emit(items []T, after func()) {
	if len(q.entries) > 0 {
		q.entries = append(q.entries, queued[T]{items: items, after: after})
		return
	}
	q.sendOut(queued[T]{items: items, after: after})
}

// Owing reports whether any reply is owed, or any answer of ours waits.
func (q *Queue[T]) Owing() bool { return len(q.entries) > 0 }

// ReplaceLostBestmoves is for an engine restart: the bestmoves the dead
// engine owed will never come. Each becomes our "bestmove 0000", so the
// GUI still gets one per go, in order; except, with keepLast, the last
// one, for the search that is issued again to the new engine. It returns
// how many were replaced.
func (q *Queue[T]) ReplaceLostBestmoves(keepLast bool) int {
	keep := -1
	if keepLast {
		for i, e := range q.entries {
			if e.owed == Bestmove {
				keep = i
			}
		}
	}
	n := 0
	for i := range q.entries {
		if e := &q.entries[i]; e.owed == Bestmove && i != keep {
			*e = queued[T]{items: []T{q.lost}}
			n++
		}
	}
	q.drain()
	return n
}

// Abandon gives up the replies still owed (the engine is gone): our answers
// that waited behind them go out, in order.
func (q *Queue[T]) Abandon() {
	for i := range q.entries {
		if e := &q.entries[i]; e.owed != None {
			*e = queued[T]{}
		}
	}
	q.drain()
}

// drain sends our answers at the head of the queue, up to the first marker.
// Each entry leaves the queue before its after runs, so answers that after
// emits queue behind the rest.
func (q *Queue[T]) drain() {
	for len(q.entries) > 0 && q.entries[0].owed == None {
		e := q.entries[0]
		q.entries = q.entries[1:]
		q.sendOut(e)
	}
}

func (q *Queue[T]) sendOut(e queued[T]) {
	for _, it := range e.items {
		q.send(it)
	}
	if e.after != nil {
		e.after()
	}
}
