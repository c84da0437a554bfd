package io.timelinearchive.storage.local;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import io.timelinearchive.storage.StorageErrors;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code createExclusive} on a local disk. The content goes to a temporary file first, forced, so
 * the name appears only with all of it; the temporary file is then published under the target's
 * name with link(2), atomic and failing when the target exists, or, on file systems without hard
 * links, with a rename under a lock folder. The target's folder is forced last.
 */
final class LocalExclusiveCreate {
  private static final Logger LOG = LoggerFactory.getLogger(LocalExclusiveCreate.class);

  static final Duration DEFAULT_LOCK_WAIT = Duration.ofSeconds(10);

  // Temporary files: hidden, and never ending in an instant or archive name.
  private static final String TEMP_PREFIX = ".tla-";
  private static final String TEMP_SUFFIX = ".tmp";
  private static final String LOCK_PREFIX = ".tla-lock-";

  private final boolean hardLinks;
  private final Duration lockWait;

  /**
   * @param hardLinks whether hard links may be used; false forces the rename fallback
   * @param lockWait how long the fallback waits for another writer of the same name
   */
  LocalExclusiveCreate(boolean hardLinks, Duration lockWait) {
    this.hardLinks = hardLinks;
    this.lockWait = requireNonNull(lockWait, "lockWait is null");
  }

  /** Creates {@code target}, the path of {@code file}, holding {@code content}. */
  void create(StorageLocation file, Path target, byte[] content) throws IOException {
    Path folder = target.getParent();
    LocalFolders.create(folder);
    Path temp = folder.resolve(TEMP_PREFIX + UUID.randomUUID() + TEMP_SUFFIX);
    FileChannel created;
    try {
      created = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    } catch (FileSystemException e) {
      // The temporary file is ours, not the caller's: name what they asked for and its folder.
      // EACCES comes as AccessDeniedException, EPERM (immutable) and EROFS as the base class.
      if (e instanceof AccessDeniedException || e.getClass() == FileSystemException.class) {
        throw StorageErrors.accessDenied(
            file,
            "the folder "
                + folder
                + " is not writable"
                + (e.getReason() == null ? "" : ": " + e.getReason()),
            e);
      }
      throw e;
    }
    try {
      try (FileChannel channel = created) {
        LocalChannels.writeAndForce(channel, content);
      }
      if (!hardLinks || !linkExclusive(target, temp, file)) {
        renameExclusive(target, temp, file);
      }
    } catch (Throwable failure) {
      try {
        Files.deleteIfExists(temp);
      } catch (IOException e) {
        failure.addSuppressed(e);
      }
      throw failure;
    }
    try {
      Files.deleteIfExists(temp); // after a link; a rename left nothing
    } catch (IOException e) {
      // The file is created; failing the call now would tell the caller the opposite.
      LOG.warn("created {} but could not delete the temporary file {}", file, temp, e);
    }
    LocalFolders.force(folder);
  }

  /**
   * Publishes {@code temp} as {@code target}: link(2) is atomic and fails if the target exists.
   *
   * @return false if this file system has no hard links
   */
  private static boolean linkExclusive(Path target, Path temp, StorageLocation file)
      throws IOException {
    try {
      Files.createLink(target, temp);
      return true;
    } catch (FileAlreadyExistsException e) {
      throw StorageErrors.alreadyExists(file, e);
    } catch (UnsupportedOperationException e) {
      return false;
    } catch (FileSystemException e) {
      // EPERM/ENOTSUP (FAT, exFAT, some FUSE and SMB mounts) come as a plain
      // FileSystemException; the JDK maps the errors that mean something else (EEXIST, EACCES,
      // ENOENT) to subclasses, which we pass on.
      if (e.getClass() != FileSystemException.class) {
        throw e;
      }
      return false;
    }
  }

  /**
   * Publishes {@code temp} as {@code target} on a file system without hard links. rename(2) is
   * atomic for readers but replaces an existing target, so writers of one name take turns: each
   * holds a lock folder (mkdir is atomic and exclusive on every file system) while it checks that
   * the target is missing and renames. The lock is held for two system calls; a writer that died
   * holding it leaves it behind, and later writers give up after a while naming the folder to
   * remove, rather than guess that its owner is gone.
   */
  private void renameExclusive(Path target, Path temp, StorageLocation file) throws IOException {
    Path lock =
        target.resolveSibling(LOCK_PREFIX + UUID.nameUUIDFromBytes(file.path().getBytes(UTF_8)));
    acquire(lock, file);
    try {
      if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
        throw new FileAlreadyExistsException(file.toString());
      }
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.delete(lock);
    }
  }

  private void acquire(Path lock, StorageLocation file) throws IOException {
    long start = System.nanoTime();
    long pauseMillis = 1;
    while (true) {
      try {
        Files.createDirectory(lock);
        return;
      } catch (FileAlreadyExistsException e) {
        if (System.nanoTime() - start > lockWait.toNanos()) {
          throw new IOException(
              "cannot create "
                  + file
                  + ": another writer has held "
                  + lock
                  + " for "
                  + lockWait
                  + "; if no writer is running, a crashed one left it: delete that folder",
              e);
        }
      }
      try {
        Thread.sleep(pauseMillis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while waiting to create " + file, e);
      }
      pauseMillis = Math.min(pauseMillis * 2, 50);
    }
  }
}
