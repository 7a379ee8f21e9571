package main

// makers are the books gen writes, by file name. README.md says what each
// one tests; the comments here say how.
var makers = map[string]func() []byte{
	"small.abk":            small,
	"deleted.abk":          deletedRecords,
	"zero-importance.abk":  zeroImportance,
	"score-only.abk":       scoreOnly,
	"prio-only.abk":        prioOnly,
	"filters.abk":          filters,
	"filters-rounding.abk": filtersRounding,
	"settings-clamp.abk":   settingsClamp,
	"promotions.abk":       promotions,
	"transposition.abk":    transposition,
	"maxply.abk":           maxPly,
	"illegal-move.abk":     illegalMove,
	"castle-rook.abk":      castleRook,
	"cycle-siblings.abk":   cycleSiblings,
	"cycle-deleted.abk":    cycleDeleted,
	"cycle-line.abk":       cycleLine,
	"pointer-past-end.abk": pointerPastEnd,
	"truncated.abk":        truncated,
	"truncated-header.abk": truncatedHeader,
}

// line is a single line of moves, each the only reply to the one before,
// all with the same priority and statistics.
func line(priority int8, games, wins, losses int32, moves ...string) *node {
	var next *node
	for i := len(moves) - 1; i >= 0; i-- {
		n := mv(moves[i], priority, games, wins, losses)
		if next != nil {
			n.replies = []*node{next}
		}
		next = n
	}
	return next
}

// lastMove is the end of a line.
func lastMove(n *node) *node {
	for len(n.replies) > 0 {
		n = n.replies[0]
	}
	return n
}

// small is an ordinary book: the main openings with varied priorities and
// statistics, castling on both wings for both sides.
func small() []byte {
	return newBook(plain,
		mv("e2e4", 9, 120, 48, 36,
			mv("e7e5", 8, 60, 24, 18,
				mv("g1f3", 9, 50, 21, 14,
					mv("b8c6", 9, 45, 18, 13,
						mv("f1b5", 8, 25, 11, 6, mv("a7a6", 7, 20, 8, 5)),
						mv("f1c4", 6, 20, 7, 7,
							mv("f8c5", 7, 12, 4, 4, line(6, 8, 3, 2, "e1g1", "g8f6", "d2d3", "e8g8")),
							mv("g8f6", 5, 8, 3, 3))),
					mv("g8f6", 4, 5, 3, 1)),
				mv("f1c4", 5, 10, 3, 4)),
			mv("c7c5", 9, 40, 16, 12,
				mv("g1f3", 9, 30, 12, 9),
				mv("c2c3", 4, 10, 4, 3)),
			mv("e7e6", 5, 10, 4, 4, mv("d2d4", 9, 10, 4, 4)),
			mv("d7d5", 3, 10, 4, 3,
				line(7, 10, 4, 3, "e4d5", "d8d5", "b1c3", "d5a5", "d2d4", "b8c6", "g1f3", "c8g4", "f1e2", "e8c8"))),
		mv("d2d4", 8, 80, 30, 22,
			mv("d7d5", 8, 40, 15, 11,
				mv("c2c4", 9, 30, 12, 8,
					mv("e7e6", 7, 15, 6, 4),
					mv("c7c6", 7, 15, 6, 4)),
				mv("b1c3", 5, 10, 3, 3,
					line(6, 10, 3, 3, "g8f6", "c1g5", "e7e6", "d1d2", "f8e7", "e1c1", "e8g8"))),
			mv("g8f6", 8, 40, 15, 11,
				mv("c2c4", 9, 40, 15, 11,
					mv("e7e6", 6, 20, 8, 5),
					mv("g7g6", 6, 20, 7, 6)))),
		mv("g1f3", 6, 30, 11, 9,
			mv("d7d5", 5, 15, 5, 5),
			mv("g8f6", 5, 15, 6, 4)),
		mv("c2c4", 5, 20, 8, 6, mv("e7e5", 5, 20, 8, 6)),
	).bytes()
}

// deletedRecords has deleted moves with subtrees, a deleted copy of a move
// before its live copy (the reader must go on to the live one), a position
// whose only reply is deleted, and a deleted last sibling.
func deletedRecords() []byte {
	return newBook(plain,
		deleted(mv("e2e4", 9, 50, 20, 15, mv("e7e5", 9, 40, 16, 12))),
		deleted(mv("d2d4", 9, 40, 15, 10, mv("d7d5", 5, 30, 12, 9))),
		mv("d2d4", 8, 30, 12, 9,
			mv("g8f6", 7, 20, 8, 6),
			deleted(mv("d7d5", 9, 10, 4, 3)),
			mv("e7e6", 5, 10, 3, 3)),
		mv("c2c4", 6, 20, 8, 6, deleted(mv("e7e5", 5, 20, 8, 6))),
		deleted(mv("g1f3", 4, 10, 4, 3)),
	).bytes()
}

