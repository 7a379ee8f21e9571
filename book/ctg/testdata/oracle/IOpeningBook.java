package org.petero.droidfish.book;

import java.util.ArrayList;

import org.petero.droidfish.book.DroidBook.BookEntry;
import org.petero.droidfish.gamelogic.Position;

/**
 * Our stand-in for DroidFish's interface of this name: the members CtgBook
 * uses, without the Android game classes the real one pulls in. CtgBook is
 * compiled against it unchanged.
 */
public interface IOpeningBook {
    boolean enabled();

    void setOptions(BookOptions options);

    ArrayList<BookEntry> getBookEntries(BookPosInput posInput);

    /** The position CtgBook is asked about (it reads no game history). */
    final class BookPosInput {
        private final Position currPos;

        public BookPosInput(Position currPos) {
            this.currPos = currPos;
        }

        public Position getCurrPos() {
            return currPos;
        }
    }
}
