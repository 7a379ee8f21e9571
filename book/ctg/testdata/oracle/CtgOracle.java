package org.petero.droidfish.book;

import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;

import org.petero.droidfish.book.DroidBook.BookEntry;
import org.petero.droidfish.gamelogic.Move;
import org.petero.droidfish.gamelogic.MoveGen;
import org.petero.droidfish.gamelogic.Position;
import org.petero.droidfish.gamelogic.TextIO;
import org.petero.droidfish.gamelogic.UndoInfo;

/**
 * Walks a CTG book with DroidFish's reader (CtgBook) from the positions of
 * a roots file and prints what it offers on every position reached, under
 * each of its four option settings: the oracle table polyproxy's CTG
 * reader is tested against. From each position the walk descends into
 * every legal move offered (whatever its weight, so that moves leading out
 * of the book are seen to), depth first in the reader's order, each
 * position once, to a maximum ply from its root.
 *
 * Usage: CtgOracle BOOK.ctg ROOTS MAXPLY NAME SOURCE; prints the table on
 * stdout. ROOTS holds one FEN a line; NAME is the book's name in the
 * header, SOURCE where CtgBook came from.
 *
 * The package is DroidFish's because CtgBook is package-private there.
 */
public final class CtgOracle {
    /** The option settings, in the table's column order: tournament mode, prefer main lines. */
    private static final boolean[][] SETTINGS = {{false, false}, {true, false}, {false, true}, {true, true}};

    private final CtgBook[] readers = new CtgBook[SETTINGS.length];
    private final int maxPly;
    private final PrintWriter out;
    private final HashSet<String> seen = new HashSet<>();
    private int positions;

    private CtgOracle(String book, int maxPly, PrintWriter out) {
        for (int i = 0; i < SETTINGS.length; i++) {
            BookOptions options = new BookOptions();
            options.filename = book;
            options.tournamentMode = SETTINGS[i][0];
            options.preferMainLines = SETTINGS[i][1];
            readers[i] = new CtgBook();
            readers[i].setOptions(options);
        }
        this.maxPly = maxPly;
        this.out = out;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: CtgOracle BOOK.ctg ROOTS MAXPLY NAME SOURCE");
            System.exit(2);
        }
        int maxPly = Integer.parseInt(args[2]);
        PrintWriter out = new PrintWriter(new BufferedWriter(
                new OutputStreamWriter(System.out, StandardCharsets.UTF_8)));
        out.println("# What DroidFish's CTG reader (CtgBook.getBookEntries) offers in " + args[3] + ".");
        out.println("# CtgBook from " + args[4] + "; made by book/ctg/testdata/oracle.sh; walked to ply " + maxPly + " from each root.");
        out.println("# A line: FEN | DEFAULT | TOURNAMENT | MAINLINES | BOTH");
        out.println("#   FEN: the position asked about. Each of the four columns: the moves the reader returns");
        out.println("#   there, in its order, as MOVE:WEIGHT (UCI, Java's Float.toString), with tournament mode");
        out.println("#   and prefer-main-lines off/off, on/off, off/on, on/on. Only ratios matter (DroidFish plays");
        out.println("#   a move with probability weight/sum). Nothing in a column: the reader offers no move;");
        out.println("#   \"=\": the same as the column before.");
        out.println("# Lines starting with '#' are comments; a comment after a line tells of that position.");
        CtgOracle oracle = new CtgOracle(args[0], maxPly, out);
        for (String fen : Files.readAllLines(Paths.get(args[1]), StandardCharsets.UTF_8)) {
            fen = fen.trim();
            if (fen.isEmpty() || fen.startsWith("#")) {
                continue;
            }
            oracle.walk(TextIO.readFEN(fen), 0);
        }
        out.println("# " + oracle.positions + " positions");
        out.flush();
        System.exit(out.checkError() ? 1 : 0);
    }

    /** The FEN without its move counters: a position is walked once however it is reached. */
    private static String placement(Position pos) {
        String[] f = TextIO.toFEN(pos).split(" ");
        return f[0] + " " + f[1] + " " + f[2] + " " + f[3];
    }

    private void walk(Position pos, int ply) {
        if (!seen.add(placement(pos))) {
            return;
        }
        positions++;
        StringBuilder line = new StringBuilder(TextIO.toFEN(pos));
        LinkedHashSet<Move> offered = new LinkedHashSet<>();
        ArrayList<String> trouble = new ArrayList<>();
        String previous = null;
        for (CtgBook reader : readers) {
            line.append(" |");
            StringBuilder column = new StringBuilder();
            List<BookEntry> entries;
            try {
                entries = reader.getBookEntries(new IOpeningBook.BookPosInput(new Position(pos)));
            } catch (Throwable e) {
                trouble.add("the reader threw " + e);
                entries = null;
            }
            if (entries != null) {
                for (BookEntry be : entries) {
                    column.append(' ').append(TextIO.moveToUCIString(be.move)).append(':').append(Float.toString(be.weight));
                    offered.add(be.move);
                }
            }
            String text = column.toString();
            line.append(text.equals(previous) && !text.isEmpty() ? " =" : text);
            previous = text;
        }
        out.println(line);
        for (String t : trouble) {
            out.println("# " + t);
        }
        if (offered.isEmpty()) {
            return;
        }
        if (ply >= maxPly) {
            out.println("# walk stops here: ply " + maxPly + " reached");
            return;
        }
        ArrayList<Move> legal = new MoveGen().legalMoves(pos);
        ArrayList<Move> next = new ArrayList<>();
        for (Move m : offered) {
            if (legal.contains(m)) {
                next.add(m);
            } else {
                out.println("# " + TextIO.moveToUCIString(m) + " is illegal here (DroidFish's chooser then offers no book move)");
            }
        }
        for (Move m : next) {
            UndoInfo ui = new UndoInfo();
            pos.makeMove(m, ui);
            walk(pos, ply + 1);
            pos.unMakeMove(m, ui);
        }
    }
}
