package io.timelinearchive.archive;

import io.timelinearchive.storage.DeleteFailedException;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageErrors;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.util.List;

/**
 * Makes sure the run can delete in {@code .hoodie/} before it writes an archive file: a run that
 * cannot would archive every selected instant, fail every delete, and do it again on each re-run,
 * leaving duplicates in the archive each time. The store is asked by doing it: a hidden empty file
 * is created and deleted (two requests on object stores, and only on runs that archive something),
 * since permissions alone do not tell (root writes anywhere; object store policies are per key).
 * Readers of the timeline, ours and Hudi's, skip the name, which is no instant's. The name is fixed
 * (the run holds the archive lock), so a probe a crash or power loss left behind is the one the
 * next run finds and removes, not an orphan with a name of its own.
 */
final class MetaFolderWriteCheck {
  private static final String PROBE = ".timeline-archive-write-check";

  private MetaFolderWriteCheck() {}

  /**
   * @throws AccessDeniedException naming {@code metaFolder} when a file cannot be created or
   *     deleted there
   */
  static void check(MetaStorage storage, StorageLocation metaFolder) throws IOException {
    StorageLocation probe = metaFolder.resolve(PROBE);
    try {
      storage.createExclusive(probe, new byte[0]);
    } catch (FileAlreadyExistsException leftBehind) {
      // an earlier run died between the two steps: creating there has worked before
    } catch (FileSystemException e) {
      // Access denied, or a read-only or immutable folder (EROFS, EPERM); not a store that is
      // unreachable, which is no FileSystemException and passes as it is.
      throw denied(metaFolder, "cannot create a file there", e);
    }
    try {
      storage.deleteAll(List.of(probe));
    } catch (DeleteFailedException e) {
      throw denied(metaFolder, "cannot delete a file there (left behind: " + probe + ")", e);
    }
  }

  private static AccessDeniedException denied(
      StorageLocation metaFolder, String what, IOException cause) {
    return StorageErrors.accessDenied(
        metaFolder,
        what
            + ", so the instants archived could not be removed from the active timeline; no"
            + " archive file was written: make the folder writable and run again",
        cause);
  }
}
