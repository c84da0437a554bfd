package io.timelinearchive.storage.hdfs;

import io.timelinearchive.storage.StorageErrors;
import io.timelinearchive.storage.StorageLocation;
import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException;
import org.apache.hadoop.ipc.RemoteException;

/** Hadoop's exceptions, and the NameNode's as the client passes them on, read as the SPI's. */
final class HdfsErrors {
  // Server-side class (hadoop-hdfs), not in the client jar: recognised by its name.
  private static final String RECOVERY_IN_PROGRESS =
      "org.apache.hadoop.hdfs.protocol.RecoveryInProgressException";

  private HdfsErrors() {}

  /** The exception the NameNode raised, when the client left it wrapped. */
  static IOException unwrap(IOException e) {
    if (e instanceof RemoteException remote) {
      return remote.unwrapRemoteException(
          FileNotFoundException.class,
          FileAlreadyExistsException.class,
          AlreadyBeingCreatedException.class);
    }
    return e;
  }

  /** Hadoop's exceptions as the JDK subtypes the SPI promises. */
  static IOException translate(IOException e, StorageLocation location) {
    IOException cause = unwrap(e);
    if (cause instanceof FileNotFoundException) {
      return StorageErrors.noSuchFile(location, cause.getMessage(), cause);
    }
    if (cause instanceof FileAlreadyExistsException) {
      return StorageErrors.alreadyExists(location, cause);
    }
    return cause;
  }

  /** Whether {@code e} says that another client holds the file open (or is being taken over). */
  static boolean isLeaseHeld(IOException e) {
    if (e instanceof AlreadyBeingCreatedException) {
      return true;
    }
    if (e instanceof RemoteException remote) {
      return remote.getClassName().equals(AlreadyBeingCreatedException.class.getName())
          || remote.getClassName().equals(RECOVERY_IN_PROGRESS);
    }
    return false;
  }

  /** One line for a per-file failure: the exception's kind and message. */
  static String describe(IOException e) {
    String message = e.getMessage();
    return e.getClass().getSimpleName() + (message == null ? "" : ": " + message);
  }
}
