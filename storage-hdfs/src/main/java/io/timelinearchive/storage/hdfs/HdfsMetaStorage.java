package io.timelinearchive.storage.hdfs;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.storage.AppendableLog;
import io.timelinearchive.storage.DeleteFailedException;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.FileIterator;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.OutcomeUnknownException;
import io.timelinearchive.storage.StorageErrors;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.Utf8Order;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LeaseRecoverable;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException;
import org.apache.hadoop.ipc.RemoteException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link MetaStorage} on one Hadoop {@link FileSystem} (HDFS, viewfs, or another Hadoop scheme).
 *
 * <p>Owns its own FileSystem instance (not Hadoop's shared cache), so closing this storage closes
 * nothing another user holds. Renames go through {@link FileContext}, whose rename without
 * overwrite fails when the target exists; {@code FileSystem.rename} returns false on HDFS but
 * overwrites on local disks, so it is never used.
 */
final class HdfsMetaStorage implements MetaStorage {
  private static final Logger LOG = LoggerFactory.getLogger(HdfsMetaStorage.class);

  /** Names of files being written by {@link #createExclusive}; listings leave them out. */
  static final String TEMP_PREFIX = ".timeline-archive-tmp-";

  // Server-side class (hadoop-hdfs), not in the client jar: recognised by its name.
  private static final String RECOVERY_IN_PROGRESS =
      "org.apache.hadoop.hdfs.protocol.RecoveryInProgressException";
  private static final Duration LEASE_POLL_INTERVAL = Duration.ofMillis(250);

  private static final Comparator<FileEntry> BY_NAME =
      Comparator.comparing(FileEntry::name, Utf8Order.COMPARATOR);

  private final StorageLocation root;
  private final HdfsConfig settings;
  private final Configuration conf;
  private final FileSystem fs;
  private final FileContext fileContext;
  private final boolean supportsAppend;
  private final Set<Path> openLogs = ConcurrentHashMap.newKeySet();

  private HdfsMetaStorage(
      StorageLocation root,
      HdfsConfig settings,
      Configuration conf,
      FileSystem fs,
      FileContext fileContext,
      boolean supportsAppend) {
    this.root = requireNonNull(root, "root is null");
    this.settings = requireNonNull(settings, "settings is null");
    this.conf = requireNonNull(conf, "conf is null");
    this.fs = requireNonNull(fs, "fs is null");
    this.fileContext = requireNonNull(fileContext, "fileContext is null");
    this.supportsAppend = supportsAppend;
  }

  static HdfsMetaStorage open(StorageLocation root, HdfsConfig settings) throws IOException {
    Configuration conf = settings.toConfiguration();
    URI uri = URI.create(root.scheme() + "://" + root.authority() + "/");
    long start = System.nanoTime();
    FileSystem fs = FileSystem.newInstance(uri, conf);
    try {
      FileContext fileContext = FileContext.getFileContext(fs.getUri(), conf);
      LOG.debug(
          "opened {} for {} in {} ms",
          fs.getClass().getSimpleName(),
          root,
          (System.nanoTime() - start) / 1_000_000);
      return new HdfsMetaStorage(
          root, settings, conf, fs, fileContext, appends(fs, new Path("/" + root.path())));
    } catch (IOException | RuntimeException e) {
      closeQuietly(fs, e);
      throw e;
    }
  }

  /**
   * Whether the file system below {@code root} has append whose streams hsync. Path capabilities
   * are answered from the client's own knowledge (a viewfs resolves its mount table), without a
   * request to the NameNode. Hadoop's local file systems fail it: the checksummed one cannot
   * append, and RawLocalFileSystem appends through a buffered stream whose hsync only flushes to
   * the operating system (Hadoop 3.5.0), so its bytes would not survive a power loss.
   */
  private static boolean appends(FileSystem fs, Path root) throws IOException {
    return fs.hasPathCapability(root, CommonPathCapabilities.FS_APPEND)
        && !(fs instanceof RawLocalFileSystem);
  }

  @Override
  public boolean supportsAppend() {
    return supportsAppend;
  }

  @Override
  public FileIterator list(StorageLocation folder) throws IOException {
    Path dir = path(folder);
    List<FileEntry> files = new ArrayList<>();
    try {
      RemoteIterator<FileStatus> statuses = fs.listStatusIterator(dir);
      while (statuses.hasNext()) {
        FileStatus status = statuses.next();
        String name = status.getPath().getName();
        // Listing a file yields the file itself, which is no child of the folder.
        boolean child =
            dir.equals(Path.getPathWithoutSchemeAndAuthority(status.getPath()).getParent());
        if (status.isFile() && child && !name.startsWith(TEMP_PREFIX)) {
          files.add(
              new FileEntry(
                  folder.resolve(name),
                  status.getLen(),
                  Instant.ofEpochMilli(status.getModificationTime())));
        }
      }
    } catch (FileNotFoundException e) {
      return FileIterator.of(List.of());
    } catch (IOException e) {
      throw translate(e, folder);
    }
    // HDFS happens to list in byte order, but no FileSystem promises any order.
    files.sort(BY_NAME);
    return FileIterator.of(files);
  }

  @Override
  public byte[] read(StorageLocation file) throws IOException {
    Path path = path(file);
    try (FSDataInputStream in = fs.open(path)) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw translate(e, file);
    }
  }

  @Override
  public InputStream open(StorageLocation file) throws IOException {
    Path path = path(file);
    try {
      return fs.open(path);
    } catch (IOException e) {
      throw translate(e, file);
    }
  }

  @Override
  public void createExclusive(StorageLocation file, byte[] content) throws IOException {
    requireNonNull(content, "content is null");
    Path target = path(file);
    // The content goes to a name no reader looks for; only the rename makes it visible, whole.
    // The name does not grow with the target's, so targets may use the longest name allowed.
    Path temp = new Path(target.getParent(), TEMP_PREFIX + UUID.randomUUID());
    try (FSDataOutputStream out = fs.create(temp, false)) {
      out.write(content);
      // close() alone leaves the bytes in the DataNodes' page cache.
      out.hsync();
    } catch (IOException e) {
      deleteQuietly(temp, e);
      throw translate(e, file);
    }

    try {
      fileContext.rename(temp, target, Options.Rename.NONE);
    } catch (IOException e) {
      IOException cause = unwrap(e);
      if (cause instanceof org.apache.hadoop.fs.FileAlreadyExistsException) {
        deleteQuietly(temp, e);
        throw StorageErrors.alreadyExists(file, cause);
      }
      // The rename may have happened before the call failed (a lost reply). Nobody else knows the
      // temporary name, so its being gone and the target there tells that this call created it.
      boolean renamed;
      try {
        renamed = !fs.exists(temp) && fs.exists(target);
      } catch (IOException probe) {
        e.addSuppressed(probe);
        throw new OutcomeUnknownException(
            "cannot tell whether " + file + " was created: the rename failed and so did the check",
            e);
      }
      if (renamed) {
        LOG.debug("rename to {} failed but took effect", file, e);
        return;
      }
      deleteQuietly(temp, e);
      throw translate(cause, file);
    }
  }

  @Override
  public Optional<AppendableLog> openLog(StorageLocation file) throws IOException {
    Path path = path(file);
    if (!supportsAppend) {
      return Optional.empty();
    }
    try {
      if (!fs.hasPathCapability(path, CommonPathCapabilities.FS_APPEND)) {
        return Optional.empty();
      }
    } catch (IOException e) {
      throw translate(e, file);
    }
    // The lease belongs to the client, shared by every log of this storage: a second log on one
    // file would recover the lease from the first. Two logs of one archiver are a mistake anyway.
    if (!openLogs.add(path)) {
      throw new IOException("a log on " + file + " is already open on this storage");
    }
    boolean opened = false;
    try {
      Optional<AppendableLog> log = openAppending(path, file);
      opened = log.isPresent();
      return log;
    } finally {
      if (!opened) {
        openLogs.remove(path);
      }
    }
  }

  private Optional<AppendableLog> openAppending(Path path, StorageLocation file)
      throws IOException {
    boolean created = false;
    FSDataOutputStream out;
    try {
      out = fs.append(path);
    } catch (FileNotFoundException missing) {
      // Created empty and appended to, rather than written through the stream of create: some
      // FileSystems (RawLocalFileSystem) hsync the streams of create but not those of append,
      // and whether a store offers logs must not depend on whether the file existed.
      try {
        fs.create(path, false).close();
        created = true;
      } catch (org.apache.hadoop.fs.FileAlreadyExistsException raced) {
        // another writer created it first; append to theirs
      } catch (IOException e) {
        throw translate(e, file);
      }
      out = appendRecoveringLease(path, file);
    } catch (IOException e) {
      if (!isLeaseHeld(e)) {
        throw translate(e, file);
      }
      out = recoverLeaseAndAppend(path, file, e);
    }

    // Without hsync the bytes would not be durable when append returns; such a store is one
    // without real append, and the archiver writes each run as a new file instead.
    if (!out.hasCapability(StreamCapabilities.HSYNC)) {
      LOG.debug("{} does not hsync its output streams: no append log on it", fs.getUri());
      try {
        out.close();
        if (created) {
          fs.delete(path, false);
        }
      } catch (IOException e) {
        throw translate(e, file);
      }
      return Optional.empty();
    }
    return Optional.of(
        new HdfsAppendableLog(file, path, fs, out, out.getPos(), () -> openLogs.remove(path)));
  }

  @Override
  public void deleteAll(Collection<StorageLocation> files) throws IOException {
    Map<StorageLocation, Path> paths = new LinkedHashMap<>();
    for (StorageLocation file : files) {
      paths.put(file, path(file));
    }
    Map<StorageLocation, String> failures = new LinkedHashMap<>();
    paths.forEach(
        (file, path) -> {
          try {
            fs.delete(path, false); // false: it was missing, which is fine
          } catch (IOException e) {
            failures.put(file, describe(unwrap(e)));
          }
        });
    if (!failures.isEmpty()) {
      throw new DeleteFailedException(failures);
    }
  }

  @Override
  public void close() throws IOException {
    fs.close();
  }

  @Override
  public String toString() {
    return "HdfsMetaStorage[" + root + ", " + settings + "]";
  }

  private FSDataOutputStream appendRecoveringLease(Path path, StorageLocation file)
      throws IOException {
    try {
      return fs.append(path);
    } catch (IOException e) {
      if (!isLeaseHeld(e)) {
        throw translate(e, file);
      }
      return recoverLeaseAndAppend(path, file, e);
    }
  }

  /**
   * Another client holds the file open (a live writer, or one that died within the last minute).
   * With the archive lock held that writer is a stale archiver, so its lease is taken over as the
   * HDFS docs describe for crashed writers: recover the lease, wait for the file to be closed,
   * append again. If that does not finish in time the caller rolls over to a new file.
   */
  private FSDataOutputStream recoverLeaseAndAppend(
      Path path, StorageLocation file, IOException leaseHeld) throws IOException {
    Optional<LeaseTarget> target = leaseTarget(path);
    if (target.isEmpty()) {
      throw new IOException(
          "cannot append to " + file + ": another writer holds it open", unwrap(leaseHeld));
    }
    Duration timeout = settings.leaseRecoveryTimeout();
    LOG.warn("{} is held open by another writer; recovering its lease", file);
    boolean closed;
    try {
      closed = awaitLeaseRecovery(target.get().fs(), target.get().path(), timeout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      InterruptedIOException interrupted =
          new InterruptedIOException("interrupted while recovering the lease of " + file);
      interrupted.initCause(e);
      throw interrupted;
    } catch (IOException e) {
      throw translate(e, file);
    }
    if (!closed) {
      throw new IOException(
          "cannot append to "
              + file
              + ": another writer held it open and recovering its lease took longer than "
              + HdfsConfig.LEASE_RECOVERY_TIMEOUT.formatted(timeout)
              + " ("
              + HdfsConfig.LEASE_RECOVERY_TIMEOUT.key()
              + "); write to a new file",
          unwrap(leaseHeld));
    }
    LOG.info("recovered the lease of {}", file);
    try {
      return fs.append(path);
    } catch (IOException e) {
      throw translate(e, file);
    }
  }

  private static boolean awaitLeaseRecovery(
      LeaseRecoverable recoverable, Path path, Duration timeout)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    boolean closed = recoverable.recoverLease(path);
    while (!closed && deadline - System.nanoTime() > 0) {
      long leftMillis = (deadline - System.nanoTime()) / 1_000_000;
      Thread.sleep(Math.max(1, Math.min(LEASE_POLL_INTERVAL.toMillis(), leftMillis)));
      closed = recoverable.isFileClosed(path);
    }
    return closed;
  }

  private record LeaseTarget(LeaseRecoverable fs, Path path) {}

  /**
   * Who can recover a lease on {@code path}: HDFS itself, or for viewfs the HDFS a mount point
   * leads to. That FileSystem comes from Hadoop's shared cache and is not ours to close.
   */
  private Optional<LeaseTarget> leaseTarget(Path path) throws IOException {
    if (fs instanceof LeaseRecoverable recoverable) {
      return Optional.of(new LeaseTarget(recoverable, path));
    }
    Path resolved = fs.resolvePath(path);
    if (resolved.toUri().getScheme() == null
        || resolved.toUri().getScheme().equals(fs.getUri().getScheme())) {
      return Optional.empty();
    }
    FileSystem target = resolved.getFileSystem(conf);
    if (target instanceof LeaseRecoverable recoverable) {
      return Optional.of(new LeaseTarget(recoverable, resolved));
    }
    return Optional.empty();
  }

  private static boolean isLeaseHeld(IOException e) {
    if (e instanceof AlreadyBeingCreatedException) {
      return true;
    }
    if (e instanceof RemoteException remote) {
      return remote.getClassName().equals(AlreadyBeingCreatedException.class.getName())
          || remote.getClassName().equals(RECOVERY_IN_PROGRESS);
    }
    return false;
  }

  private Path path(StorageLocation location) {
    requireNonNull(location, "location is null");
    if (!location.scheme().equals(root.scheme())
        || !location.authority().equals(root.authority())) {
      throw new IllegalArgumentException(
          location + " is not on this storage (" + root.scheme() + "://" + root.authority() + ")");
    }
    return new Path("/" + location.path());
  }

  /** The exception the NameNode raised, when the client left it wrapped. */
  static IOException unwrap(IOException e) {
    if (e instanceof RemoteException remote) {
      return remote.unwrapRemoteException(
          FileNotFoundException.class,
          org.apache.hadoop.fs.FileAlreadyExistsException.class,
          AlreadyBeingCreatedException.class);
    }
    return e;
  }

  /** Hadoop's exceptions as the JDK subtypes the SPI promises. */
  static IOException translate(IOException e, StorageLocation location) {
    IOException cause = unwrap(e);
    if (cause instanceof FileNotFoundException) {
      return StorageErrors.noSuchFile(location, cause.getMessage(), cause);
    }
    if (cause instanceof org.apache.hadoop.fs.FileAlreadyExistsException) {
      return StorageErrors.alreadyExists(location, cause);
    }
    return cause;
  }

  private static String describe(IOException e) {
    String message = e.getMessage();
    return e.getClass().getSimpleName() + (message == null ? "" : ": " + message);
  }

  private void deleteQuietly(Path path, Exception failure) {
    try {
      fs.delete(path, false);
    } catch (IOException e) {
      failure.addSuppressed(e);
    }
  }

  private static void closeQuietly(FileSystem fs, Exception failure) {
    try {
      fs.close();
    } catch (IOException e) {
      failure.addSuppressed(e);
    }
  }
}
