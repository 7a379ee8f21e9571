"""Writes chess960.txt: Chess960 positions as python-chess sees them.

Run from book/board with python-chess's source tree on PYTHONPATH
(go generate does it; see doc.go). Deterministic: the same python-chess
gives the same table. Each line, tab-separated:

    X-FEN  Shredder-FEN  polyglot-key  inner-rook(0/1)  legal moves (UCI, castling king takes rook, sorted)

Positions: the 960 start positions; positions every few plies of random
games from random starts, castling whenever it is legal half the time;
positions with an inner rook holding a castling right (an extra rook of
its colour put beyond it on the back rank), and random games from those.
"""
import random
import sys

import chess
import chess.polyglot


def inner_rook(board):
    for color in chess.COLORS:
        backrank = chess.BB_RANK_1 if color == chess.WHITE else chess.BB_RANK_8
        king = board.king(color)
        for sq in chess.scan_reversed(board.clean_castling_rights() & backrank):
            a_side = chess.square_file(sq) < chess.square_file(king)
            for other in board.pieces(chess.ROOK, color) & chess.SquareSet(backrank):
                if other != sq and (chess.square_file(other) < chess.square_file(sq)) == a_side:
                    return True
    return False


def line(board):
    moves = sorted(m.uci() for m in board.legal_moves)
    return "\t".join([
        board.fen(),
        board.shredder_fen(),
        "%016x" % chess.polyglot.zobrist_hash(board),
        "1" if inner_rook(board) else "0",
        " ".join(moves),
    ])


def play(board, rng, plies, every, out):
    for ply in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            return
        castles = [m for m in moves if board.is_castling(m)]
        if castles and rng.random() < 0.5:
            move = rng.choice(castles)
        else:
            move = rng.choice(moves)
        board.push(move)
        if ply % every == every - 1:
            out.append(line(board))


def with_inner_rook(board, rng):
    """The board with an extra rook beyond a castling rook, or None."""
    for color in rng.sample(chess.COLORS, 2):
        backrank = 0 if color == chess.WHITE else 7
        rights = [sq for sq in chess.scan_forward(board.clean_castling_rights()) if chess.square_rank(sq) == backrank]
        rng.shuffle(rights)
        king = board.king(color)
        for sq in rights:
            a_side = chess.square_file(sq) < chess.square_file(king)
            beyond = range(0, chess.square_file(sq)) if a_side else range(chess.square_file(sq) + 1, 8)
            empty = [f for f in beyond if board.piece_at(chess.square(f, backrank)) is None]
            if not empty:
                continue
            b = board.copy(stack=False)
            b.set_piece_at(chess.square(rng.choice(empty), backrank), chess.Piece(chess.ROOK, color))
            b.castling_rights = board.clean_castling_rights()
            if b.is_valid() and inner_rook(b):
                return b
    return None


def main():
    rng = random.Random(960)
    out = []
    for n in range(960):
        out.append(line(chess.Board.from_chess960_pos(n)))
    for _ in range(120):
        board = chess.Board.from_chess960_pos(rng.randrange(960))
        play(board, rng, 50, 5, out)
    inner = 0
    while inner < 150:
        board = chess.Board.from_chess960_pos(rng.randrange(960))
        play(board, rng, rng.randrange(2, 14), 1000, [])
        b = with_inner_rook(board, rng)
        if b is None:
            continue
        inner += 1
        out.append(line(b))
        b = chess.Board(b.fen(), chess960=True)
        play(b, rng, 12, 4, out)
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
