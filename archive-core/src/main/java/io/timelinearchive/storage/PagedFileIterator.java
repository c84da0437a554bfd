package io.timelinearchive.storage;

import java.io.IOException;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * A listing fetched one page at a time: the next page is requested only when the entries of the one
 * before are used up, so a caller that stops early (or a short folder) costs no more requests than
 * it needs. A subclass fetches pages; this keeps the iterator's contract.
 */
public abstract class PagedFileIterator implements FileIterator {
  private Iterator<FileEntry> page = Collections.emptyIterator();
  private boolean exhausted;

  /**
   * The entries of the next page, in listing order (a page may hold none, for example one of
   * sub-folders only), or {@code null} when no page is left. Not called again after {@code null}.
   */
  protected abstract List<FileEntry> nextPage() throws IOException;

  @Override
  public final boolean hasNext() throws IOException {
    while (!page.hasNext()) {
      if (exhausted) {
        return false;
      }
      List<FileEntry> entries = nextPage();
      if (entries == null) {
        exhausted = true;
        return false;
      }
      page = entries.iterator();
    }
    return true;
  }

  @Override
  public final FileEntry next() throws IOException {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return page.next();
  }
}
