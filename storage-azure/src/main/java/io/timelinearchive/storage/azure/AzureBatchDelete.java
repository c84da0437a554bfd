package io.timelinearchive.storage.azure;

import static java.util.Objects.requireNonNull;

import com.azure.core.http.rest.Response;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.batch.BlobBatch;
import com.azure.storage.blob.batch.BlobBatchClient;
import com.azure.storage.blob.models.BlobErrorCode;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.models.DeleteSnapshotsOptionType;
import io.timelinearchive.storage.DeleteFailedException;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes blobs of one container with blob batches of at most 256 sub-requests, or, where the
 * account, the credential or the emulator refuses batches, with bounded parallel single deletes.
 * Which of the two works is learnt from the first batch and kept for the life of the storage.
 */
final class AzureBatchDelete {
  private static final Logger LOG = LoggerFactory.getLogger(AzureBatchDelete.class);

  /**
   * Whole-batch answers that mean "no batches for you" rather than "try again": a credential that
   * cannot sign a batch (user-delegation or blob-scoped SAS: 403), an endpoint that does not know
   * the operation (400, 404, 405, 501).
   */
  private static final Set<Integer> BATCH_REFUSED = Set.of(400, 403, 404, 405, 501);

  enum Mode {
    UNKNOWN,
    BATCH,
    SINGLES
  }

  private final BlobContainerClient container;
  private final BlobBatchClient batchClient;
  private final ExecutorService executor;
  private final int batchSize;
  private final int parallelism;
  private final String description;
  private volatile Mode mode = Mode.UNKNOWN;

  AzureBatchDelete(
      BlobContainerClient container,
      BlobBatchClient batchClient,
      ExecutorService executor,
      int batchSize,
      int parallelism,
      String description) {
    this.container = requireNonNull(container, "container is null");
    this.batchClient = requireNonNull(batchClient, "batchClient is null");
    this.executor = requireNonNull(executor, "executor is null");
    this.batchSize = batchSize;
    this.parallelism = parallelism;
    this.description = requireNonNull(description, "description is null");
  }

  Mode mode() {
    return mode;
  }

  /**
   * Deletes {@code blobs} (location to blob name), ignoring missing ones.
   *
   * @throws DeleteFailedException naming each blob not deleted, after trying all
   */
  void deleteAll(Map<StorageLocation, String> blobs) throws IOException {
    Map<StorageLocation, String> failures = new LinkedHashMap<>();
    List<Map.Entry<StorageLocation, String>> entries = new ArrayList<>(blobs.entrySet());
    // A lone blob costs one request either way; keep the batch probe for real batches.
    if (entries.size() == 1 || mode == Mode.SINGLES) {
      deleteSingles(entries, failures);
    } else {
      for (int start = 0; start < entries.size(); start += batchSize) {
        List<Map.Entry<StorageLocation, String>> chunk =
            entries.subList(start, Math.min(entries.size(), start + batchSize));
        if (mode == Mode.SINGLES) {
          deleteSingles(chunk, failures);
        } else {
          deleteBatch(chunk, failures);
        }
      }
    }
    if (!failures.isEmpty()) {
      throw new DeleteFailedException(failures);
    }
  }