// zeroImportance sets all three importances to 0, which makes DroidFish's
// reader ignore the (strict) filters and give every move weight 1; a move
// of no games still drops out (its score is 0/0).
func zeroImportance() []byte {
	s := settings{minGames: 100, minWonGames: 50, minWinWhite: 90, minWinBlack: 90, maxPly: 40}
	return newBook(s,
		mv("e2e4", 9, 50, 20, 15,
			mv("e7e5", 0, 10, 5, 2),
			mv("c7c5", 9, 0, 0, 0),
			mv("e7e6", 3, 5, 5, 0)),
		mv("d2d4", 0, 1, 0, 0),
		mv("g1f3", 5, 0, 0, 0),
	).bytes()
}

// scoreOnly weighs by score alone: a move that scored nothing gets weight
// 0, and a position where every move scored nothing gets weight 1 each.
func scoreOnly() []byte {
	s := settings{scoreImportance: 10, maxPly: 40}
	return newBook(s,
		mv("e2e4", 9, 100, 60, 20, mv("e7e5", 5, 50, 20, 20), mv("c7c5", 5, 50, 10, 30)),
		mv("d2d4", 1, 100, 40, 20,
			mv("d7d5", 5, 10, 10, 0),
			mv("g8f6", 5, 4, 4, 0)),
		mv("c2c4", 5, 10, 0, 10),
		mv("g1f3", 5, 0, 0, 0),
	).bytes()
}

// prioOnly weighs by priority alone, at the top importance: priority 0
// gets weight 0, and a position of priority-0 moves only gets weight 1 each.
func prioOnly() []byte {
	s := settings{prioImportance: 15, maxPly: 40}
	return newBook(s,
		mv("e2e4", 9, 10, 5, 3,
			mv("e7e5", 0, 10, 3, 3),
			mv("c7c5", 0, 10, 3, 3)),
		mv("d2d4", 5, 10, 5, 3),
		mv("c2c4", 1, 10, 5, 3),
		mv("g1f3", 0, 10, 5, 3),
	).bytes()
}

// filters puts each of the four filters exactly at its limit, one below,
// and above, for White's moves and (by the reply statistics, seen from
// Black's side) for Black's: min games 10, min won games 3, min win
// percent 50 for White and 25 for Black. Scores are eighths and sixteenths
// so that the percent compares exactly in floating point.
func filters() []byte {
	s := settings{minGames: 10, minWonGames: 3, minWinWhite: 50, minWinBlack: 25,
		prioImportance: 5, gamesImportance: 5, scoreImportance: 5, maxPly: 40}
	return newBook(s,
		mv("e2e4", 5, 10, 6, 2, // games at the limit: in
			mv("e7e5", 5, 16, 10, 3), // Black won 3 of 16, 28.125%: in
			mv("c7c5", 5, 16, 11, 3), // 25% exactly: in
			mv("e7e6", 5, 16, 12, 3), // 21.875%: out
			mv("d7d5", 5, 16, 0, 2),  //  Black won 2 (scored 56.25%): out
			mv("g8f6", 5, 10, 2, 3),  //  games 10, Black won 3: in
			mv("b8c6", 5, 9, 0, 5)),  //  games 9: out
		mv("d2d4", 5, 9, 6, 0, mv("d7d5", 5, 20, 5, 5)),  // games 9: out
		mv("c2c4", 5, 11, 3, 0, mv("e7e5", 5, 20, 5, 5)), // won 3: in
		mv("g1f3", 5, 11, 2, 0),                          //                          won 2: out
		mv("b1c3", 5, 16, 6, 6),                          //                          50% exactly: in
		mv("f2f4", 5, 16, 5, 6),                          //                          46.875%: out
		mv("g2g3", 5, 32, 15, 14),                        //                        51.5625%: in
	).bytes()
}

