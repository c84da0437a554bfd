package io.timelinearchive.storage.gcs;

import static java.util.Objects.requireNonNull;

import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageException;
import io.timelinearchive.storage.OutcomeUnknownException;
import io.timelinearchive.storage.StorageErrors;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates an object under the {@code doesNotExist} precondition ({@code ifGenerationMatch=0}),
 * retrying here rather than in the SDK: a {@code 412} is "the file existed" only if no earlier
 * attempt of this call can have created it.
 *
 * <p>An attempt "may have landed" when the request may have reached the service and no answer said
 * otherwise: a timeout, a reset connection, a 5xx. An answer in the 4xx range, or a failure to
 * connect at all, proves that attempt wrote nothing.
 */
final class ExclusiveCreate {
  private static final Logger LOG = LoggerFactory.getLogger(ExclusiveCreate.class);
  private static final long FIRST_BACKOFF_MILLIS = 50;
  private static final long MAX_BACKOFF_MILLIS = 2_000;

  private final Storage singleAttemptClient;
  private final int retries;

  ExclusiveCreate(Storage singleAttemptClient, int retries) {
    this.singleAttemptClient = requireNonNull(singleAttemptClient, "singleAttemptClient is null");
    this.retries = retries;
  }

  void run(StorageLocation file, GcsMetaStorage.Upload upload) throws IOException {
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
        throw GcsMetaStorage.translate(failure, "create " + file, file, false);
      }
      LOG.debug(
          "attempt {} to create {} failed ({}), retrying",
          attempt + 1,
          file,
          GcsMetaStorage.describe(failure));
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
                + GcsMetaStorage.describe(earlier)
                + "); attempt "
                + (attempt + 1)
                + " ended with "
                + (last instanceof StorageException se
                    ? GcsMetaStorage.describe(se)
                    : last.getMessage()),
            last);
    if (last != earlier) {
      e.addSuppressed(earlier);
    }
    return e;
  }

  private static StorageException asStorageException(IOException e) {
    for (Throwable c = e; c != null; c = c.getCause()) {
      if (c instanceof StorageException se) {
        return se;
      }
    }
    return StorageException.translate(e);
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
