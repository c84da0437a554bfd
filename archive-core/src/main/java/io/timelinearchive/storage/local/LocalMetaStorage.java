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
 * <p>Durability: every write is forced to disk, and so is every folder whose entries changed,
 * before the call returns, so the order of calls is the order that survives a power loss. When each
 * call returns:
 *
 * <ul>
 *   <li>{@link #createExclusive}: the file's content and its name are on disk, and so is every
 *       folder the call created (each one's entry in its parent); see {@link LocalExclusiveCreate}.
 *   <li>{@link #openLog}: a file the call created, empty, is on disk with its name and folders;
 *       opening an existing file changes nothing. Each {@link AppendableLog#append} forces its
 *       bytes and the file's new length before it returns.
 *   <li>{@link #deleteAll}: every file is gone from disk (its folder forced), and so are the Hadoop
 *       checksums deleted with them: the deletes of one call are durable before the next call
 *       starts.
 * </ul>
 *
 * <p>On Windows folders cannot be opened to be forced; NTFS journals their changes itself.
 */
final class LocalMetaStorage implements MetaStorage {
  static final String SCHEME = "file";

  private final LocalExclusiveCreate exclusiveCreate;

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
    List<FileEntry> entries = new ArrayList<>();
    try (DirectoryStream<Path> children = Files.newDirectoryStream(dir)) {
      for (Path child : children) {
        BasicFileAttributes attributes;
        try {
          attributes = Files.readAttributes(child, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
          continue; // deleted since the folder was read
        }
        if (attributes.isRegularFile()) {
          entries.add(
              new FileEntry(
                  folder.resolve(child.getFileName().toString()),
                  attributes.size(),
                  attributes.lastModifiedTime().toInstant()));
        }
      }
    } catch (NoSuchFileException | NotDirectoryException e) {
      return FileIterator.of(List.of()); // as on an object store: no such folder, no files
    }
    entries.sort(Comparator.comparing(FileEntry::name, Utf8Order.COMPARATOR));
    return FileIterator.of(entries);
  }

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
    exclusiveCreate.create(file, path(file), content);
  }

  @Override
  public boolean supportsAppend() {
    return true;
  }

  @Override
  public Optional<AppendableLog> openLog(StorageLocation file) throws IOException {
    return Optional.of(LocalAppendableLog.open(file, path(file)));
  }

  @Override
  public void deleteAll(Collection<StorageLocation> files) throws IOException {
    // Check every location before deleting any, so a bad one does not leave half a call done.
    Map<StorageLocation, Path> paths = new LinkedHashMap<>();
    for (StorageLocation file : files) {
      paths.put(file, path(file));
    }
    Map<StorageLocation, String> failures = new LinkedHashMap<>();
    Set<Path> changedFolders = new LinkedHashSet<>();
    for (Map.Entry<StorageLocation, Path> entry : paths.entrySet()) {
      try {
        if (Files.deleteIfExists(entry.getValue())) {
          changedFolders.add(entry.getValue().getParent());
        }
      } catch (IOException e) {
        failures.put(entry.getKey(), e.toString());
        continue;
      }
      LocalHadoopChecksums.deleteChecksumOf(entry.getValue(), changedFolders);
    }
    // Callers order their steps by calls (pending files, then completed ones oldest first); the
    // deletes of this call are durable before the next call starts.
    for (Path folder : changedFolders) {
      LocalFolders.force(folder);
    }
    if (!failures.isEmpty()) {
      throw new DeleteFailedException(failures);
    }
  }

  @Override
  public void close() {}

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
