package io.timelinearchive.storage;

import static java.util.Objects.requireNonNull;

import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;

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
