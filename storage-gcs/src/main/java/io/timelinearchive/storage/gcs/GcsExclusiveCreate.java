package io.timelinearchive.storage.gcs;

import static java.util.Objects.requireNonNull;

import com.google.cloud.WriteChannel;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.Storage.BlobTargetOption;
import com.google.cloud.storage.Storage.BlobWriteOption;
import com.google.cloud.storage.StorageException;
import io.timelinearchive.storage.OutcomeUnknownException;
import io.timelinearchive.storage.StorageErrors;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates an object under the {@code doesNotExist} precondition ({@code ifGenerationMatch=0}), in
 * one multipart request up to a size and with a resumable upload above it, retrying here rather
 * than in the SDK: a {@code 412} is "the file existed" only if no earlier attempt of this call can
 * have created it.
 *
 * <p>An attempt "may have landed" when the request may have reached the service and no answer said
 * otherwise: a timeout, a reset connection, a 5xx. An answer in the 4xx range, or a failure to
 * connect at all, proves that attempt wrote nothing.
 */
final class GcsExclusiveCreate {
  private static final Logger LOG = LoggerFactory.getLogger(GcsExclusiveCreate.class);
  private static final long FIRST_BACKOFF_MILLIS = 50;
  private static final long MAX_BACKOFF_MILLIS = 2_000;

  private final Storage singleAttemptClient;
  private final int retries;
  private final long singleRequestUploadMaxBytes;

  /**
   * @param singleAttemptClient a client that never retries: its retries would hide from this class
   *     whether an earlier attempt may have landed
   */
  GcsExclusiveCreate(Storage singleAttemptClient, int retries, long singleRequestUploadMaxBytes) {
    this.singleAttemptClient = requireNonNull(singleAttemptClient, "singleAttemptClient is null");
    this.retries = retries;
    this.singleRequestUploadMaxBytes = singleRequestUploadMaxBytes;
  }

  /**
   * @throws java.nio.file.FileAlreadyExistsException if the object exists and no attempt of this
   *     call may have created it
   * @throws OutcomeUnknownException if an attempt may have landed and the outcome is not known
   */
  void create(StorageLocation file, BlobId id, byte[] content) throws IOException {
    requireNonNull(content, "content is null");
    BlobInfo info = BlobInfo.newBuilder(requireNonNull(id, "id is null")).build();
    Upload upload =
        content.length <= singleRequestUploadMaxBytes
            ? client -> client.create(info, content, BlobTargetOption.doesNotExist())
            : client -> resumableUpload(client, info, content);
    run(file, upload);
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

  /** One attempt at writing an object, made through the client it is given. */
  @FunctionalInterface
  private interface Upload {
    void run(Storage client) throws IOException;
  }

  private void run(StorageLocation file, Upload upload) throws IOException {
    StorageException mayHaveLanded = null;
    for (int attempt = 0; ; attempt++) {
      StorageException failure;
      try {
        upload.run(singleAttemptClient);
        return;
      } catch (StorageException e) {
        failure = e;
      } catch (IOException e) {
        // The resumable channel wraps the service's answer in an IOException.
        failure = asStorageException(e);
      }

      if (failure.getCode() == 412) {
        if (mayHaveLanded != null) {
          throw unknown(file, attempt, failure, mayHaveLanded);
        }
        throw StorageErrors.alreadyExists(file, failure);
      }
      boolean landed = mayHaveLanded(failure);
      if (landed) {
        mayHaveLanded = failure;
      }
      if (!retryable(failure) || attempt >= retries) {
        if (mayHaveLanded != null) {
          throw unknown(file, attempt, failure, mayHaveLanded);
        }
        throw GcsErrors.translate(failure, "create " + file, file, false);
      }
      LOG.debug(
          "attempt {} to create {} failed ({}), retrying",
          attempt + 1,
          file,
          GcsErrors.describe(failure));
      try {
        Thread.sleep(backoffMillis(attempt));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        InterruptedIOException interrupted =
            new InterruptedIOException("interrupted while creating " + file);
        interrupted.initCause(failure);
        if (mayHaveLanded != null) {
          throw unknown(file, attempt, interrupted, mayHaveLanded);
        }
        throw interrupted;
      }
    }
  }

  private static OutcomeUnknownException unknown(
      StorageLocation file, int attempt, Exception last, StorageException earlier) {
    OutcomeUnknownException e =
        new OutcomeUnknownException(
            "cannot tell whether "
                + file
                + " was created by this call: an attempt may have landed ("
                + GcsErrors.describe(earlier)
                + "); attempt "
                + (attempt + 1)
                + " ended with "
                + (last instanceof StorageException se
                    ? GcsErrors.describe(se)
                    : last.getMessage()),
            last);
    if (last != earlier) {
      e.addSuppressed(earlier);
    }
    return e;
  }

  private static StorageException asStorageException(IOException e) {
    StorageException answer = GcsErrors.storageCause(e);
    return answer != null ? answer : StorageException.translate(e);
  }

  private static boolean mayHaveLanded(StorageException e) {
    int code = e.getCode();
    if (code >= 400 && code < 500) {
      return false;
    }
    if (code >= 500) {
      return true;
    }
    // No answer: the request may have been sent, unless the connection never opened.
    boolean io = false;
    for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
      if (c instanceof ConnectException
          || c instanceof UnknownHostException
          || c instanceof NoRouteToHostException) {
        return false;
      }
      io |= c instanceof IOException;
    }
    return io;
  }

  private static boolean retryable(StorageException e) {
    int code = e.getCode();
    if (code == 0) {
      for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
        if (c instanceof IOException) {
          return true;
        }
      }
      return e.isRetryable();
    }
    return code == 408 || code == 429 || code >= 500 || e.isRetryable();
  }

  private static long backoffMillis(int attempt) {
    long cap = Math.min(MAX_BACKOFF_MILLIS, FIRST_BACKOFF_MILLIS << Math.min(attempt, 16));
    return ThreadLocalRandom.current().nextLong(cap / 2, cap + 1);
  }
}
