package io.timelinearchive.storage;

import static java.util.Objects.requireNonNull;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.concurrent.TimeoutException;

/**
 * The JDK exceptions the SPI promises, built the one way every backend builds them: the location as
 * the exception's file (so callers and messages name what the archiver asked for, not a backend's
 * own path or key), an optional reason, and the store's failure kept as the cause. Which of the
 * store's answers means which is each backend's own business.
 */
public final class StorageErrors {
  private StorageErrors() {}

  /** {@code file} does not exist. */
  public static NoSuchFileException noSuchFile(StorageLocation file, Throwable cause) {
    return noSuchFile(file, null, cause);
  }

  /**
   * {@code file} does not exist.
   *
   * @param reason what the store said, or null
   */
  public static NoSuchFileException noSuchFile(
      StorageLocation file, String reason, Throwable cause) {
    return withCause(new NoSuchFileException(name(file), null, reason), cause);
  }

  /** {@code file} exists. */
  public static FileAlreadyExistsException alreadyExists(StorageLocation file, Throwable cause) {
    return alreadyExists(file, null, cause);
  }

  /**
   * {@code file} exists.
   *
   * @param reason what the store said, or null
   */
  public static FileAlreadyExistsException alreadyExists(
      StorageLocation file, String reason, Throwable cause) {
    return withCause(new FileAlreadyExistsException(name(file), null, reason), cause);
  }

  /**
   * The store refused access to {@code file}.
   *
   * @param reason what the store said, or null
   */
  public static AccessDeniedException accessDenied(
      StorageLocation file, String reason, Throwable cause) {
    return withCause(new AccessDeniedException(name(file), null, reason), cause);
  }

  /**
   * The store could not be asked about {@code file}: no route, no answer in time, or no
   * credentials.
   *
   * @param reason what the store or its client said
   * @param check the settings or credential source to check
   */
  public static StorageUnreachableException unreachable(
      StorageLocation file, String reason, String check, Throwable cause) {
    return new StorageUnreachableException(file, reason, check, cause);
  }

  /**
   * The cause in {@code failure}'s chain that says the store could not be reached (its host does
   * not resolve, it refused or reset the connection, or did not answer in time), or null. Clients
   * wrap these in their own exception types, so the chain is searched.
   */
  public static Throwable networkCause(Throwable failure) {
    for (Throwable c = failure; c != null; c = c.getCause()) {
      if (c instanceof UnknownHostException
          || c instanceof ConnectException
          || c instanceof NoRouteToHostException
          || c instanceof SocketTimeoutException
          || c instanceof TimeoutException) {
        return c;
      }
      if (c.getCause() == c) {
        break;
      }
    }
    return null;
  }

  /** One line for a network failure: its kind and message, e.g. {@code ConnectException: ...}. */
  public static String describe(Throwable cause) {
    String message = cause.getMessage();
    return cause.getClass().getSimpleName()
        + (message == null || message.isBlank() ? "" : ": " + message);
  }

  private static String name(StorageLocation file) {
    return requireNonNull(file, "file is null").toString();
  }

  private static <T extends FileSystemException> T withCause(T exception, Throwable cause) {
    if (cause != null) {
      exception.initCause(cause);
    }
    return exception;
  }
}