  private void deleteBatch(
      List<Map.Entry<StorageLocation, String>> chunk, Map<StorageLocation, String> failures)
      throws IOException {
    BlobBatch batch = batchClient.getBlobBatch();
    List<Response<Void>> responses = new ArrayList<>(chunk.size());
    for (Map.Entry<StorageLocation, String> entry : chunk) {
      // The URL overload: the (container, name) one escapes the '/' of folder paths
      // (https://github.com/Azure/azure-sdk-for-java/issues/45980) and leaves the account out of
      // path-style emulator URLs (https://github.com/Azure/Azurite/issues/1809).
      String url = container.getBlobClient(entry.getValue()).getBlobUrl();
      responses.add(batch.deleteBlob(url, DeleteSnapshotsOptionType.INCLUDE, null));
    }
    try {
      batchClient.submitBatchWithResponse(batch, false, null, null);
    } catch (BlobStorageException e) {
      if (e.getStatusCode() == 404 && BlobErrorCode.CONTAINER_NOT_FOUND.equals(e.getErrorCode())) {
        return; // nothing to delete in a container that does not exist
      }
      if (mode != Mode.BATCH && BATCH_REFUSED.contains(e.getStatusCode())) {
        mode = Mode.SINGLES;
        LOG.info(
            "Blob batch refused by {} ({}); deleting blobs one by one, {} at a time, from now on",
            description,
            AzureErrors.reason(e),
            parallelism);
        deleteSingles(chunk, failures);
        return;
      }
      chunk.forEach(
          entry -> failures.put(entry.getKey(), "batch failed: " + AzureErrors.reason(e)));
      return;
    } catch (RuntimeException e) {
      IOException failure = AzureErrors.toIoException("batch delete in", chunk.get(0).getKey(), e);
      if (failure instanceof InterruptedIOException) {
        throw failure;
      }
      chunk.forEach(entry -> failures.put(entry.getKey(), "batch failed: " + failure.getMessage()));
      return;
    }
    mode = Mode.BATCH;
    for (int i = 0; i < chunk.size(); i++) {
      String failure = subResponseFailure(responses.get(i));
      if (failure != null) {
        failures.put(chunk.get(i).getKey(), failure);
      }
    }
  }

  /** Null when the sub-request deleted the blob or found it missing. */
  private static String subResponseFailure(Response<Void> response) {
    try {
      // A sub-response with an unexpected status throws its own exception here.
      int status = response.getStatusCode();
      return status == 202 || status == 404 ? null : "status " + status;
    } catch (BlobStorageException e) {
      return e.getStatusCode() == 404 ? null : AzureErrors.reason(e);
    } catch (UnsupportedOperationException e) {
      return "no answer for this blob in the batch response";
    }
  }

  private void deleteSingles(
      List<Map.Entry<StorageLocation, String>> entries, Map<StorageLocation, String> failures)
      throws IOException {
    Function<Map.Entry<StorageLocation, String>, String> deleteOne =
        entry -> {
          try {
            container
                .getBlobClient(entry.getValue())
                .deleteWithResponse(DeleteSnapshotsOptionType.INCLUDE, null, null, null);
            return null;
          } catch (RuntimeException e) {
            return AzureErrors.isNotFound(e) ? null : AzureErrors.reason(e);
          }
        };
    if (entries.size() == 1) {
      String failure = deleteOne.apply(entries.get(0));
      if (failure != null) {
        failures.put(entries.get(0).getKey(), failure);
      }
      return;
    }
    // At most `parallelism` deletes in flight, whatever the pool's size.
    List<Future<Void>> futures = new ArrayList<>();
    Map<StorageLocation, String> found = new java.util.concurrent.ConcurrentHashMap<>();
    int perTask = (entries.size() + parallelism - 1) / parallelism;
    for (int start = 0; start < entries.size(); start += perTask) {
      List<Map.Entry<StorageLocation, String>> slice =
          entries.subList(start, Math.min(entries.size(), start + perTask));
      Callable<Void> task =
          () -> {
            for (Map.Entry<StorageLocation, String> entry : slice) {
              String failure = deleteOne.apply(entry);
              if (failure != null) {
                found.put(entry.getKey(), failure);
              }
            }
            return null;
          };
      futures.add(executor.submit(task));
    }
    try {
      for (Future<Void> future : futures) {
        future.get();
      }
    } catch (InterruptedException e) {
      futures.forEach(f -> f.cancel(true));
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while deleting blobs in " + description);
    } catch (ExecutionException e) {
      throw new IOException("deleting blobs in " + description + " failed", e.getCause());
    }
    // keep the caller's order in the report
    for (Map.Entry<StorageLocation, String> entry : entries) {
      String failure = found.get(entry.getKey());
      if (failure != null) {
        failures.put(entry.getKey(), failure);
      }
    }
  }
}
