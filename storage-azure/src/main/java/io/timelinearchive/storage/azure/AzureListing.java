package io.timelinearchive.storage.azure;

import static java.util.Objects.requireNonNull;

import com.azure.core.http.rest.PagedResponse;
import com.azure.storage.blob.models.BlobItem;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.FileIterator;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.Deque;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;

/**
 * The files of one folder, one service page at a time, in UTF-8 byte order.
 *
 * <p>The service (and Azurite) list in UTF-16 code unit order (observed by
 * https://github.com/blobfile/blobfile/pull/238), which differs from UTF-8 byte order only where
 * one name has a supplementary character (a surrogate pair) and the other a character in
 * U+E000..U+FFFF at the first difference: UTF-16 puts the supplementary one first, UTF-8 last.
 * Names with a supplementary character are therefore held back, and each is released just before
 * the first later name it precedes in UTF-8 order. That name can only come after it in the
 * service's order too, so the merge is exact; nothing but such rare names is buffered, and input
 * already in UTF-8 order passes through unchanged.
 */
final class AzureListing implements FileIterator {
  // Directories of accounts with a hierarchical namespace (and those Hadoop's drivers create on
  // flat ones) list as empty blobs carrying this metadata; they are not files.
  private static final String FOLDER_MARKER = "hdi_isfolder";

  private static final Comparator<FileEntry> UTF8_ORDER =
      (a, b) -> compareCodePoints(a.name(), b.name());

  private final StorageLocation folder;
  private final String prefix;
  private final Iterator<PagedResponse<BlobItem>> pages;
  private final Deque<FileEntry> ready = new ArrayDeque<>();
  private final PriorityQueue<FileEntry> heldBack = new PriorityQueue<>(UTF8_ORDER);
  private boolean exhausted;

  AzureListing(StorageLocation folder, String prefix, Iterator<PagedResponse<BlobItem>> pages) {
    this.folder = requireNonNull(folder, "folder is null");
    this.prefix = requireNonNull(prefix, "prefix is null");
    this.pages = requireNonNull(pages, "pages is null");
  }

  @Override
  public boolean hasNext() throws IOException {
    try {
      while (ready.isEmpty() && !exhausted) {
        if (pages.hasNext()) {
          for (BlobItem item : pages.next().getValue()) {
            if (!Boolean.TRUE.equals(item.isPrefix()) && !isFolderMarker(item)) {
              accept(entry(item));
            }
          }
        } else {
          exhausted = true;
          while (!heldBack.isEmpty()) {
            ready.add(heldBack.poll());
          }
        }
      }
    } catch (RuntimeException e) {
      if (AzureErrors.isNotFound(e)) {
        exhausted = true; // no container, no files
        return false;
      }
      throw AzureErrors.toIoException("list", folder, e);
    }
    return !ready.isEmpty();
  }

  @Override
  public FileEntry next() throws IOException {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return ready.removeFirst();
  }

  private void accept(FileEntry entry) {
    if (hasSurrogate(entry.name())) {
      heldBack.add(entry);
      return;
    }
    while (!heldBack.isEmpty() && UTF8_ORDER.compare(heldBack.peek(), entry) < 0) {
      ready.add(heldBack.poll());
    }
    ready.add(entry);
  }

  private FileEntry entry(BlobItem item) {
    Instant lastModified =
        item.getProperties().getLastModified() == null
            ? Instant.EPOCH
            : item.getProperties().getLastModified().toInstant();
    Long length = item.getProperties().getContentLength();
    return new FileEntry(
        folder.resolve(item.getName().substring(prefix.length())),
        length == null ? 0 : length,
        lastModified);
  }

  private static boolean isFolderMarker(BlobItem item) {
    Map<String, String> metadata = item.getMetadata();
    return metadata != null && "true".equalsIgnoreCase(metadata.get(FOLDER_MARKER));
  }

  private static boolean hasSurrogate(String name) {
    for (int i = 0; i < name.length(); i++) {
      if (Character.isSurrogate(name.charAt(i))) {
        return true;
      }
    }
    return false;
  }

  /** Code point order, which is the order of the strings' UTF-8 bytes. */
  static int compareCodePoints(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }
}
