package io.timelinearchive.storage.gcs;

import static java.util.Objects.requireNonNull;

import com.google.api.gax.paging.Page;
import com.google.cloud.WriteChannel;
import com.google.cloud.storage.Blob;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.Storage.BlobField;
import com.google.cloud.storage.Storage.BlobListOption;
import com.google.cloud.storage.Storage.BlobTargetOption;
import com.google.cloud.storage.Storage.BlobWriteOption;
import com.google.cloud.storage.StorageException;
import io.timelinearchive.storage.AppendableLog;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.FileIterator;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.PagedFileIterator;
import io.timelinearchive.storage.ServiceRequestCounting;
import io.timelinearchive.storage.StorageErrors;
import io.timelinearchive.storage.StorageLocation;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A bucket of Google Cloud Storage. Objects are named by the location's path; folders are the
 * {@code /}-delimited prefixes of those names.
 *
 * <p>GCS has no append, so {@link #openLog} returns empty and archive runs write new objects with
 * {@link #createExclusive}.
 */
final class GcsMetaStorage implements MetaStorage, ServiceRequestCounting {
  private final String bucket;
  private final Storage storage;
  private final Storage singleAttemptStorage;
  private final GcsConfig config;
  private final ExclusiveCreate exclusiveCreate;
  private final BatchDelete batchDelete;
  private final Supplier<Map<String, Long>> serviceRequests;

  /**
   * @param storage a client with the SDK's retries, for idempotent requests
   * @param singleAttemptStorage a client that never retries, for conditional creates: their retries
   *     are made here, where it is known whether an earlier attempt may have landed
   * @param serviceRequests the requests both clients sent, by operation
   */
  GcsMetaStorage(
      String bucket,
      Storage storage,
      Storage singleAttemptStorage,
      GcsConfig config,
      Supplier<Map<String, Long>> serviceRequests) {
    this.bucket = requireNonNull(bucket, "bucket is null");
    this.storage = requireNonNull(storage, "storage is null");
    this.singleAttemptStorage =
        requireNonNull(singleAttemptStorage, "singleAttemptStorage is null");
    this.config = requireNonNull(config, "config is null");
    this.serviceRequests = requireNonNull(serviceRequests, "serviceRequests is null");
    this.exclusiveCreate = new ExclusiveCreate(singleAttemptStorage, config.retries());
    this.batchDelete =
        new BatchDelete(storage, config.batchSize(), config.parallelism(), config.retries());
  }

  @Override
  public Map<String, Long> serviceRequests() {
    return serviceRequests.get();
  }

  @Override
  public FileIterator list(StorageLocation folder) throws IOException {
    checkOwn(folder);
    String prefix = folder.path().isEmpty() ? "" : folder.path() + "/";
    try {
      Page<Blob> first =
          storage.list(
              bucket,
              BlobListOption.prefix(prefix),
              BlobListOption.currentDirectory(),
              BlobListOption.pageSize(config.listPageSize()),
              BlobListOption.fields(BlobField.NAME, BlobField.SIZE, BlobField.UPDATED));
      return new Listing(folder, prefix, first);
    } catch (StorageException e) {
      throw translate(e, "list " + folder, folder, true);
    }
  }

  @Override
  public byte[] read(StorageLocation file) throws IOException {
    BlobId id = blobId(file);
    try {
      return storage.readAllBytes(id);
    } catch (StorageException e) {
      throw translate(e, "read " + file, file, false);
    }
  }

  @Override
  public InputStream open(StorageLocation file) throws IOException {
    BlobId id = blobId(file);
    try {
      return new TranslatingInputStream(Channels.newInputStream(storage.reader(id)), file);
    } catch (StorageException e) {
      throw translate(e, "open " + file, file, false);
    }
  }

  @Override
  public void createExclusive(StorageLocation file, byte[] content) throws IOException {
    requireNonNull(content, "content is null");
    BlobInfo info = BlobInfo.newBuilder(blobId(file)).build();
    Upload upload =
        content.length <= config.singleRequestUploadMaxBytes()
            ? client -> client.create(info, content, BlobTargetOption.doesNotExist())
            : client -> resumableUpload(client, info, content);
    exclusiveCreate.run(file, upload);
  }

  // The precondition goes on the request that starts the session; GCS checks it again when the
  // upload is finalized, so a file created meanwhile still fails this one with 412.
  private static void resumableUpload(Storage client, BlobInfo info, byte[] content)
      throws IOException {
    try (WriteChannel channel = client.writer(info, BlobWriteOption.doesNotExist())) {
      ByteBuffer buffer = ByteBuffer.wrap(content);
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
    }
  }

  @Override
  public boolean supportsAppend() {
    return false;
  }

  @Override
  public Optional<AppendableLog> openLog(StorageLocation file) {
    blobId(file);
    return Optional.empty();
  }

  @Override
  public void deleteAll(Collection<StorageLocation> files) throws IOException {
    LinkedHashSet<StorageLocation> distinct = new LinkedHashSet<>();
    for (StorageLocation file : files) {
      blobId(file);
      distinct.add(file);
    }
    batchDelete.run(distinct, this::blobId);
  }

  @Override
  public void close() throws IOException {
    Exception failure = null;
    for (Storage client : new Storage[] {storage, singleAttemptStorage}) {
      try {
        client.close();
      } catch (Exception e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure instanceof IOException io) {
      throw io;
    }
    if (failure != null) {
      throw new IOException("cannot close the GCS client", failure);
    }
  }

  @Override
  public String toString() {
    return "GcsMetaStorage[gs://" + bucket + "]";
  }

  private BlobId blobId(StorageLocation file) {
    return BlobId.of(bucket, objectName(file));
  }

  private String objectName(StorageLocation location) {
    checkOwn(location);
    if (location.path().isEmpty()) {
      throw new IllegalArgumentException("a bucket is not a file: " + location);
    }
    return location.path();
  }

  private void checkOwn(StorageLocation location) {
    if (!location.scheme().equals(GcsMetaStorageFactory.SCHEME)
        || !location.authority().equals(bucket)) {
      throw new IllegalArgumentException(
          "not a location of this storage (gs://" + bucket + "): " + location);
    }
  }

  /** One attempt at writing an object, made through the client it is given. */
  @FunctionalInterface
  interface Upload {
    void run(Storage client) throws IOException;
  }

  /**
   * Maps a failed request to the JDK exception a caller can act on.
   *
   * @param folder 404 on a folder means the bucket is missing (a missing folder lists as empty)
   */
  static IOException translate(
      StorageException e, String what, StorageLocation location, boolean folder) {
    return switch (e.getCode()) {
      case 404 -> StorageErrors.noSuchFile(location, folder ? "bucket does not exist" : null, e);
      case 401, 403 -> StorageErrors.accessDenied(location, e.getMessage(), e);
      case 412 -> StorageErrors.alreadyExists(location, e);
      default -> new IOException("cannot " + what + ": " + describe(e), e);
    };
  }

  static String describe(StorageException e) {
    return e.getCode() == 0
        ? String.valueOf(e.getMessage())
        : e.getCode() + (e.getReason() == null ? "" : " " + e.getReason()) + ": " + e.getMessage();
  }

  private static StorageException storageCause(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof StorageException se) {
        return se;
      }
    }
    return null;
  }

  /** Reports a missing object as {@link NoSuchFileException} on the first read. */
  private static final class TranslatingInputStream extends FilterInputStream {
    private final StorageLocation file;

    TranslatingInputStream(InputStream in, StorageLocation file) {
      super(in);
      this.file = file;
    }

    @Override
    public int read() throws IOException {
      try {
        return super.read();
      } catch (IOException | StorageException e) {
        throw translateRead(e);
      }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      try {
        return super.read(b, off, len);
      } catch (IOException | StorageException e) {
        throw translateRead(e);
      }
    }

    private IOException translateRead(Exception e) {
      StorageException cause = storageCause(e);
      if (cause != null && cause.getCode() == 404) {
        return translate(cause, "read " + file, file, false);
      }
      if (e instanceof IOException io) {
        return io;
      }
      return new IOException("cannot read " + file + ": " + describe(cause), e);
    }
  }

  /**
   * The files directly in a folder, page by page. The service sends names in UTF-8 byte order; that
   * order is checked, since the archiver's "oldest first" rests on it.
   */
  private final class Listing extends PagedFileIterator {
    private final StorageLocation folder;
    private final String prefix;
    private Page<Blob> page;
    private boolean firstTaken;
    private String previousName;
    private byte[] previousUtf8;

    Listing(StorageLocation folder, String prefix, Page<Blob> first) {
      this.folder = folder;
      this.prefix = prefix;
      this.page = first;
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
          throw translate(e, "list " + folder, folder, true);
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
      byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
      if (previousUtf8 != null && Arrays.compareUnsigned(previousUtf8, utf8) >= 0) {
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
      previousUtf8 = utf8;
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
}
