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
 * <p>Durability contract: what survives a machine crash (a power loss), not only the death of this
 * process, whose effects the kernel keeps anyway. File content is durable once forced, and a
 * folder's entries (names created or deleted in it) once the folder is forced; a folder force
 * covers every entry change made in that folder before it, whoever made it. When each call returns:
 *
 * <ul>
 *   <li>{@link #createExclusive}: the file's content and name are durable, and so is every folder
 *       the call created; its folder was forced last, so every earlier change there is durable too
 *       ({@link LocalExclusiveCreate}).
 *   <li>{@link #openLog}: a file the call created is durable, empty, with its name and folders (and
 *       its folder's earlier changes); opening an existing file changes nothing. Each {@link
 *       AppendableLog#append} forces its bytes and the file's new length before it returns.
 *   <li>{@link #deleteAll}: the files are gone for every reader, but not forced: until their folder
 *       is, a power loss may bring back any subset of them (file systems that journal directory
 *       operations in order, such as ext4 and XFS, only the newest ones). The Hadoop checksums
 *       deleted with them likewise.
 *   <li>{@link #syncDeletes}: every earlier delete in that folder is durable (no I/O when there is
 *       none unforced).
 * </ul>
 *
 * <p>Besides {@code syncDeletes}, the folders of unforced deletes are forced by a create or a new
 * log in the same folder, and before the first call that changes another folder, any append, and
 * {@link #close} ({@link LocalUnforcedFolders}): so across folders what a power loss keeps follows
 * the order of the calls, and the run journal (in the archive folder) is deleted only once the
 * timeline's deletes are durable. Only the deletes since the last force can come back, and the
 * archiver forces where their order matters (after the pending files, before the completed ones)
 * and lets the journal make the next run finish the rest.
 *
 * <p>One folder force a run of deletes, where forcing after each delete cost a forced write of a
 * large folder per completed instant file (8,000 on a table of 24,000 instant files). On Windows
 * folders cannot be opened to be forced; NTFS journals their changes itself.
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
    if (files.isEmpty()) {
      return;
    }
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

  @Override
  public void syncDeletes(StorageLocation folder) throws IOException {
    unforced.force(path(folder));
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
