package io.timelinearchive.storage.hdfs;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.storage.AppendableLog;
import io.timelinearchive.storage.DeleteFailedException;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.FileIterator;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.Utf8Order;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.StreamCapabilities;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link MetaStorage} on one Hadoop {@link FileSystem} (HDFS, viewfs, or another Hadoop scheme):
 * listing, reading, deleting and opening logs here; exclusive create in {@link
 * HdfsExclusiveCreate}, taking over a file another writer left open in {@link HdfsLeaseRecovery}.
 *
 * <p>Owns its own FileSystem instance (not Hadoop's shared cache), so closing this storage closes
 * nothing another user holds.
 */
final class HdfsMetaStorage implements MetaStorage {
  private static final Logger LOG = LoggerFactory.getLogger(HdfsMetaStorage.class);

  private static final Comparator<FileEntry> BY_NAME =
      Comparator.comparing(FileEntry::name, Utf8Order.COMPARATOR);

  private final StorageLocation root;
  private final HdfsConfig settings;
  private final FileSystem fs;
  private final HdfsExclusiveCreate exclusiveCreate;
  private final HdfsLeaseRecovery leaseRecovery;
  private final boolean supportsAppend;
  private final Set<Path> openLogs = ConcurrentHashMap.newKeySet();

  private HdfsMetaStorage(
      StorageLocation root,
      HdfsConfig settings,
      FileSystem fs,
      HdfsExclusiveCreate exclusiveCreate,
      HdfsLeaseRecovery leaseRecovery,
      boolean supportsAppend) {
    this.root = requireNonNull(root, "root is null");
    this.settings = requireNonNull(settings, "settings is null");
    this.fs = requireNonNull(fs, "fs is null");
    this.exclusiveCreate = requireNonNull(exclusiveCreate, "exclusiveCreate is null");
    this.leaseRecovery = requireNonNull(leaseRecovery, "leaseRecovery is null");
    this.supportsAppend = supportsAppend;
  }

  static HdfsMetaStorage open(StorageLocation root, HdfsConfig settings) throws IOException {
    Configuration conf = settings.toConfiguration();
    URI uri = URI.create(root.scheme() + "://" + root.authority() + "/");
    long start = System.nanoTime();
    FileSystem fs;
    try {
      fs = FileSystem.newInstance(uri, conf);
    } catch (IOException e) {
      throw HdfsErrors.translate(e, root);
    } catch (IllegalArgumentException e) {
      // Hadoop reports a NameNode host that does not resolve as a bad argument.
      IOException unreachable = HdfsErrors.unreachableOr(e, root, null);
      if (unreachable == null) {
        throw e;
      }
      throw unreachable;
    }
    try {
      FileContext fileContext = FileContext.getFileContext(fs.getUri(), conf);
      LOG.debug(
          "opened {} for {} in {} ms",
          fs.getClass().getSimpleName(),
          root,
          (System.nanoTime() - start) / 1_000_000);
      return new HdfsMetaStorage(
          root,
          settings,
          fs,
          new HdfsExclusiveCreate(fs, fileContext),
          new HdfsLeaseRecovery(fs, conf, settings.leaseRecoveryTimeout()),
          appends(fs, new Path("/" + root.path())));
    } catch (IOException | RuntimeException e) {
      try {
        fs.close();
      } catch (IOException closing) {
        e.addSuppressed(closing);
      }
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
        if (status.isFile() && child && !HdfsExclusiveCreate.isTemporary(name)) {
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
      throw HdfsErrors.translate(e, folder);
    }
    // HDFS happens to list in byte order, but no FileSystem promises any order.
    files.sort(BY_NAME);
    return FileIterator.of(files);
  }

  /** Paged by the client: listStatusIterator fetches dfs.ls.limit entries per call. */
  @Override
  public List<StorageLocation> listFolders(StorageLocation folder) throws IOException {
    Path dir = path(folder);
    List<String> names = new ArrayList<>();
    try {
      RemoteIterator<FileStatus> statuses = fs.listStatusIterator(dir);
      while (statuses.hasNext()) {
        FileStatus status = statuses.next();
        if (status.isDirectory()) {
          names.add(status.getPath().getName());
        }
      }
    } catch (FileNotFoundException e) {
      return List.of();
    } catch (IOException e) {
      throw HdfsErrors.translate(e, folder);
    }
    names.sort(Utf8Order.COMPARATOR);
    return names.stream().map(folder::resolve).toList();
  }

  @Override
  public byte[] read(StorageLocation file) throws IOException {
    Path path = path(file);
    try (FSDataInputStream in = fs.open(path)) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw HdfsErrors.translate(e, file);
    }
  }

  @Override
  public InputStream open(StorageLocation file) throws IOException {
    Path path = path(file);
    try {
      return fs.open(path);
    } catch (IOException e) {
      throw HdfsErrors.translate(e, file);
    }
  }

  @Override
  public void createExclusive(StorageLocation file, byte[] content) throws IOException {
    requireNonNull(content, "content is null");
    exclusiveCreate.create(path(file), file, content);
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
      throw HdfsErrors.translate(e, file);
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
      out = leaseRecovery.append(path, file);
    } catch (FileNotFoundException missing) {
      // Created empty and appended to, rather than written through the stream of create: some
      // FileSystems (RawLocalFileSystem) hsync the streams of create but not those of append,
      // and whether a store offers logs must not depend on whether the file existed.
      try {
        fs.create(path, false).close();
        created = true;
      } catch (FileAlreadyExistsException raced) {
        // another writer created it first; append to theirs
      } catch (IOException e) {
        throw HdfsErrors.translate(e, file);
      }
      try {
        out = leaseRecovery.append(path, file);
      } catch (IOException e) {
        throw HdfsErrors.translate(e, file);
      }
    } catch (IOException e) {
      throw HdfsErrors.translate(e, file);
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
        throw HdfsErrors.translate(e, file);
      }
      return Optional.empty();
    }
    return Optional.of(
        new HdfsAppendableLog(file, path, fs, out, out.getPos(), () -> openLogs.remove(path)));
  }

  /** One {@code delete} per file: Hadoop's FileSystem has no batch delete. */
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
            failures.put(file, HdfsErrors.describe(HdfsErrors.unwrap(e)));
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

  private Path path(StorageLocation location) {
    requireNonNull(location, "location is null");
    if (!location.scheme().equals(root.scheme())
        || !location.authority().equals(root.authority())) {
      throw new IllegalArgumentException(
          location + " is not on this storage (" + root.scheme() + "://" + root.authority() + ")");
    }
    return new Path("/" + location.path());
  }
}
