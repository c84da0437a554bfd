package io.timelinearchive.storage.gcs;

import static java.util.Objects.requireNonNull;

import com.google.cloud.BatchResult;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageBatch;
import com.google.cloud.storage.StorageException;
import io.timelinearchive.storage.DaemonThreads;
import io.timelinearchive.storage.DeleteFailedException;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes objects with JSON API batch requests of at most {@code batchSize} deletes, a few batches
 * in flight at once. Deletes are idempotent (a missing object counts as deleted), so a batch that
 * failed as a whole and entries that failed with a retryable status are simply sent again.
 */
final class GcsBatchDelete {
  private static final Logger LOG = LoggerFactory.getLogger(GcsBatchDelete.class);
  private static final long FIRST_BACKOFF_MILLIS = 50;
  private static final long MAX_BACKOFF_MILLIS = 2_000;
  // One factory for every pool, so thread names stay unique across calls.
  private static final ThreadFactory THREADS = DaemonThreads.numbered("gcs-batch-delete-");

  private final Storage storage;
  private final int batchSize;
  private final int parallelism;
  private final int retries;

  GcsBatchDelete(Storage storage, int batchSize, int parallelism, int retries) {
    this.storage = requireNonNull(storage, "storage is null");
    this.batchSize = batchSize;
    this.parallelism = parallelism;
    this.retries = retries;
  }

  void run(Collection<StorageLocation> files, Function<StorageLocation, BlobId> ids)
      throws IOException {
    List<StorageLocation> all = List.copyOf(files);
    List<List<StorageLocation>> batches = new ArrayList<>();
    for (int from = 0; from < all.size(); from += batchSize) {
      batches.add(all.subList(from, Math.min(all.size(), from + batchSize)));
    }
    Map<StorageLocation, String> failures = new LinkedHashMap<>();
    if (all.size() == 1) {
      // The archiver deletes completed instants one call per file, oldest first: a plain DELETE
      // (retried by the SDK) is lighter than a batch of one.
      StorageLocation file = all.get(0);
      try {
        storage.delete(ids.apply(file));
      } catch (StorageException e) {
        failures.put(file, GcsErrors.describe(e));
      }
    } else if (batches.size() <= 1 || parallelism == 1) {
      for (List<StorageLocation> batch : batches) {
        failures.putAll(deleteBatch(batch, ids));
      }
    } else {
      failures.putAll(runInParallel(batches, ids));
    }
    if (!failures.isEmpty()) {
      throw new DeleteFailedException(failures);
    }
  }

  private Map<StorageLocation, String> runInParallel(
      List<List<StorageLocation>> batches, Function<StorageLocation, BlobId> ids)
      throws IOException {
    ExecutorService pool =
        Executors.newFixedThreadPool(Math.min(parallelism, batches.size()), THREADS);
    try {
      List<Future<Map<StorageLocation, String>>> results = new ArrayList<>();
      for (List<StorageLocation> batch : batches) {
        results.add(pool.submit(() -> deleteBatch(batch, ids)));
      }
      Map<StorageLocation, String> failures = new LinkedHashMap<>();
      for (Future<Map<StorageLocation, String>> result : results) {
        try {
          failures.putAll(result.get());
        } catch (ExecutionException e) {
          Throwable cause = e.getCause();
          if (cause instanceof IOException io) {
            throw io;
          }
          if (cause instanceof RuntimeException runtime) {
            throw runtime;
          }
          throw new IOException("batch delete failed", cause);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted while deleting");
        }
      }
      return failures;
    } finally {
      pool.shutdownNow();
    }
  }

  /** Deletes one batch, retrying what may succeed on a retry; returns what still failed. */
  private Map<StorageLocation, String> deleteBatch(
      List<StorageLocation> batch, Function<StorageLocation, BlobId> ids)
      throws InterruptedIOException {
    Collection<StorageLocation> pending = batch;
    Map<StorageLocation, String> failed = new LinkedHashMap<>();
    for (int attempt = 0; ; attempt++) {
      Map<StorageLocation, StorageException> retry = new LinkedHashMap<>();
      StorageBatch request = storage.batch();
      Set<StorageLocation> answered = new HashSet<>();
      for (StorageLocation file : pending) {
        request
            .delete(ids.apply(file))
            .notify(
                new BatchResult.Callback<Boolean, StorageException>() {
                  @Override
                  public void success(Boolean deletedOrMissing) {
                    answered.add(file);
                  }

                  @Override
                  public void error(StorageException e) {
                    answered.add(file);
                    if (retryable(e)) {
                      retry.put(file, e);
                    } else {
                      failed.put(file, GcsErrors.describe(e));
                    }
                  }
                });
      }
      try {
        request.submit();
      } catch (StorageException e) {
        // The batch request itself failed; entries answered before the failure keep their answer.
        for (StorageLocation file : pending) {
          if (!answered.contains(file)) {
            retry.put(file, e);
          }
        }
      }
      if (retry.isEmpty()) {
        return failed;
      }
      if (attempt >= retries) {
        retry.forEach((file, e) -> failed.put(file, GcsErrors.describe(e)));
        return failed;
      }
      LOG.debug(
          "batch delete attempt {}: {} of {} deletes to retry",
          attempt + 1,
          retry.size(),
          pending.size());
      pending = retry.keySet();
      try {
        Thread.sleep(backoffMillis(attempt));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while deleting");
      }
    }
  }

  private static boolean retryable(StorageException e) {
    int code = e.getCode();
    return code == 0 || code == 408 || code == 429 || code >= 500 || e.isRetryable();
  }

  private static long backoffMillis(int attempt) {
    long cap = Math.min(MAX_BACKOFF_MILLIS, FIRST_BACKOFF_MILLIS << Math.min(attempt, 16));
    return ThreadLocalRandom.current().nextLong(cap / 2, cap + 1);
  }
}
