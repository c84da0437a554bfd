package io.timelinearchive.storage;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;

/** A lazily paged listing; each page may cost a request, hence the checked exception. */
public interface FileIterator {
  /**
   * @return true if {@link #next()} has an entry to return
   * @throws IOException if fetching the next page fails
   */
  boolean hasNext() throws IOException;

  /**
   * @return the next entry, by name
   * @throws IOException if fetching the next page fails
   * @throws NoSuchElementException when there is no next entry
   */
  FileEntry next() throws IOException;

  /**
   * Drains the rest of the listing.
   *
   * @return the entries not yet returned, by name
   * @throws IOException if fetching a page fails
   */
  default List<FileEntry> toList() throws IOException {
    List<FileEntry> entries = new ArrayList<>();
    while (hasNext()) {
      entries.add(next());
    }
    return entries;
  }

  /**
   * An iterator over a list that is already in memory (and already sorted by name).
   *
   * @param entries the entries, sorted by name
   * @return an iterator over a copy of them
   */
  static FileIterator of(List<FileEntry> entries) {
    List<FileEntry> copy = List.copyOf(entries);
    return new FileIterator() {
      private int next;

      @Override
      public boolean hasNext() {
        return next < copy.size();
      }

      @Override
      public FileEntry next() {
        if (next >= copy.size()) {
          throw new NoSuchElementException();
        }
        return copy.get(next++);
      }
    };
  }
}
