package io.timelinearchive.storage.local;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Folders whose entries are durable: a file's name survives a power loss only once its folder is
 * forced, and a new folder's name only once its parent is.
 */
final class LocalFolders {
  // Windows cannot open a folder to force it; there NTFS journals the folder change itself.
  private static final boolean CAN_FORCE_FOLDERS =
      !System.getProperty("os.name", "").startsWith("Windows");

  private LocalFolders() {}

  /** Creates the missing folders of {@code folder} and makes their entries durable. */
  static void create(Path folder) throws IOException {
    if (Files.isDirectory(folder)) {
      return;
    }
    Path firstMissing = folder;
    while (firstMissing.getParent() != null && !Files.exists(firstMissing.getParent())) {
      firstMissing = firstMissing.getParent();
    }
    try {
      Files.createDirectories(folder);
    } catch (FileAlreadyExistsException e) {
      // a file stands where a folder should be; not "the target exists"
      NotDirectoryException notFolder = new NotDirectoryException(e.getFile());
      notFolder.initCause(e);
      throw notFolder;
    }
    for (Path created = folder; ; created = created.getParent()) {
      force(created.getParent());
      if (created.equals(firstMissing)) {
        break;
      }
    }
  }

  /** Forces {@code folder}'s entries to disk; nothing for null (the root's parent). */
  static void force(Path folder) throws IOException {
    if (!CAN_FORCE_FOLDERS || folder == null) {
      return;
    }
    try (FileChannel channel = FileChannel.open(folder, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }
}
