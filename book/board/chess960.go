package board

// Chess960StartFEN is the FEN of Chess960 start position n (0-959) in
// Scharnagl's numbering, which lichess and python-chess use (518 is the
// standard start), or "" for n out of range. Its castling field is KQkq
// (X-FEN): read it with ParseFENVariant(fen, true).
func Chess960StartFEN(n int) string {
	if n < 0 || n > 959 {
		return ""
	}
	var rank [8]byte
	rank[2*(n%4)+1] = 'b' // light-squared bishop: b, d, f or h
	n /= 4
	rank[2*(n%4)] = 'b' // dark-squared bishop: a, c, e or g
	n /= 4
	place := func(k int, piece byte) { // on the k-th empty square
		for f := range rank {
			if rank[f] == 0 {
				if k == 0 {
					rank[f] = piece
					return
				}
				k--
			}
		}
	}
	place(n%6, 'q')
	n /= 6
	knights := [10][2]int{{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}}[n]
	place(knights[1], 'n') // the later one first, so the earlier index still counts the same squares
	place(knights[0], 'n')
	place(0, 'r')
	place(0, 'k')
	place(0, 'r')
	black := string(rank[:])
	white := make([]byte, 8)
	for i, c := range rank {
		white[i] = c - 'a' + 'A'
	}
	return black + "/pppppppp/8/8/8/8/PPPPPPPP/" + string(white) + " w KQkq - 0 1"
}
