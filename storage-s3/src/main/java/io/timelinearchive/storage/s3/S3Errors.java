package io.timelinearchive.storage.s3;

import static java.util.Objects.requireNonNullElse;

import io.timelinearchive.storage.StorageErrors;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The SDK's failures as the SPI's exceptions. Which answer means a missing or existing file is
 * decided where the request is made ({@code NoSuchKey} on a read, {@code 412} on a create); the
 * exceptions themselves come from core's {@code StorageErrors}.
 */
final class S3Errors {
  private S3Errors() {}

  /** How many attempts the SDK made before giving up: more than one means it retried. */
  static int attempts(SdkException e) {
    Integer attempts = e.numAttempts();
    return attempts == null ? 1 : attempts;
  }

  /** The S3 HTTP status of {@code e}, or -1 when the failure is the client's own. */
  static int status(SdkException e) {
    return e instanceof S3Exception s3 ? s3.statusCode() : -1;
  }

  // The SDK reports an interrupt as an AbortedException or wraps it; the caller must see an
  // InterruptedIOException so that it stops instead of treating it as a store failure.
  // A SocketTimeoutException is an InterruptedIOException too, but it is the store not answering.
  static boolean isInterrupted(SdkException e) {
    return e instanceof AbortedException
        || e.getCause() instanceof InterruptedException
        || (e.getCause() instanceof InterruptedIOException
            && !(e.getCause() instanceof SocketTimeoutException))
        || Thread.currentThread().isInterrupted();
  }

  static InterruptedIOException interrupted(StorageLocation file, SdkException e) {
    InterruptedIOException stop = new InterruptedIOException("interrupted on " + file);
    stop.initCause(e);
    return stop;
  }

  /** Where requests go, and how long they may take: what to check when S3 does not answer. */
  static final String WHERE =
      String.join(
          ", ",
          S3Config.ENDPOINT.key(),
          S3Config.REGION.key(),
          S3Config.PATH_STYLE_ACCESS.key(),
          S3Config.CONNECT_TIMEOUT.key(),
          S3Config.SOCKET_TIMEOUT.key(),
          S3Config.API_CALL_TIMEOUT.key(),
          S3Config.MAX_RETRIES.key());

  /** Who requests are signed as: what to check when S3 refuses them or there is no one. */
  static final String WHO =
      S3Config.ACCESS_KEY.key()
          + " and "
          + S3Config.SECRET_KEY.key()
          + ", or the SDK's default credentials chain (AWS_ACCESS_KEY_ID and"
          + " AWS_SECRET_ACCESS_KEY, AWS_PROFILE, ~/.aws/credentials, an instance role)";

  /**
   * {@code failed to ACTION FILE: reason}; an interrupt, a refusal or an unreachable store as the
   * SPI's exceptions for them, so that callers can tell the user's environment from a failure.
   */
  static IOException failure(String action, StorageLocation file, SdkException e) {
    if (isInterrupted(e)) {
      return interrupted(file, e);
    }
    int status = status(e);
    if (status == 401 || status == 403) {
      return StorageErrors.accessDenied(file, action + ": " + describe(e) + "; check " + WHO, e);
    }
    if (MissingCredentials.in(e)) {
      return StorageErrors.unreachable(file, "no AWS credentials: " + e.getMessage(), WHO, e);
    }
    if (e instanceof ApiCallTimeoutException || e instanceof ApiCallAttemptTimeoutException) {
      return StorageErrors.unreachable(file, action + ": " + describe(e), WHERE, e);
    }
    Throwable network = status < 0 ? StorageErrors.networkCause(e) : null;
    if (network != null) {
      return StorageErrors.unreachable(
          file, action + ": " + StorageErrors.describe(network), WHERE, e);
    }
    return new IOException("failed to " + action + " " + file + ": " + describe(e), e);
  }

  /**
   * Marks the failure of a credentials provider, so that "no credentials" is told from other client
   * failures by type rather than by the SDK's wording.
   */
  static final class MissingCredentials extends RuntimeException {
    private static final long serialVersionUID = 1L;

    MissingCredentials(RuntimeException cause) {
      super(cause.getMessage(), cause);
    }

    static boolean in(Throwable e) {
      for (Throwable c = e; c != null; c = c.getCause()) {
        if (c instanceof MissingCredentials) {
          return true;
        }
      }
      return false;
    }
  }

  /** A short reason: S3's error code and status when there is one, else the client's message. */
  static String describe(SdkException e) {
    if (e instanceof S3Exception s3 && s3.awsErrorDetails() != null) {
      return requireNonNullElse(s3.awsErrorDetails().errorCode(), "error")
          + " (HTTP "
          + s3.statusCode()
          + "): "
          + requireNonNullElse(s3.awsErrorDetails().errorMessage(), "");
    }
    return e.getClass().getSimpleName() + ": " + e.getMessage();
  }
}
