package io.timelinearchive.storage.local;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Living beside Hadoop's local file system, which Hudi uses for {@code file:} tables: it keeps a
 * CRC of every file it writes in a hidden {@code .<name>.crc} beside it, and deletes the CRC with
 * the file.
 */
final class LocalHadoopChecksums {
  private static final Logger LOG = LoggerFactory.getLogger(LocalHadoopChecksums.class);

  private LocalHadoopChecksums() {}

  /**
   * Refuses to append to a file Hadoop keeps a checksum of. Appending leaves that CRC stale, and
   * every Hadoop reader, Hudi's archived timeline included, then refuses the whole file. Hudi never
   * appends on a local disk; the archiver, refused, starts the next archive file as Hudi would.
   */
  static void refuseAppend(Path path) throws FileSystemException {
    Path checksum = checksumOf(path);
    if (Files.exists(checksum, LinkOption.NOFOLLOW_LINKS)) {
      throw new FileSystemException(
          path.toString(),
          checksum.toString(),
          "Hadoop keeps a checksum of this file; appending would make it stale and Hadoop readers"
              + " would refuse the file");
    }
  }

  /**
   * Deletes the checksum of the deleted {@code file}, adding its folder to {@code changedFolders}
   * if there was one. Left behind, the checksums of archived instant files (Hudi writes one per
   * state file) would pile up in {@code .hoodie/} run after run, which archival exists to keep
   * small.
   */
  static void deleteChecksumOf(Path file, Set<Path> changedFolders) {
    Path checksum = checksumOf(file);
    try {
      if (Files.deleteIfExists(checksum)) {
        changedFolders.add(checksum.getParent());
      }
    } catch (IOException e) {
      // the file itself is gone, which is what the caller asked for
      LOG.warn(
          "cannot delete {}, Hadoop's checksum of the deleted {}: {}",
          checksum,
          file,
          e.toString());
    }
  }

  private static Path checksumOf(Path file) {
    return file.resolveSibling("." + file.getFileName() + ".crc");
  }
}
