package io.timelinearchive.storage.azure;

import com.azure.core.exception.ClientAuthenticationException;
import com.azure.core.exception.HttpResponseException;
import com.azure.storage.blob.models.BlobErrorCode;
import com.azure.storage.blob.models.BlobStorageException;
import io.timelinearchive.storage.StorageErrors;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeoutException;

/** Turns the SDK's unchecked failures into the checked ones the storage SPI promises. */
final class AzureErrors {
  private AzureErrors() {}

  /** Where requests go, and how long they may take: what to check when Azure does not answer. */
  static final String WHERE =
      String.join(
          ", ",
          AzureConfig.ENDPOINT.key(),
          AzureConfig.CONNECT_TIMEOUT.key(),
          AzureConfig.RESPONSE_TIMEOUT.key(),
          AzureConfig.MAX_RETRIES.key(),
          AzureConfig.RETRY_DELAY.key());

  /** Who requests are signed as: what to check when Azure refuses them or there is no one. */
  static final String WHO =
      AzureConfig.CONNECTION_STRING.key()
          + ", "
          + AzureConfig.ACCOUNT_KEY.key()
          + " or "
          + AzureConfig.SAS_TOKEN.key()
          + ", or the default Azure credential chain (AZURE_CLIENT_ID, AZURE_TENANT_ID and"
          + " AZURE_CLIENT_SECRET, a managed identity, az login)";

  static boolean isNotFound(Throwable e) {
    return e instanceof BlobStorageException b && b.getStatusCode() == 404;
  }

  /**
   * The answers of a conditional create whose target exists. The service answers {@code 409
   * BlobAlreadyExists} to a Put Blob with {@code If-None-Match: *}, but {@code 412 ConditionNotMet}
   * is documented for the same condition on other operations and seen from proxies; either means
   * the blob was there.
   */
  static boolean isAlreadyExists(Throwable e) {
    if (!(e instanceof BlobStorageException b)) {
      return false;
    }
    return (b.getStatusCode() == 409 && BlobErrorCode.BLOB_ALREADY_EXISTS.equals(b.getErrorCode()))
        || (b.getStatusCode() == 412
            && (b.getErrorCode() == null
                || BlobErrorCode.CONDITION_NOT_MET.equals(b.getErrorCode())));
  }

  // The credential chain fails a request with this type, wrapped or not, when no credential in it
  // yields a token.
  private static ClientAuthenticationException authenticationFailure(Throwable e) {
    for (Throwable c = e; c != null; c = c.getCause()) {
      if (c instanceof ClientAuthenticationException a) {
        return a;
      }
    }
    return null;
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "the credential chain gave no token";
    }
    int end = message.indexOf('\n');
    return (end < 0 ? message : message.substring(0, end)).strip();
  }

  /** The status and error code of a service answer, without its body (which may echo input). */
  static String reason(Throwable e) {
    if (e instanceof BlobStorageException b) {
      return b.getStatusCode() + (b.getErrorCode() == null ? "" : " " + b.getErrorCode());
    }
    if (e instanceof HttpResponseException h && h.getResponse() != null) {
      return Integer.toString(h.getResponse().getStatusCode());
    }
    return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
  }

  /**
   * An I/O failure of {@code action} on {@code location}, or {@code e} itself when it is a
   * programming error rather than a failed request.
   */
  static IOException toIoException(String action, StorageLocation location, RuntimeException e) {
    if (isNotFound(e)) {
      return StorageErrors.noSuchFile(location, action + ": " + reason(e), e);
    }
    if (e instanceof BlobStorageException b
        && (b.getStatusCode() == 403 || b.getStatusCode() == 401)) {
      return StorageErrors.accessDenied(location, action + ": " + reason(e) + "; check " + WHO, e);
    }
    ClientAuthenticationException noToken = authenticationFailure(e);
    if (noToken != null) {
      return StorageErrors.unreachable(
          location, action + ": no Azure credentials: " + firstLine(noToken.getMessage()), WHO, e);
    }
    Throwable network = e instanceof HttpResponseException ? null : StorageErrors.networkCause(e);
    if (network != null) {
      return StorageErrors.unreachable(
          location, action + ": " + StorageErrors.describe(network), WHERE, e);
    }
    if (e instanceof HttpResponseException) {
      return new IOException(action + " " + location + " failed: " + reason(e), e);
    }
    if (e instanceof UncheckedIOException u) {
      return new IOException(action + " " + location + " failed: " + u.getCause().getMessage(), e);
    }
    Throwable cause = reactor.core.Exceptions.unwrap(e);
    if (cause instanceof InterruptedException) {
      Thread.currentThread().interrupt();
      InterruptedIOException interrupted =
          new InterruptedIOException(action + " " + location + " interrupted");
      interrupted.initCause(e);
      return interrupted;
    }
    if (cause instanceof IOException || cause instanceof TimeoutException) {
      return new IOException(action + " " + location + " failed: " + cause, e);
    }
    throw e;
  }
}
