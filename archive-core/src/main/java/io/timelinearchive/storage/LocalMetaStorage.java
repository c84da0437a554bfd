package io.timelinearchive.storage;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
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
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Files on a local (or locally mounted) file system, {@code file:///path}.
 *
 * <p>Durability: every write is forced to disk, and so is every folder whose entries changed,
 * before the call returns, so the order of calls is the order that survives a power loss.
 */
final class LocalMetaStorage implements MetaStorage {
  static final String SCHEME = "file";
  private static final Logger LOG = LoggerFactory.getLogger(LocalMetaStorage.class);

  // Temporary files of createExclusive: hidden, and never ending in an instant or archive name.
  private static final String TEMP_PREFIX = ".tla-";
  private static final String TEMP_SUFFIX = ".tmp";
  private static final String LOCK_PREFIX = ".tla-lock-";
  static final Duration DEFAULT_LOCK_WAIT = Duration.ofSeconds(10);
  // Windows cannot open a folder to force it; there NTFS journals the folder change itself.
  private static final boolean CAN_FORCE_FOLDERS =
      !System.getProperty("os.name", "").startsWith("Windows");

  private final boolean hardLinks;
  private final Duration lockWait;

  /**
   * @param hardLinks whether createExclusive may use hard links; false forces the fallback for file
   *     systems without them (tests use it to cover that path)
   * @param lockWait how long the fallback waits for another writer of the same name
   */
  LocalMetaStorage(boolean hardLinks, Duration lockWait) {
    this.hardLinks = hardLinks;
    this.lockWait = requireNonNull(lockWait, "lockWait is null");
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
      throw noSuchFile(file, e);
    } catch (java.nio.file.FileSystemException e) {
      throw e;
    } catch (IOException e) {
      // The JDK reports some failures (reading a folder) without the path.
      throw new java.nio.file.FileSystemException(file.toString(), null, e.getMessage());
    }
  }

  @Override
  public InputStream open(StorageLocation file) throws IOException {
    Path path = path(file);
    try {
      return Files.newInputStream(path);
    } catch (NoSuchFileException e) {
      throw noSuchFile(file, e);
    }
  }

  @Override
  public void createExclusive(StorageLocation file, byte[] content) throws IOException {
    requireNonNull(content, "content is null");
    Path target = path(file);
    Path folder = target.getParent();
    createFolders(folder);
    // The content goes to a temporary file first, so the name appears only with all of it.
    Path temp = folder.resolve(TEMP_PREFIX + UUID.randomUUID() + TEMP_SUFFIX);
    try {
      try (FileChannel channel =
          FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        writeFully(channel, content);
        channel.force(true);
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
    forceFolder(folder);
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
      throw alreadyExists(file, e);
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

  @Override
  public boolean supportsAppend() {
    return true;
  }

  @Override
  public Optional<AppendableLog> openLog(StorageLocation file) throws IOException {
    Path path = path(file);
    Path folder = path.getParent();
    createFolders(folder);
    FileChannel channel;
    boolean created;
    try {
      channel =
          FileChannel.open(
              path,
              StandardOpenOption.CREATE_NEW,
              StandardOpenOption.WRITE,
              StandardOpenOption.APPEND);
      created = true;
    } catch (FileAlreadyExistsException e) {
      refuseIfHadoopChecksummed(path);
      channel = FileChannel.open(path, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
      created = false;
    }
    try {
      if (created) {
        channel.force(true);
        forceFolder(folder);
      }
      return Optional.of(new Log(file, channel, channel.size()));
    } catch (IOException | RuntimeException e) {
      closeAfterFailure(channel, e);
      throw e;
    }
  }

  /**
   * Hadoop's local file system, which Hudi uses for {@code file:} tables, keeps a CRC of every file
   * it writes in a hidden {@code .<name>.crc} beside it. Appending leaves that CRC stale, and every
   * Hadoop reader, Hudi's archived timeline included, then refuses the whole file. Hudi never
   * appends on a local disk; the archiver, refused, starts the next archive file as Hudi would.
   */
  private static void refuseIfHadoopChecksummed(Path path) throws FileSystemException {
    Path checksum = hadoopChecksum(path);
    if (Files.exists(checksum, LinkOption.NOFOLLOW_LINKS)) {
      throw new FileSystemException(
          path.toString(),
          checksum.toString(),
          "Hadoop keeps a checksum of this file; appending would make it stale and Hadoop readers"
              + " would refuse the file");
    }
  }

  /**
   * Hadoop's LocalFileSystem deletes a file's checksum with the file. Left behind, the checksums of
   * archived instant files (Hudi writes one per state file) would pile up in {@code .hoodie/} run
   * after run, which archival exists to keep small.
   */
  private static void deleteHadoopChecksum(Path file, Set<Path> changedFolders) {
    Path checksum = hadoopChecksum(file);
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

  private static Path hadoopChecksum(Path file) {
    return file.resolveSibling("." + file.getFileName() + ".crc");
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
      deleteHadoopChecksum(entry.getValue(), changedFolders);
    }
    // Callers order their steps by calls (pending files, then completed ones oldest first); the
    // deletes of this call are durable before the next call starts.
    for (Path folder : changedFolders) {
      forceFolder(folder);
    }
    if (!failures.isEmpty()) {
      throw new DeleteFailedException(failures);
    }
  }

  @Override
  public void close() {}

  private static Path path(StorageLocation location) {
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

  /** Creates the missing folders of {@code folder} and makes their entries durable. */
  private static void createFolders(Path folder) throws IOException {
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
      forceFolder(created.getParent());
      if (created.equals(firstMissing)) {
        break;
      }
    }
  }

  private static void forceFolder(Path folder) throws IOException {
    if (!CAN_FORCE_FOLDERS || folder == null) {
      return;
    }
    try (FileChannel channel = FileChannel.open(folder, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }

  private static void writeFully(FileChannel channel, byte[] bytes) throws IOException {
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    while (buffer.hasRemaining()) {
      channel.write(buffer);
    }
  }

  private static void closeAfterFailure(FileChannel channel, Exception failure) {
    try {
      channel.close();
    } catch (IOException e) {
      failure.addSuppressed(e);
    }
  }

  private static NoSuchFileException noSuchFile(StorageLocation file, NoSuchFileException cause) {
    NoSuchFileException e = new NoSuchFileException(file.toString());
    e.initCause(cause);
    return e;
  }

  private static FileAlreadyExistsException alreadyExists(
      StorageLocation file, FileAlreadyExistsException cause) {
    FileAlreadyExistsException e = new FileAlreadyExistsException(file.toString());
    e.initCause(cause);
    return e;
  }

  private static final class Log implements AppendableLog {
    private final StorageLocation location;
    private final FileChannel channel;
    private long length;

    Log(StorageLocation location, FileChannel channel, long length) {
      this.location = location;
      this.channel = channel;
      this.length = length;
    }

    @Override
    public StorageLocation location() {
      return location;
    }

    @Override
    public long length() {
      return length;
    }

    @Override
    public void append(byte[] bytes) throws IOException {
      requireNonNull(bytes, "bytes is null");
      // The lock makes "still the length we know" and the write one step for every writer that
      // locks (other processes too; within this JVM the second locker gets an
      // OverlappingFileLockException). A writer at a stale length would append after bytes its
      // caller never saw, so it refuses instead.
      FileLock lock;
      try {
        lock = channel.lock();
      } catch (OverlappingFileLockException e) {
        throw new IOException("concurrent append to " + location + " from this process", e);
      }
      try {
        long found = channel.size();
        if (found != length) {
          throw new IOException(
              "concurrent append to "
                  + location
                  + ": this log wrote up to "
                  + length
                  + " bytes but the file has "
                  + found);
        }
        // After a failed write the file ends with a prefix of the bytes; the length check then
        // refuses every later append through this log.
        writeFully(channel, bytes);
        channel.force(true);
        length += bytes.length;
      } finally {
        lock.release();
      }
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }
}
