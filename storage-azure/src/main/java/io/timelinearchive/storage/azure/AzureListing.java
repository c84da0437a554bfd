package io.timelinearchive.storage.azure;

import static java.util.Objects.requireNonNull;

import com.azure.core.http.rest.PagedResponse;
import com.azure.storage.blob.models.BlobItem;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.PagedFileIterator;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.Utf8Order;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
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
final class AzureListing extends PagedFileIterator {
  // Directories of accounts with a hierarchical namespace (and those Hadoop's drivers create on
  // flat ones) list as empty blobs carrying this metadata; they are not files.
  private static final String FOLDER_MARKER = "hdi_isfolder";

  private static final Comparator<FileEntry> UTF8_ORDER =
      Comparator.comparing(FileEntry::name, Utf8Order.COMPARATOR);

  private final StorageLocation folder;
  private final String prefix;
  private final Iterator<PagedResponse<BlobItem>> pages;
  private final PriorityQueue<FileEntry> heldBack = new PriorityQueue<>(UTF8_ORDER);
  private boolean exhausted;

  AzureListing(StorageLocation folder, String prefix, Iterator<PagedResponse<BlobItem>> pages) {
    this.folder = requireNonNull(folder, "folder is null");
    this.prefix = requireNonNull(prefix, "prefix is null");
    this.pages = requireNonNull(pages, "pages is null");
  }

  /** A service page in UTF-8 order, the names held back that precede its names released first. */
  @Override
  protected List<FileEntry> nextPage() throws IOException {
    if (exhausted) {
      return null;
    }
    List<FileEntry> ready = new ArrayList<>();
    try {
      if (pages.hasNext()) {
        for (BlobItem item : pages.next().getValue()) {
          if (!Boolean.TRUE.equals(item.isPrefix()) && !isFolderMarker(item)) {
            accept(entry(item), ready);
          }
        }
        return ready;
      }
    } catch (RuntimeException e) {
      if (AzureErrors.isNotFound(e)) {
        exhausted = true; // no container, no files
        return null;
      }
      throw AzureErrors.toIoException("list", folder, e);
    }
    exhausted = true;
    while (!heldBack.isEmpty()) {
      ready.add(heldBack.poll());
    }
    return ready;
  }

  private void accept(FileEntry entry, List<FileEntry> ready) {
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

  static boolean isFolderMarker(BlobItem item) {
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
}
