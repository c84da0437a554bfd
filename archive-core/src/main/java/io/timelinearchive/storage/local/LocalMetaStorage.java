package io.timelinearchive.storage.local;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.storage.AppendableLog;
import io.timelinearchive.storage.DeleteFailedException;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.FileIterator;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageErrors;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.Utf8Order;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Files on a local (or locally mounted) file system, {@code file:///path}.
 *
 * <p>Durability contract. File content is forced to disk before a call that wrote it returns. A
 * folder's entries (names created and deleted) are made durable in one of two ways: a create forces
 * its folder before it returns; a delete is not forced, because within one folder the file system
 * makes directory operations durable in the order they were made, whoever made them (so do the
 * journaling file systems this runs on: ext4, XFS, Btrfs, ZFS, APFS, NTFS), and the first operation
 * of this storage in another folder, any create, any append and {@link #close} force the folders
 * with unforced deletes first ({@link LocalUnforcedFolders}). What survives a power loss is
 * therefore the calls in the order they returned, up to some point, with at most a trailing run of
 * deletes in one folder lost. That is all the archive protocol needs: the deletes of completed
 * instants, oldest first, lose only their newest ones, which the run journal (in another folder, so
 * deleted only after they were forced) makes the next run delete again. When each call returns:
 *
 * <ul>
 *   <li>{@link #createExclusive}: the file's content and its name are on disk, and so is every
 *       folder the call created (each one's entry in its parent); see {@link LocalExclusiveCreate}.
 *   <li>{@link #openLog}: a file the call created, empty, is on disk with its name and folders;
 *       opening an existing file changes nothing. Each {@link AppendableLog#append} forces its
 *       bytes and the file's new length before it returns.
 *   <li>{@link #deleteAll}: every file is gone for every reader, and gone from disk in the order
 *       above; the Hadoop checksums deleted with them likewise.
 * </ul>
 *
 * <p>One forced folder a run of deletes, where forcing after each delete cost a forced write per
 * completed instant file (33,000 for 100,000 files). On Windows folders cannot be opened to be
 * forced; NTFS journals their changes itself.
 */
final class LocalMetaStorage implements MetaStorage {
  static final String SCHEME = "file";

  private final LocalExclusiveCreate exclusiveCreate;
  private final LocalUnforcedFolders unforced = new LocalUnforcedFolders();

  /**
   * @param hardLinks whether createExclusive may use hard links; false forces the fallback for file
   *     systems without them (tests use it to cover that path)
   * @param lockWait how long the fallback waits for another writer of the same name
   */
  LocalMetaStorage(boolean hardLinks, Duration lockWait) {
    this.exclusiveCreate = new LocalExclusiveCreate(hardLinks, lockWait);
  }

  @Override
  public FileIterator list(StorageLocation folder) throws IOException {
    Path dir = path(folder);
    List<Named> entries = new ArrayList<>();
    try (DirectoryStream<Path> children = Files.newDirectoryStream(dir)) {
      for (Path child : children) {
        BasicFileAttributes attributes;
        try {
          attributes = Files.readAttributes(child, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
          continue; // deleted since the folder was read
        }
        if (attributes.isRegularFile()) {
          String name = child.getFileName().toString();
          entries.add(
              new Named(
                  name,
                  new FileEntry(
                      folder.resolve(name),
                      attributes.size(),
                      attributes.lastModifiedTime().toInstant())));
        }
      }
    } catch (NoSuchFileException | NotDirectoryException e) {
      return FileIterator.of(List.of()); // as on an object store: no such folder, no files
    }
    entries.sort(Comparator.comparing(Named::name, Utf8Order.COMPARATOR));
    return FileIterator.of(entries.stream().map(Named::entry).toList());
  }

  @Override
  public List<StorageLocation> listFolders(StorageLocation folder) throws IOException {
    Path dir = path(folder);
    List<String> names = new ArrayList<>();
    try (DirectoryStream<Path> children = Files.newDirectoryStream(dir, Files::isDirectory)) {
      for (Path child : children) {
        names.add(child.getFileName().toString());
      }
    } catch (NoSuchFileException | NotDirectoryException e) {
      return List.of();
    }
    names.sort(Utf8Order.COMPARATOR);
    return names.stream().map(folder::resolve).toList();
  }

  // Sorted by the name read from the folder: deriving it from each entry's location per comparison
  // was a tenth of listing a large timeline.
  private record Named(String name, FileEntry entry) {}

  @Override
  public byte[] read(StorageLocation file) throws IOException {
    Path path = path(file);
    try {
      return Files.readAllBytes(path);
    } catch (NoSuchFileException e) {
      throw StorageErrors.noSuchFile(file, e);
    } catch (FileSystemException e) {
      throw e;
    } catch (IOException e) {
      // The JDK reports some failures (reading a folder) without the path.
      throw new FileSystemException(file.toString(), null, e.getMessage());
    }
  }

  @Override
  public InputStream open(StorageLocation file) throws IOException {
    Path path = path(file);
    try {
      return Files.newInputStream(path);
    } catch (NoSuchFileException e) {
      throw StorageErrors.noSuchFile(file, e);
    }
  }

  @Override
  public void createExclusive(StorageLocation file, byte[] content) throws IOException {
    requireNonNull(content, "content is null");
    Path target = path(file);
    unforced.forceAllBut(List.of(target.getParent()));
    exclusiveCreate.create(file, target, content);
    unforced.forced(target.getParent());
  }

  @Override
  public boolean supportsAppend() {
    return true;
  }

  @Override
  public Optional<AppendableLog> openLog(StorageLocation file) throws IOException {
    Path target = path(file);
    unforced.forceAllBut(List.of(target.getParent()));
    return Optional.of(LocalAppendableLog.open(file, target, unforced));
  }

  @Override
  public void deleteAll(Collection<StorageLocation> files) throws IOException {
    // Check every location before deleting any, so a bad one does not leave half a call done.
    Map<StorageLocation, Path> paths = new LinkedHashMap<>();
    for (StorageLocation file : files) {
      paths.put(file, path(file));
    }
    Set<Path> folders = new LinkedHashSet<>();
    paths.values().forEach(p -> folders.add(p.getParent()));
    unforced.forceAllBut(folders);
    Map<StorageLocation, String> failures = new LinkedHashMap<>();
    Set<Path> changedFolders = new LinkedHashSet<>(folders);
    for (Map.Entry<StorageLocation, Path> entry : paths.entrySet()) {
      try {
        // A file already gone still leaves its folder to force: another process may have deleted
        // it without forcing, and this call's caller goes on as if that delete were durable.
        Files.deleteIfExists(entry.getValue());
      } catch (IOException e) {
        failures.put(entry.getKey(), e.toString());
        continue;
      }
      LocalHadoopChecksums.deleteChecksumOf(entry.getValue(), changedFolders);
    }
    unforced.add(changedFolders);
    if (!failures.isEmpty()) {
      throw new DeleteFailedException(failures);
    }
  }

  /** Forces the folders of the deletes not forced yet. */
  @Override
  public void close() throws IOException {
    unforced.forceAll();
  }

  /**
   * The path of a {@code file} location.
   *
   * @throws IllegalArgumentException for another scheme, an authority, or a name this file system
   *     cannot hold
   */
  static Path path(StorageLocation location) {
    if (!location.scheme().equals(SCHEME)) {
      throw new IllegalArgumentException("not a file location: " + location);
    }
    if (!location.authority().isEmpty()) {
      throw new IllegalArgumentException(
          "a file location has no authority (write file:///path): " + location);
    }
    try {
      return Path.of("/" + location.path());
    } catch (InvalidPathException e) {
      // Java encodes file names with the locale's charset: under LANG=C no name beyond ASCII.
      String encoding = System.getProperty("sun.jnu.encoding", "");
      throw new IllegalArgumentException(
          "the file system cannot name "
              + location
              + ": "
              + e.getReason()
              + (encoding.equalsIgnoreCase("UTF-8")
                  ? ""
                  : "; the JVM encodes file names as "
                      + encoding
                      + ", run it with a UTF-8 locale (e.g. LANG=C.UTF-8)"),
          e);
    }
  }
}
