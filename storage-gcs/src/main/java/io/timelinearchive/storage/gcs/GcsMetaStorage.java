package io.timelinearchive.storage.gcs;

import static java.util.Objects.requireNonNull;

import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageException;
import io.timelinearchive.storage.AppendableLog;
import io.timelinearchive.storage.FileIterator;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.ServiceRequestCounting;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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
  private final GcsExclusiveCreate exclusiveCreate;
  private final GcsBatchDelete batchDelete;
  private final GcsRequestCounter requests;

  /**
   * @param storage a client with the SDK's retries, for idempotent requests
   * @param singleAttemptStorage a client that never retries, for conditional creates: their retries
   *     are made here, where it is known whether an earlier attempt may have landed
   * @param requests the transport both clients send through
   */
  GcsMetaStorage(
      String bucket,
      Storage storage,
      Storage singleAttemptStorage,
      GcsConfig config,
      GcsRequestCounter requests) {
    this.bucket = requireNonNull(bucket, "bucket is null");
    this.storage = requireNonNull(storage, "storage is null");
    this.singleAttemptStorage =
        requireNonNull(singleAttemptStorage, "singleAttemptStorage is null");
    this.config = requireNonNull(config, "config is null");
    this.requests = requireNonNull(requests, "requests is null");
    this.exclusiveCreate =
        new GcsExclusiveCreate(
            singleAttemptStorage, config.retries(), config.singleRequestUploadMaxBytes());
    this.batchDelete =
        new GcsBatchDelete(storage, config.batchSize(), config.parallelism(), config.retries());
  }

  @Override
  public Map<String, Long> serviceRequests() {
    return requests.snapshot();
  }

  @Override
  public FileIterator list(StorageLocation folder) throws IOException {
    checkOwn(folder);
    return GcsListing.start(storage, bucket, folder, config.listPageSize());
  }

  @Override
  public List<StorageLocation> listFolders(StorageLocation folder) throws IOException {
    checkOwn(folder);
    return GcsFolderListing.list(storage, bucket, folder, config.listPageSize());
  }

  @Override
  public byte[] read(StorageLocation file) throws IOException {
    BlobId id = blobId(file);
    try {
      return storage.readAllBytes(id);
    } catch (StorageException e) {
      throw GcsErrors.translate(e, "read " + file, file, false);
    }
  }

  @Override
  public InputStream open(StorageLocation file) throws IOException {
    BlobId id = blobId(file);
    try {
      return GcsErrors.translatingReads(Channels.newInputStream(storage.reader(id)), file);
    } catch (StorageException e) {
      throw GcsErrors.translate(e, "open " + file, file, false);
    }
  }

  @Override
  public void createExclusive(StorageLocation file, byte[] content) throws IOException {
    requireNonNull(content, "content is null");
    exclusiveCreate.create(file, blobId(file), content);
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
    checkOwn(file);
    if (file.path().isEmpty()) {
      throw new IllegalArgumentException("a bucket is not a file: " + file);
    }
    return BlobId.of(bucket, file.path());
  }

  private void checkOwn(StorageLocation location) {
    if (!location.scheme().equals(GcsMetaStorageFactory.SCHEME)
        || !location.authority().equals(bucket)) {
      throw new IllegalArgumentException(
          "not a location of this storage (gs://" + bucket + "): " + location);
    }
  }
}
