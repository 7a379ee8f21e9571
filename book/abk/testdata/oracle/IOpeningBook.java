package org.petero.droidfish.book;

import java.util.ArrayList;

import org.petero.droidfish.book.DroidBook.BookEntry;
import org.petero.droidfish.gamelogic.Move;
import org.petero.droidfish.gamelogic.Position;

/**
 * Our stand-in for DroidFish's interface of this name: the members AbkBook
 * uses, without the Android game classes the real one pulls in. AbkBook is
 * compiled against it unchanged.
 */
public interface IOpeningBook {
    boolean enabled();

    void setOptions(BookOptions options);

    ArrayList<BookEntry> getBookEntries(BookPosInput posInput);

    /** The game as AbkBook reads it: the position the moves start from, and the moves. */
    final class BookPosInput {
        private final Position prevPos;
        private final ArrayList<Move> moves;

        public BookPosInput(Position prevPos, ArrayList<Move> moves) {
            this.prevPos = prevPos;
            this.moves = moves;
        }

        public Position getPrevPos() {
            return prevPos;
        }

        public ArrayList<Move> getMoves() {
            return moves;
        }
    }
}
