package io.timelinearchive.storage.gcs;

import static java.util.Objects.requireNonNull;

import com.google.api.gax.paging.Page;
import com.google.cloud.storage.Blob;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.Storage.BlobField;
import com.google.cloud.storage.Storage.BlobListOption;
import com.google.cloud.storage.StorageException;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.PagedFileIterator;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.Utf8Order;
import java.io.IOException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * The files directly in a folder, page by page ({@code prefix} + delimiter {@code /}). The service
 * sends names in UTF-8 byte order; that order is checked, since the archiver's "oldest first" rests
 * on it.
 */
final class GcsListing extends PagedFileIterator {
  private final StorageLocation folder;
  private final String prefix;
  private Page<Blob> page;
  private boolean firstTaken;
  private String previousName;

  private GcsListing(StorageLocation folder, String prefix, Page<Blob> first) {
    this.folder = folder;
    this.prefix = prefix;
    this.page = first;
  }

  /**
   * Asks for the first page now, so that a missing bucket fails the {@code list} call itself.
   *
   * @param folder the folder, of {@code bucket}
   */
  static GcsListing start(Storage storage, String bucket, StorageLocation folder, int pageSize)
      throws IOException {
    requireNonNull(storage, "storage is null");
    requireNonNull(bucket, "bucket is null");
    requireNonNull(folder, "folder is null");
    String prefix = folder.path().isEmpty() ? "" : folder.path() + "/";
    try {
      Page<Blob> first =
          storage.list(
              bucket,
              BlobListOption.prefix(prefix),
              BlobListOption.currentDirectory(),
              BlobListOption.pageSize(pageSize),
              BlobListOption.fields(BlobField.NAME, BlobField.SIZE, BlobField.UPDATED));
      return new GcsListing(folder, prefix, first);
    } catch (StorageException e) {
      throw GcsErrors.translate(e, "list " + folder, folder, true);
    }
  }

  @Override
  protected List<FileEntry> nextPage() throws IOException {
    if (firstTaken) {
      if (page == null || !page.hasNextPage()) {
        return null;
      }
      try {
        page = page.getNextPage();
      } catch (StorageException e) {
        throw GcsErrors.translate(e, "list " + folder, folder, true);
      }
      if (page == null) {
        return null;
      }
    }
    firstTaken = true;
    List<FileEntry> entries = new ArrayList<>();
    for (Blob blob : page.getValues()) {
      FileEntry entry = entry(blob);
      if (entry != null) {
        entries.add(entry);
      }
    }
    return entries;
  }

  private FileEntry entry(Blob blob) throws IOException {
    String name = blob.getName();
    if (blob.isDirectory() || !name.startsWith(prefix)) {
      return null;
    }
    String child = name.substring(prefix.length());
    // A folder placeholder ("folder/") or a name no location can hold ("." or "..") is not a
    // file of this folder.
    if (child.isEmpty() || child.contains("/") || child.equals(".") || child.equals("..")) {
      return null;
    }
    if (previousName != null && Utf8Order.compare(previousName, name) >= 0) {
      throw new IOException(
          "the listing of "
              + folder
              + " is not in name order: '"
              + name
              + "' came after '"
              + previousName
              + "'");
    }
    previousName = name;
    Long size = blob.getSize();
    return new FileEntry(folder.resolve(child), size == null ? 0 : size, lastModified(blob));
  }

  private static Instant lastModified(Blob blob) {
    OffsetDateTime updated = blob.getUpdateTimeOffsetDateTime();
    if (updated == null) {
      updated = blob.getCreateTimeOffsetDateTime();
    }
    return updated == null ? Instant.EPOCH : updated.toInstant();
  }
}
