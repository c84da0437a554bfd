package io.timelinearchive.storage.s3;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.storage.DaemonThreads;
import io.timelinearchive.storage.DeleteFailedException;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Error;

/**
 * {@code deleteAll} as quiet {@code DeleteObjects} calls of at most {@code s3.delete-batch-size}
 * keys, several batches in parallel, every key's error gathered into one {@link
 * DeleteFailedException}.
 */
final class S3BatchDelete implements AutoCloseable {
  private final S3Client client;
  private final String scheme;
  private final String bucket;
  private final int batchSize;
  private final ThreadPoolExecutor batches;

  S3BatchDelete(S3Client client, String scheme, String bucket, S3Config config) {
    this.client = requireNonNull(client, "client is null");
    this.scheme = requireNonNull(scheme, "scheme is null");
    this.bucket = requireNonNull(bucket, "bucket is null");
    requireNonNull(config, "config is null");
    this.batchSize = config.deleteBatchSize();
    // Sized like the HTTP connection pool (both s3.request-parallelism): more batches at once
    // would only wait for a connection. Idle threads end, so an idle storage holds none.
    this.batches =
        new ThreadPoolExecutor(
            config.requestParallelism(),
            config.requestParallelism(),
            30,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            DaemonThreads.numbered("s3-delete-" + bucket + "-"));
    this.batches.allowCoreThreadTimeOut(true);
  }

  /**
   * @param byKey the files to delete by their keys, each key once
   */
  void delete(Map<String, StorageLocation> byKey) throws IOException {
    if (byKey.isEmpty()) {
      return;
    }
    List<String> keys = new ArrayList<>(byKey.keySet());
    List<List<String>> split = new ArrayList<>();
    for (int from = 0; from < keys.size(); from += batchSize) {
      split.add(keys.subList(from, Math.min(keys.size(), from + batchSize)));
    }
    Map<StorageLocation, String> failures = new LinkedHashMap<>();
    if (split.size() == 1) {
      failures.putAll(deleteBatch(split.get(0), byKey));
    } else {
      // Batches go in parallel, at most s3.request-parallelism at a time: the SPI promises no
      // order among the files of one call, and callers that need one make one call per step.
      List<Future<Map<StorageLocation, String>>> futures = new ArrayList<>();
      for (List<String> batch : split) {
        futures.add(batches.submit(() -> deleteBatch(batch, byKey)));
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
      String reason = S3Errors.describe(e);
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
  public void close() {
    batches.shutdownNow();
  }
}
