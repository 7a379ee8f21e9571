package org.petero.droidfish.book;

import org.petero.droidfish.gamelogic.Move;

/**
 * Our stand-in for DroidFish's book chooser: only the entry type CtgBook
 * returns (a move and its weight), so the reader compiles without the
 * chooser's Android dependencies.
 */
public final class DroidBook {
    private DroidBook() {
    }

    static final class BookEntry {
        Move move;
        float weight;

        BookEntry(Move move) {
            this.move = move;
            weight = 1;
        }
    }
}
