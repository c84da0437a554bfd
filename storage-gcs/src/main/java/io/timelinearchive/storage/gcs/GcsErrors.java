package io.timelinearchive.storage.gcs;

import static java.util.Objects.requireNonNull;

import com.google.cloud.storage.StorageException;
import io.timelinearchive.storage.StorageErrors;
import io.timelinearchive.storage.StorageLocation;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.NoSuchFileException;

/** The JSON API's failures as the JDK exceptions the storage SPI promises. */
final class GcsErrors {
  private GcsErrors() {}

  /** Where requests go, and how long they may take: what to check when GCS does not answer. */
  static final String WHERE =
      String.join(
          ", ",
          GcsConfig.ENDPOINT.key(),
          GcsConfig.CONNECT_TIMEOUT.key(),
          GcsConfig.READ_TIMEOUT.key(),
          GcsConfig.RETRIES.key());

  /** Who requests are made as: what to check when GCS refuses them. */
  static final String WHO =
      GcsConfig.CREDENTIALS_FILE.key()
          + ", "
          + GcsConfig.NO_CREDENTIALS.key()
          + ", or Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS, gcloud auth"
          + " application-default login, the metadata server)";

  /**
   * Maps a failed request to the JDK exception a caller can act on.
   *
   * @param folder 404 on a folder means the bucket is missing (a missing folder lists as empty)
   */
  static IOException translate(
      StorageException e, String what, StorageLocation location, boolean folder) {
    Throwable network = e.getCode() == 0 ? StorageErrors.networkCause(e) : null;
    if (network != null) {
      return StorageErrors.unreachable(
          location, what + ": " + StorageErrors.describe(network), WHERE, e);
    }
    return switch (e.getCode()) {
      case 404 -> StorageErrors.noSuchFile(location, folder ? "bucket does not exist" : null, e);
      case 401, 403 -> StorageErrors.accessDenied(location, e.getMessage() + "; check " + WHO, e);
      case 412 -> StorageErrors.alreadyExists(location, e);
      default -> new IOException("cannot " + what + ": " + describe(e), e);
    };
  }

  /** The status, reason and message of a failure, for messages and logs. */
  static String describe(StorageException e) {
    return e.getCode() == 0
        ? String.valueOf(e.getMessage())
        : e.getCode() + (e.getReason() == null ? "" : " " + e.getReason()) + ": " + e.getMessage();
  }

  /** The service's answer inside {@code t} (the SDK's channels wrap it), or null. */
  static StorageException storageCause(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof StorageException se) {
        return se;
      }
    }
    return null;
  }

  /**
   * {@code in} reporting a missing object as {@link NoSuchFileException}: the SDK's reader sends
   * nothing until the first read, so that is where a 404 surfaces.
   */
  static InputStream translatingReads(InputStream in, StorageLocation file) {
    return new TranslatingInputStream(in, file);
  }

  private static final class TranslatingInputStream extends FilterInputStream {
    private final StorageLocation file;

    TranslatingInputStream(InputStream in, StorageLocation file) {
      super(requireNonNull(in, "in is null"));
      this.file = requireNonNull(file, "file is null");
    }

    @Override
    public int read() throws IOException {
      try {
        return super.read();
      } catch (IOException | StorageException e) {
        throw translateRead(e);
      }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      try {
        return super.read(b, off, len);
      } catch (IOException | StorageException e) {
        throw translateRead(e);
      }
    }

    private IOException translateRead(Exception e) {
      StorageException cause = storageCause(e);
      if (cause != null && cause.getCode() == 404) {
        return translate(cause, "read " + file, file, false);
      }
      if (e instanceof IOException io) {
        return io;
      }
      return new IOException("cannot read " + file + ": " + describe(cause), e);
    }
  }
}
