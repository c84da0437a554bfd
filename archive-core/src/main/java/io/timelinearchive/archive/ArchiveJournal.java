package io.timelinearchive.archive;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import io.timelinearchive.storage.ExclusiveCreate;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.InvalidTableFileException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * Where the current run started writing: the archive file and the byte offset of its first block.
 *
 * <p>Written (exclusively) before the first archive byte and deleted after the last deletion, so a
 * journal found at the start of a run means the previous run stopped in between. Recovery then
 * reads just the entries from that offset on, instead of the whole archive, to learn which active
 * instant files are already archived: those are deleted, never archived twice (invariant 3).
 */
public record ArchiveJournal(String archiveFile, long offset, String owner) {
  public static final String FILE_NAME = ".timeline_archive.journal";

  public ArchiveJournal {
    requireNonNull(archiveFile, "archiveFile is null");
    requireNonNull(owner, "owner is null");
    if (offset < 0) {
      throw new IllegalArgumentException("negative offset " + offset);
    }
  }

  public static StorageLocation location(StorageLocation archiveFolder) {
    return archiveFolder.resolve(FILE_NAME);
  }

  public static Optional<ArchiveJournal> read(MetaStorage storage, StorageLocation archiveFolder)
      throws IOException {
    StorageLocation file = location(archiveFolder);
    byte[] bytes;
    try {
      bytes = storage.read(file);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
    Properties p = new Properties();
    try {
      p.load(new ByteArrayInputStream(bytes));
    } catch (IllegalArgumentException e) {
      throw new InvalidTableFileException(file, e.getMessage(), e);
    }
    String archiveFile = p.getProperty("archiveFile");
    String offset = p.getProperty("offset");
    if (archiveFile == null || offset == null) {
      throw new InvalidTableFileException(
          file,
          "expected archiveFile= and offset= in this run journal, which marks a run that stopped"
              + " before finishing",
          null);
    }
    try {
      return Optional.of(
          new ArchiveJournal(archiveFile, Long.parseLong(offset), p.getProperty("owner", "")));
    } catch (IllegalArgumentException e) {
      throw new InvalidTableFileException(file, e.getMessage(), e);
    }
  }

  public void create(MetaStorage storage, StorageLocation archiveFolder) throws IOException {
    byte[] content =
        ("archiveFile=" + archiveFile + "\noffset=" + offset + "\nowner=" + owner + "\n")
            .getBytes(UTF_8);
    StorageLocation file = location(archiveFolder);
    ExclusiveCreate.create(storage, file, content);
  }

  public static void delete(MetaStorage storage, StorageLocation archiveFolder) throws IOException {
    storage.deleteAll(List.of(location(archiveFolder)));
  }
}
