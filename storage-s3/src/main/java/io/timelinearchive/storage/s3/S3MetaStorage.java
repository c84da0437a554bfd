package io.timelinearchive.storage.s3;

import static io.timelinearchive.storage.s3.S3Errors.failure;
import static java.util.Objects.requireNonNull;

import io.timelinearchive.storage.AppendableLog;
import io.timelinearchive.storage.FileIterator;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.ServiceRequestCounting;
import io.timelinearchive.storage.StorageErrors;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.io.InputStream;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * One bucket through the AWS SDK v2 synchronous client. Keys are location paths as written.
 *
 * <p>S3 has no append, so {@link #openLog} is empty and archives are written whole with {@link
 * #createExclusive} ({@link S3ExclusiveCreate}). Reads and deletes never issue a {@code HeadObject}
 * first: a missing key is a {@code NoSuchKey} on the read and a silent success on the delete
 * ({@link S3BatchDelete}).
 */
final class S3MetaStorage implements MetaStorage, ServiceRequestCounting {
  private final S3Client client;
  private final AutoCloseable credentials;
  private final String scheme;
  private final String bucket;
  private final S3Config config;
  private final S3RequestCounter counter;
  private final S3ExclusiveCreate creates;
  private final S3BatchDelete deletes;

  S3MetaStorage(
      S3Client client,
      AutoCloseable credentials,
      String scheme,
      String bucket,
      S3Config config,
      S3RequestCounter counter) {
    this.client = requireNonNull(client, "client is null");
    this.credentials = requireNonNull(credentials, "credentials is null");
    this.scheme = requireNonNull(scheme, "scheme is null");
    this.bucket = requireNonNull(bucket, "bucket is null");
    this.config = requireNonNull(config, "config is null");
    this.counter = requireNonNull(counter, "counter is null");
    this.creates = new S3ExclusiveCreate(client, bucket, config);
    this.deletes = new S3BatchDelete(client, scheme, bucket, config);
  }

  @Override
  public Map<String, Long> serviceRequests() {
    return counter.snapshot();
  }

  @Override
  public FileIterator list(StorageLocation folder) throws IOException {
    checkOwned(folder);
    return new S3Listing(client, bucket, config.listPageSize(), folder);
  }

  @Override
  public List<StorageLocation> listFolders(StorageLocation folder) throws IOException {
    checkOwned(folder);
    return S3FolderListing.list(client, bucket, config.listPageSize(), folder);
  }

  @Override
  public byte[] read(StorageLocation file) throws IOException {
    String key = fileKey(file);
    try {
      return client.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asByteArrayUnsafe();
    } catch (NoSuchKeyException e) {
      throw StorageErrors.noSuchFile(file, e);
    } catch (SdkException e) {
      throw failure("read", file, e);
    }
  }

  @Override
  public InputStream open(StorageLocation file) throws IOException {
    String key = fileKey(file);
    try {
      return new S3ObjectStream(client.getObject(b -> b.bucket(bucket).key(key)), file);
    } catch (NoSuchKeyException e) {
      throw StorageErrors.noSuchFile(file, e);
    } catch (SdkException e) {
      throw failure("open", file, e);
    }
  }

  @Override
  public void createExclusive(StorageLocation file, byte[] content) throws IOException {
    creates.create(file, fileKey(file), content);
  }

  @Override
  public boolean supportsAppend() {
    return false;
  }

  @Override
  public Optional<AppendableLog> openLog(StorageLocation file) {
    checkOwned(file);
    return Optional.empty();
  }

  @Override
  public void deleteAll(Collection<StorageLocation> files) throws IOException {
    Map<String, StorageLocation> byKey = new LinkedHashMap<>();
    for (StorageLocation file : files) {
      byKey.putIfAbsent(fileKey(file), file);
    }
    deletes.delete(byKey);
  }

  @Override
  public void close() throws IOException {
    deletes.close();
    try {
      client.close();
    } finally {
      try {
        credentials.close();
      } catch (Exception e) {
        throw new IOException("failed to close the credentials provider of " + bucket, e);
      }
    }
  }

  @Override
  public String toString() {
    return "S3MetaStorage[" + scheme + "://" + bucket + "]";
  }

  private void checkOwned(StorageLocation location) {
    requireNonNull(location, "location is null");
    if (!location.scheme().equals(scheme) || !location.authority().equals(bucket)) {
      throw new IllegalArgumentException(
          "location " + location + " is not in this storage (" + scheme + "://" + bucket + ")");
    }
  }

  private String fileKey(StorageLocation file) {
    checkOwned(file);
    if (file.path().isEmpty()) {
      throw new IllegalArgumentException("not a file: " + file);
    }
    return file.path();
  }
}
