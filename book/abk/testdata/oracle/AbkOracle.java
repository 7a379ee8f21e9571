package org.petero.droidfish.book;

import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

import org.petero.droidfish.book.DroidBook.BookEntry;
import org.petero.droidfish.gamelogic.Move;
import org.petero.droidfish.gamelogic.MoveGen;
import org.petero.droidfish.gamelogic.Position;
import org.petero.droidfish.gamelogic.TextIO;
import org.petero.droidfish.gamelogic.UndoInfo;

/**
 * Walks an ABK book with DroidFish's reader (AbkBook) and prints what it
 * offers on every position it reaches: the oracle table polyproxy's ABK
 * reader is tested against. The reader answers for a game (the moves from
 * the start position), so the walk replays each line: ask at a position,
 * then descend into every legal move offered, depth first, in the reader's
 * order, up to a maximum ply.
 *
 * Usage: AbkOracle BOOK.abk MAXPLY NAME SOURCE; prints the table on stdout.
 * NAME is the book's name in the header, SOURCE where AbkBook came from.
 *
 * The package is DroidFish's because AbkBook is package-private there.
 */
public final class AbkOracle {
    /** A corrupt book can make the reader loop forever; a query that takes longer is reported, not waited for. */
    private static final long QUERY_TIMEOUT_MS = 5000;

    private final AbkBook reader = new AbkBook();
    private final Position start;
    private final int maxPly;
    private final PrintWriter out;
    /** What went wrong in the last query, printed after its position's line; null if nothing. */
    private String queryTrouble;

    private AbkOracle(String book, int maxPly, PrintWriter out) throws Exception {
        BookOptions options = new BookOptions();
        options.filename = book;
        reader.setOptions(options);
        start = TextIO.readFEN(TextIO.startPosFEN);
        this.maxPly = maxPly;
        this.out = out;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: AbkOracle BOOK.abk MAXPLY NAME SOURCE");
            System.exit(2);
        }
        int maxPly = Integer.parseInt(args[1]);
        PrintWriter out = new PrintWriter(new BufferedWriter(
                new OutputStreamWriter(System.out, StandardCharsets.UTF_8)));
        out.println("# What DroidFish's ABK reader (AbkBook.getBookEntries) offers in " + args[2] + ".");
        out.println("# AbkBook from " + args[3] + "; made by book/abk/testdata/oracle.sh; walked to ply " + maxPly + ".");
        out.println("# A line: MOVES | MOVE:WEIGHT MOVE:WEIGHT ...");
        out.println("#   MOVES: the UCI moves from the start position to the position (\"start\" for none).");
        out.println("#   MOVE:WEIGHT: each move the reader returns there, in its order (the sibling chain's),");
        out.println("#   the weight as it returns it (a float, Java's Float.toString): Arena's formula from");
        out.println("#   the book's priority/games/score importances; only the ratios matter (DroidFish plays");
        out.println("#   a move with probability weight/sum). Nothing after '|': the reader offers no move.");
        out.println("# Lines starting with '#' are comments; a comment after a line tells of that position.");
        AbkOracle oracle = new AbkOracle(args[0], maxPly, out);
        oracle.walk(new ArrayList<>(), new Position(oracle.start));
        out.flush();
        // A query that timed out leaves its thread spinning; do not wait for it.
        System.exit(out.checkError() ? 1 : 0);
    }

    private void walk(ArrayList<Move> moves, Position pos) {
        List<BookEntry> entries = query(moves);
        StringBuilder line = new StringBuilder(moves.isEmpty() ? "start" : uci(moves));
        line.append(" |");
        for (BookEntry be : entries) {
            line.append(' ').append(uci(be.move)).append(':').append(Float.toString(be.weight));
        }
        out.println(line);
        if (queryTrouble != null) {
            out.println("# " + queryTrouble);
        }
        if (entries.isEmpty()) {
            return;
        }
        if (moves.size() >= maxPly) {
            out.println("# walk stops here: ply " + maxPly + " reached");
            return;
        }
        ArrayList<Move> legal = new MoveGen().legalMoves(pos);
        // Say what is wrong with the position's moves before walking on, so the comments follow its line.
        ArrayList<Move> next = new ArrayList<>();
        HashSet<Move> seen = new HashSet<>();
        for (BookEntry be : entries) {
            if (!legal.contains(be.move)) {
                out.println("# " + uci(be.move) + " is illegal here (DroidFish's chooser then offers no book move)");
            } else if (!seen.add(be.move)) {
                out.println("# " + uci(be.move) + " listed twice; the reader follows its first live record");
            } else {
                next.add(be.move);
            }
        }
        for (Move m : next) {
            UndoInfo ui = new UndoInfo();
            pos.makeMove(m, ui);
            moves.add(m);
            walk(moves, pos);
            moves.remove(moves.size() - 1);
            pos.unMakeMove(m, ui);
        }
    }

    /** Asks the reader in a thread of its own, so that a reader caught in a loop is reported rather than waited for. */
    private List<BookEntry> query(ArrayList<Move> moves) {
        IOpeningBook.BookPosInput input = new IOpeningBook.BookPosInput(new Position(start), new ArrayList<>(moves));
        queryTrouble = null;
        Object[] result = new Object[1];
        Thread t = new Thread(() -> {
            try {
                result[0] = reader.getBookEntries(input);
            } catch (Throwable e) {
                result[0] = e;
            }
        });
        t.setDaemon(true);
        t.start();
        try {
            t.join(QUERY_TIMEOUT_MS);
        } catch (InterruptedException e) {
            throw new RuntimeException(e);
        }
        if (t.isAlive()) {
            queryTrouble = "the reader did not return within " + QUERY_TIMEOUT_MS + " ms (left running)";
            return new ArrayList<>();
        }
        if (result[0] instanceof Throwable) {
            queryTrouble = "the reader threw " + result[0];
            return new ArrayList<>();
        }
        @SuppressWarnings("unchecked")
        List<BookEntry> entries = (List<BookEntry>) result[0];
        return entries == null ? new ArrayList<>() : entries;
    }

    private static String uci(List<Move> moves) {
        StringBuilder sb = new StringBuilder();
        for (Move m : moves) {
            if (sb.length() > 0) {
                sb.append(' ');
            }
            sb.append(uci(m));
        }
        return sb.toString();
    }

    /** A move in UCI notation; a corrupt record's squares or promotion are shown raw. */
    private static String uci(Move m) {
        if (m.from < 0 || m.from > 63 || m.to < 0 || m.to > 63 || m.promoteTo < 0) {
            return "?" + m.from + "-" + m.to + "-" + m.promoteTo;
        }
        return TextIO.moveToUCIString(m);
    }
}