// filtersRounding has a min win percent of 29 and moves that scored
// 29/100: 0.29*100 is 28.999999999999996 in floating point, so DroidFish's
// reader drops them, where an integer comparison keeps them.
func filtersRounding() []byte {
	s := settings{minWinWhite: 29, minWinBlack: 29,
		prioImportance: 5, gamesImportance: 5, scoreImportance: 5, maxPly: 40}
	return newBook(s,
		mv("e2e4", 5, 100, 29, 71), // 29%
		mv("d2d4", 5, 100, 30, 70, // 30%
			mv("g8f6", 5, 100, 71, 29),  // 29% for Black
			mv("d7d5", 5, 100, 70, 30)), // 30% for Black
		mv("c2c4", 5, 100, 28, 72), // 28%
	).bytes()
}

// settingsClamp has every header setting out of its range: negative min
// games, min won games and Black's min win percent (read as 0), White's
// min win percent 150 (100), importances 99, -3 and 20 (15, 0, 15), max
// ply 20000 (9999).
func settingsClamp() []byte {
	s := settings{minGames: -5, minWonGames: -1, minWinWhite: 150, minWinBlack: -20,
		prioImportance: 99, gamesImportance: -3, scoreImportance: 20, maxPly: 20000}
	return newBook(s,
		mv("e2e4", 9, 10, 10, 0, // 100%: in
			mv("e7e5", 5, 10, 10, 0), // Black scored 0%: in, its score part 0
			mv("c7c5", 3, 10, 4, 4)),
		mv("d2d4", 9, 10, 9, 0),                        // 95%: out
		mv("c2c4", 4, 4, 4, 0, mv("e7e5", 0, 1, 1, 0)), // 100%: in
	).bytes()
}

// promotions reaches, by the shortest kind of line, a white pawn on b7 and
// a black pawn on b2, each promoting to all four pieces, by capture and by
// push, and a reply capturing the new piece.
func promotions() []byte {
	white := line(5, 10, 5, 3, "a2a4", "b7b5", "a4b5", "a7a6", "b5a6", "c8b7", "a6b7", "b8c6")
	lastMove(white).replies = []*node{
		mv("b7a8q", 9, 10, 6, 2, mv("d8a8", 5, 10, 6, 2)),
		mv("b7a8n", 3, 10, 5, 3),
		mv("b7b8r", 2, 10, 5, 3, mv("c6b8", 5, 10, 5, 3)),
		mv("b7b8b", 1, 10, 4, 3),
	}
	black := line(5, 10, 3, 5, "b2b4", "a7a5", "c1b2", "a5b4", "a2a3", "b4a3", "b1c3", "a3b2", "h2h3")
	lastMove(black).replies = []*node{
		mv("b2a1q", 9, 10, 2, 6, mv("d1a1", 5, 10, 2, 6)),
		mv("b2a1n", 3, 10, 3, 5),
		mv("b2b1r", 2, 10, 3, 5, mv("c3b1", 5, 10, 3, 5)),
		mv("b2b1b", 1, 10, 3, 4),
	}
	return newBook(plain, white, black).bytes()
}

// transposition reaches the position after 1.e4 e5 2.Nf3 Nc6 also by 1.Nf3
// Nc6 2.e4 e5, with different moves and statistics after each: DroidFish
// answers each branch alone.
func transposition() []byte {
	return newBook(plain,
		mv("e2e4", 8, 50, 20, 15,
			mv("e7e5", 8, 40, 16, 12,
				mv("g1f3", 8, 30, 12, 9,
					mv("b8c6", 8, 25, 10, 7,
						mv("f1b5", 9, 15, 7, 4),
						mv("f1c4", 6, 10, 3, 3))))),
		mv("g1f3", 6, 30, 11, 9,
			mv("b8c6", 6, 20, 8, 6,
				mv("e2e4", 7, 15, 6, 4,
					mv("e7e5", 7, 12, 5, 3,
						mv("f1b5", 5, 6, 3, 1),
						mv("d2d4", 8, 6, 2, 2))))),
	).bytes()
}

// maxPly has a tree four plies deep and a header max ply of 2.
func maxPly() []byte {
	s := plain
	s.maxPly = 2
	return newBook(s,
		line(5, 10, 4, 3, "e2e4", "e7e5", "g1f3", "b8c6"),
		line(5, 10, 4, 3, "d2d4", "d7d5", "c2c4"),
	).bytes()
}

// illegalMove lists a move illegal in its position (the queen's diagonal
// is blocked) beside a legal one.
func illegalMove() []byte {
	return newBook(plain,
		mv("e2e4", 5, 10, 4, 3,
			mv("e7e5", 5, 10, 4, 3, mv("g1f3", 5, 10, 4, 3)),
			mv("d8h4", 5, 10, 4, 3)),
		mv("d2d4", 5, 10, 4, 3, mv("d7d5", 5, 10, 4, 3)),
	).bytes()
}

