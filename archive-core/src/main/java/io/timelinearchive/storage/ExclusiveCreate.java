package io.timelinearchive.storage;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.util.Arrays;

/**
 * {@link MetaStorage#createExclusive} with its unknown outcome settled the way the SPI asks: a
 * retried create that cannot tell whether it landed reads the file back; the same bytes mean this
 * call wrote it.
 */
public final class ExclusiveCreate {
  private ExclusiveCreate() {}

  /**
   * @throws FileAlreadyExistsException if the file holds someone else's content
   */
  public static void create(MetaStorage storage, StorageLocation file, byte[] content)
      throws IOException {
    try {
      storage.createExclusive(file, content);
    } catch (OutcomeUnknownException e) {
      byte[] found;
      try {
        found = storage.read(file);
      } catch (java.nio.file.NoSuchFileException absent) {
        // The create did not land: the store's failure is the error to report, not the absence.
        e.addSuppressed(absent);
        throw e;
      }
      if (!Arrays.equals(found, content)) {
        FileAlreadyExistsException other =
            new FileAlreadyExistsException(
                file.toString(), null, "written by someone else meanwhile; left as it is");
        other.initCause(e);
        throw other;
      }
    }
  }
}
