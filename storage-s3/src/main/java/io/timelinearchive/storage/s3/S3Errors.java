package io.timelinearchive.storage.s3;

import static java.util.Objects.requireNonNullElse;

import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.io.InterruptedIOException;
import software.amazon.awssdk.core.exception.AbortedException;
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
  static boolean isInterrupted(SdkException e) {
    return e instanceof AbortedException
        || e.getCause() instanceof InterruptedException
        || e.getCause() instanceof InterruptedIOException
        || Thread.currentThread().isInterrupted();
  }

  static InterruptedIOException interrupted(StorageLocation file, SdkException e) {
    InterruptedIOException stop = new InterruptedIOException("interrupted on " + file);
    stop.initCause(e);
    return stop;
  }

  /** {@code failed to ACTION FILE: reason}, or an interrupt where that is what it was. */
  static IOException failure(String action, StorageLocation file, SdkException e) {
    if (isInterrupted(e)) {
      return interrupted(file, e);
    }
    return new IOException("failed to " + action + " " + file + ": " + describe(e), e);
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
