package io.timelinearchive.storage.hdfs;

import io.timelinearchive.storage.StorageErrors;
import io.timelinearchive.storage.StorageLocation;
import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.AccessControlException;

/** Hadoop's exceptions, and the NameNode's as the client passes them on, read as the SPI's. */
final class HdfsErrors {
  // Server-side class (hadoop-hdfs), not in the client jar: recognised by its name.
  private static final String RECOVERY_IN_PROGRESS =
      "org.apache.hadoop.hdfs.protocol.RecoveryInProgressException";

  /** Where requests go, and how long they may take: what to check when the NameNode is silent. */
  static final String WHERE =
      "the location's host and port (or hadoop.fs.defaultFS and the HA settings in hdfs-site.xml), "
          + String.join(
              ", ",
              HdfsConfig.CONNECT_TIMEOUT.key(),
              HdfsConfig.REQUEST_TIMEOUT.key(),
              HdfsConfig.CONNECT_RETRIES.key());

  /** Who requests are made as: what to check when HDFS refuses them. */
  static final String WHO =
      "the folder's HDFS permissions and the user the client runs as (HADOOP_USER_NAME, or the"
          + " Kerberos login: kinit, hadoop.security.authentication)";

  private HdfsErrors() {}

  /**
   * {@code e} as the SPI's exception for a NameNode that cannot be reached, when it is one (its
   * host does not resolve, it refuses or drops the connection, or it does not answer in time).
   */
  static IOException unreachableOr(Throwable e, StorageLocation location, IOException otherwise) {
    Throwable network = StorageErrors.networkCause(e);
    return network == null
        ? otherwise
        : StorageErrors.unreachable(location, StorageErrors.describe(network), WHERE, e);
  }

  /** The exception the NameNode raised, when the client left it wrapped. */
  static IOException unwrap(IOException e) {
    if (e instanceof RemoteException remote) {
      return remote.unwrapRemoteException(
          FileNotFoundException.class,
          FileAlreadyExistsException.class,
          AlreadyBeingCreatedException.class,
          AccessControlException.class);
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
    if (cause instanceof AccessControlException) {
      return StorageErrors.accessDenied(
          location, firstLine(cause.getMessage()) + "; check " + WHO, cause);
    }
    return unreachableOr(cause, location, cause);
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

  // The NameNode's messages carry its stack trace after the first line.
  private static String firstLine(String message) {
    if (message == null) {
      return "permission denied";
    }
    int end = message.indexOf('\n');
    return end < 0 ? message : message.substring(0, end);
  }

  /** One line for a per-file failure: the exception's kind and message. */
  static String describe(IOException e) {
    String message = e.getMessage();
    return e.getClass().getSimpleName() + (message == null ? "" : ": " + message);
  }
}
