package io.timelinearchive.storage.s3;

import static java.util.Objects.requireNonNull;
import static java.util.Objects.requireNonNullElse;

import io.timelinearchive.storage.AppendableLog;
import io.timelinearchive.storage.DaemonThreads;
import io.timelinearchive.storage.DeleteFailedException;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.FileIterator;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.OutcomeUnknownException;
import io.timelinearchive.storage.PagedFileIterator;
import io.timelinearchive.storage.ServiceRequestCounting;
import io.timelinearchive.storage.StorageErrors;
import io.timelinearchive.storage.StorageLocation;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.EncodingType;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Error;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * One bucket through the AWS SDK v2 synchronous client. Keys are location paths as written.
 *
 * <p>S3 has no append, so {@link #openLog} is empty and archives are written whole with {@link
 * #createExclusive}. Reads and deletes never issue a {@code HeadObject} first: a missing key is a
 * {@code NoSuchKey} on the read and a silent success on the delete.
 */
final class S3MetaStorage implements MetaStorage, ServiceRequestCounting {
  // Extra tries of a conditional write answered 409 ConditionalRequestConflict on its only
  // attempt: S3 says another conditional write on the key was in flight and asks to retry.
  // https://docs.aws.amazon.com/AmazonS3/latest/userguide/conditional-writes.html
  private static final int CONFLICT_RETRIES = 3;
  private static final long CONFLICT_BACKOFF_MILLIS = 100;

  private final S3Client client;
  private final AutoCloseable credentials;
  private final String scheme;
  private final String bucket;
  private final S3Config config;
  private final S3RequestCounter counter;
  private final ThreadPoolExecutor deletes;

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
    this.deletes =
        new ThreadPoolExecutor(
            config.requestParallelism(),
            config.requestParallelism(),
            30,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            DaemonThreads.numbered("s3-delete-" + bucket + "-"));
    this.deletes.allowCoreThreadTimeOut(true);
  }

  @Override
  public Map<String, Long> serviceRequests() {
    return counter.snapshot();
  }

  @Override
  public FileIterator list(StorageLocation folder) throws IOException {
    checkOwned(folder);
    String prefix = folder.path().isEmpty() ? "" : folder.path() + "/";
    return new Listing(folder, prefix);
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
      return new ObjectStream(client.getObject(b -> b.bucket(bucket).key(key)), file);
    } catch (NoSuchKeyException e) {
      throw StorageErrors.noSuchFile(file, e);
    } catch (SdkException e) {
      throw failure("open", file, e);
    }
  }

  @Override
  public void createExclusive(StorageLocation file, byte[] content) throws IOException {
    String key = fileKey(file);
    requireNonNull(content, "content is null");
    if (content.length > config.multipartThreshold()) {
      createMultipart(file, key, content);
      return;
    }
    conditionally(
        file,
        () ->
            client.putObject(
                b ->
                    b.bucket(bucket).key(key).ifNoneMatch("*").contentLength((long) content.length),
                RequestBody.fromBytes(content)));
  }

  private void createMultipart(StorageLocation file, String key, byte[] content)
      throws IOException {
    String uploadId;
    try {
      uploadId =
          client
              .createMultipartUpload(
                  b -> b.bucket(bucket).key(key).checksumAlgorithm(ChecksumAlgorithm.CRC32))
              .uploadId();
    } catch (SdkException e) {
      throw failure("start a multipart upload of", file, e);
    }
    try {
      List<CompletedPart> parts = new ArrayList<>();
      long partSize = config.partSize();
      for (int offset = 0, number = 1; offset < content.length; offset += partSize, number++) {
        int length = (int) Math.min(partSize, content.length - (long) offset);
        int partNumber = number;
        UploadPartResponse uploaded;
        try {
          uploaded =
              client.uploadPart(
                  b ->
                      b.bucket(bucket)
                          .key(key)
                          .uploadId(uploadId)
                          .partNumber(partNumber)
                          .contentLength((long) length)
                          .checksumAlgorithm(ChecksumAlgorithm.CRC32),
                  RequestBody.fromBytes(Arrays.copyOfRange(content, offset, offset + length)));
        } catch (SdkException e) {
          throw failure("upload part " + partNumber + " of", file, e);
        }
        parts.add(
            CompletedPart.builder()
                .partNumber(partNumber)
                .eTag(uploaded.eTag())
                .checksumCRC32(uploaded.checksumCRC32())
                .build());
      }
      // The condition sits on the completion: that is when the object becomes visible.
      conditionally(
          file,
          () ->
              client.completeMultipartUpload(
                  b ->
                      b.bucket(bucket)
                          .key(key)
                          .uploadId(uploadId)
                          .ifNoneMatch("*")
                          .multipartUpload(m -> m.parts(parts))));
    } catch (IOException | RuntimeException e) {
      // Aborting also settles an unknown completion: an aborted upload can never complete later.
      try {
        client.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId));
      } catch (SdkException abort) {
        e.addSuppressed(abort);
      }
      throw e;
    }
  }

  /**
   * Runs one conditional write ({@code If-None-Match: *}) and maps its answer. The SDK retries
   * failed attempts on its own, and then a {@code 412} no longer proves that someone else created
   * the object: an earlier attempt of this very call may have succeeded without us seeing the
   * answer. Only the caller can tell, by reading the object back.
   */
  private void conditionally(StorageLocation file, Supplier<?> write) throws IOException {
    for (int conflicts = 0; ; conflicts++) {
      try {
        write.get();
        return;
      } catch (SdkException e) {
        boolean retried = attempts(e) > 1;
        int status = e instanceof S3Exception s3 ? s3.statusCode() : -1;
        if (status == 412 && !retried) {
          throw StorageErrors.alreadyExists(file, "the object exists", e);
        }
        if (status == 409 && !retried && conflicts < CONFLICT_RETRIES) {
          // Our only attempt was refused, so nothing of ours was written: try again.
          pause(CONFLICT_BACKOFF_MILLIS << conflicts);
          continue;
        }
        if (isInterrupted(e)) {
          throw interrupted(file, e);
        }
        if (retried || status < 0 || status >= 500) {
          // An attempt may have reached S3 and created the object (a lost response, a timeout,
          // a 5xx), and nothing in this answer tells whether it did.
          throw new OutcomeUnknownException(
              "create of "
                  + file
                  + " ended after "
                  + attempts(e)
                  + " attempt(s) with "
                  + describe(e)
                  + "; read the file back to know whether it was created",
              e);
        }
        throw failure("create", file, e);
      }
    }
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
    if (byKey.isEmpty()) {
      return;
    }
    List<String> keys = new ArrayList<>(byKey.keySet());
    List<List<String>> batches = new ArrayList<>();
    for (int from = 0; from < keys.size(); from += config.deleteBatchSize()) {
      batches.add(keys.subList(from, Math.min(keys.size(), from + config.deleteBatchSize())));
    }
    Map<StorageLocation, String> failures = new LinkedHashMap<>();
    if (batches.size() == 1) {
      failures.putAll(deleteBatch(batches.get(0), byKey));
    } else {
      // Batches go in parallel, at most s3.request-parallelism at a time: the SPI promises no
      // order among the files of one call, and callers that need one make one call per step.
      List<Future<Map<StorageLocation, String>>> futures = new ArrayList<>();
      for (List<String> batch : batches) {
        futures.add(deletes.submit(() -> deleteBatch(batch, byKey)));
      }
      try {
        for (Future<Map<StorageLocation, String>> future : futures) {
          failures.putAll(future.get());
        }
      } catch (InterruptedException e) {
        futures.forEach(f -> f.cancel(true));
        Thread.currentThread().interrupt();
        InterruptedIOException stop =
            new InterruptedIOException("interrupted while deleting in " + bucket);
        stop.initCause(e);
        throw stop;
      } catch (ExecutionException e) {
        // deleteBatch reports every error per key; anything else is a bug worth surfacing.
        throw new IOException("delete batch failed unexpectedly in " + bucket, e.getCause());
      }
    }
    if (!failures.isEmpty()) {
      throw new DeleteFailedException(failures);
    }
  }

  private Map<StorageLocation, String> deleteBatch(
      List<String> keys, Map<String, StorageLocation> byKey) {
    List<ObjectIdentifier> objects = new ArrayList<>(keys.size());
    for (String key : keys) {
      objects.add(ObjectIdentifier.builder().key(key).build());
    }
    Map<StorageLocation, String> failures = new LinkedHashMap<>();
    DeleteObjectsResponse response;
    try {
      response =
          client.deleteObjects(b -> b.bucket(bucket).delete(d -> d.quiet(true).objects(objects)));
    } catch (SdkException e) {
      String reason = describe(e);
      for (String key : keys) {
        failures.put(byKey.get(key), reason);
      }
      return failures;
    }
    for (S3Error error : response.errors()) {
      if ("NoSuchKey".equals(error.code())) {
        continue; // deleting a missing file is a success by contract
      }
      StorageLocation file = byKey.get(error.key());
      failures.put(
          file != null ? file : new StorageLocation(scheme, bucket, error.key()),
          error.code() + ": " + error.message());
    }
    return failures;
  }

  @Override
  public void close() throws IOException {
    deletes.shutdownNow();
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

  private static int attempts(SdkException e) {
    Integer attempts = e.numAttempts();
    return attempts == null ? 1 : attempts;
  }

  private static boolean isInterrupted(SdkException e) {
    return e instanceof AbortedException
        || e.getCause() instanceof InterruptedException
        || e.getCause() instanceof InterruptedIOException
        || Thread.currentThread().isInterrupted();
  }

  private static InterruptedIOException interrupted(StorageLocation file, SdkException e) {
    InterruptedIOException stop = new InterruptedIOException("interrupted on " + file);
    stop.initCause(e);
    return stop;
  }

  private static IOException failure(String action, StorageLocation file, SdkException e) {
    if (isInterrupted(e)) {
      return interrupted(file, e);
    }
    return new IOException("failed to " + action + " " + file + ": " + describe(e), e);
  }

  /** A short reason: S3's error code and status when there is one, else the client's message. */
  private static String describe(SdkException e) {
    if (e instanceof S3Exception s3 && s3.awsErrorDetails() != null) {
      return requireNonNullElse(s3.awsErrorDetails().errorCode(), "error")
          + " (HTTP "
          + s3.statusCode()
          + "): "
          + requireNonNullElse(s3.awsErrorDetails().errorMessage(), "");
    }
    return e.getClass().getSimpleName() + ": " + e.getMessage();
  }

  private static void pause(long millis) throws InterruptedIOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting to retry a conditional write");
    }
  }

  /** A delimiter listing, one {@code ListObjectsV2} page at a time. */
  private final class Listing extends PagedFileIterator {
    private final StorageLocation folder;
    private final String prefix;
    private String continuation;
    private boolean lastPage;

    Listing(StorageLocation folder, String prefix) {
      this.folder = folder;
      this.prefix = prefix;
    }

    @Override
    protected List<FileEntry> nextPage() throws IOException {
      if (lastPage) {
        return null;
      }
      ListObjectsV2Response response;
      try {
        // encoding-type=url lets keys with characters XML 1.0 cannot carry come through; the
        // SDK decodes them again.
        response =
            client.listObjectsV2(
                b ->
                    b.bucket(bucket)
                        .prefix(prefix)
                        .delimiter("/")
                        .encodingType(EncodingType.URL)
                        .maxKeys(config.listPageSize())
                        .continuationToken(continuation));
      } catch (SdkException e) {
        throw failure("list", folder, e);
      }
      continuation = response.nextContinuationToken();
      lastPage = !Boolean.TRUE.equals(response.isTruncated()) || continuation == null;
      List<FileEntry> entries = new ArrayList<>(response.contents().size());
      for (S3Object object : response.contents()) {
        FileEntry entry = entry(object);
        if (entry != null) {
          entries.add(entry);
        }
      }
      return entries;
    }

    private FileEntry entry(S3Object object) {
      String key = object.key();
      if (key == null || !key.startsWith(prefix)) {
        return null;
      }
      String name = key.substring(prefix.length());
      // The folder's own marker object ("folder/") and names no location can hold are skipped.
      if (name.isEmpty() || name.equals(".") || name.equals("..") || name.contains("/")) {
        return null;
      }
      Instant modified = requireNonNullElse(object.lastModified(), Instant.EPOCH);
      return new FileEntry(
          folder.resolve(name), Math.max(0, requireNonNullElse(object.size(), 0L)), modified);
    }
  }

  /**
   * Maps SDK exceptions to {@link IOException}s and aborts the connection when closed early (a
   * drained close would download the rest of the object).
   */
  private static final class ObjectStream extends FilterInputStream {
    private final ResponseInputStream<GetObjectResponse> response;
    private final StorageLocation file;
    private boolean ended;

    ObjectStream(ResponseInputStream<GetObjectResponse> response, StorageLocation file) {
      super(response);
      this.response = response;
      this.file = file;
    }

    @Override
    public int read() throws IOException {
      try {
        int b = super.read();
        ended |= b < 0;
        return b;
      } catch (SdkException e) {
        throw failure("read", file, e);
      }
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      try {
        int n = super.read(buffer, offset, length);
        ended |= n < 0;
        return n;
      } catch (SdkException e) {
        throw failure("read", file, e);
      }
    }

    @Override
    public long skip(long n) throws IOException {
      try {
        return super.skip(n);
      } catch (SdkException e) {
        throw failure("read", file, e);
      }
    }

    @Override
    public void close() throws IOException {
      try {
        if (!ended) {
          response.abort();
        }
        super.close();
      } catch (SdkException e) {
        throw failure("close", file, e);
      }
    }
  }
}