// castleRook writes castling as Polyglot stores it, the king taking its
// own rook (e1h1, e8h8), beside a legal move in each position; e1h1 has a
// reply.
func castleRook() []byte {
	italian := line(5, 10, 4, 3, "e2e4", "e7e5", "g1f3", "g8f6", "f1c4", "f8c5")
	lastMove(italian).replies = []*node{
		mv("e1h1", 5, 10, 4, 3, mv("d7d6", 5, 10, 4, 3)),
		mv("d2d3", 5, 10, 4, 3,
			mv("e8h8", 5, 10, 4, 3),
			mv("d7d6", 5, 10, 4, 3)),
	}
	return newBook(plain, italian).bytes()
}

// cycleSiblings closes a sibling chain of live moves into a loop after
// 1.e4; the rest of the book is sound.
func cycleSiblings() []byte {
	c5 := mv("c7c5", 5, 10, 4, 3)
	e5 := mv("e7e5", 5, 10, 4, 3)
	b := newBook(plain,
		mv("e2e4", 5, 10, 4, 3, c5, e5),
		line(5, 10, 4, 3, "d2d4", "d7d5", "c2c4"),
	)
	b.rec(e5).nextSibling = c5.rec
	return b.bytes()
}

// cycleDeleted closes a sibling chain of deleted moves into a loop after
// 1.e4: a reader that skips deleted records without counting them never
// leaves it.
func cycleDeleted() []byte {
	c5 := deleted(mv("c7c5", 5, 10, 4, 3))
	e5 := deleted(mv("e7e5", 5, 10, 4, 3))
	b := newBook(plain,
		mv("e2e4", 5, 10, 4, 3, c5, e5),
		line(5, 10, 4, 3, "d2d4", "d7d5", "c2c4"),
	)
	b.rec(e5).nextSibling = c5.rec
	return b.bytes()
}

// cycleLine points the reply to 1.Nf3 Nf6 2.Ng1 Ng8 back at the first
// record, so the line repeats for ever, and points 1.e4's reply at 1.e4's
// own record, so Black is offered White's move. The header sets no ply
// limit.
func cycleLine() []byte {
	nf3 := line(5, 10, 4, 3, "g1f3", "g8f6", "f3g1", "f6g8")
	e4 := mv("e2e4", 5, 10, 4, 3)
	s := plain
	s.maxPly = 9999 // no limit, so that only the walker's own guard ends the line
	b := newBook(s, nf3, e4)
	ng8 := nf3.replies[0].replies[0].replies[0]
	b.rec(ng8).nextMove = nf3.rec
	b.rec(e4).nextMove = e4.rec
	return b.bytes()
}

// pointerPastEnd has a reply pointer past the end of the file, a sibling
// pointer at the largest record number (whose byte offset overflows 32
// bits), and a sibling pointer of -5, which ends a chain as -1 does.
func pointerPastEnd() []byte {
	e4 := mv("e2e4", 5, 10, 4, 3)
	nf6 := mv("g8f6", 5, 10, 4, 3)
	e5 := mv("e7e5", 5, 10, 4, 3, mv("g1f3", 5, 10, 4, 3))
	b := newBook(plain,
		e4,
		mv("d2d4", 5, 10, 4, 3, mv("d7d5", 5, 10, 4, 3), nf6),
		mv("c2c4", 5, 10, 4, 3, e5),
	)
	b.rec(e4).nextMove = 100000
	b.rec(nf6).nextSibling = 0x7fffffff
	b.rec(e5).nextSibling = -5
	return b.bytes()
}

// truncated is a sound book cut in the middle of its last record (the
// last reply of 1.d4 d5 2.c4).
func truncated() []byte {
	data := newBook(plain,
		mv("e2e4", 5, 10, 4, 3, mv("e7e5", 5, 10, 4, 3), mv("c7c5", 5, 10, 4, 3)),
		mv("d2d4", 5, 10, 4, 3,
			mv("d7d5", 5, 10, 4, 3,
				mv("c2c4", 5, 10, 4, 3, mv("e7e6", 5, 10, 4, 3), mv("c7c6", 5, 10, 4, 3)))),
	).bytes()
	return data[:len(data)-recordSize/2]
}

// truncatedHeader is a book's first 200 bytes: not even the header's
// settings are whole.
func truncatedHeader() []byte {
	return small()[:200]
}
