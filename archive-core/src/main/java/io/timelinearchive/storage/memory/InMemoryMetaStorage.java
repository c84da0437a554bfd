package io.timelinearchive.storage.memory;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.storage.AppendableLog;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.FileIterator;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.SubFolders;
import io.timelinearchive.storage.Utf8Order;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * A store held in memory, for tests and demos: files are keyed by {@code authority/path}; every
 * operation is atomic. Append is supported, so both archive-writing paths can be exercised.
 */
final class InMemoryMetaStorage implements MetaStorage {
  /**
   * A file's content and time; replaced whole by every change, so readers never see a partial one.
   */
  record Blob(byte[] content, Instant lastModified) {}

  private final String scheme;
  private final ConcurrentNavigableMap<String, Blob> blobs;
  private final Clock clock;

  InMemoryMetaStorage(String scheme, ConcurrentNavigableMap<String, Blob> blobs, Clock clock) {
    this.scheme = requireNonNull(scheme, "scheme is null");
    this.blobs = requireNonNull(blobs, "blobs is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  static ConcurrentNavigableMap<String, Blob> newVolume() {
    // Keys sort as object stores list them, so listing a prefix yields names in UTF-8 byte order.
    return new ConcurrentSkipListMap<>(Utf8Order.COMPARATOR);
  }

  @Override
  public FileIterator list(StorageLocation folder) {
    String prefix = folder.path().isEmpty() ? key(folder) : key(folder) + "/";
    List<FileEntry> entries = new ArrayList<>();
    for (Map.Entry<String, Blob> e : blobs.tailMap(prefix, true).entrySet()) {
      String k = e.getKey();
      if (!k.startsWith(prefix)) {
        break;
      }
      if (k.indexOf('/', prefix.length()) >= 0) {
        continue;
      }
      entries.add(
          new FileEntry(
              folder.resolve(k.substring(prefix.length())),
              e.getValue().content().length,
              e.getValue().lastModified()));
    }
    return FileIterator.of(entries);
  }

  @Override
  public List<StorageLocation> listFolders(StorageLocation folder) {
    String prefix = folder.path().isEmpty() ? key(folder) : key(folder) + "/";
    SubFolders folders = new SubFolders(folder);
    for (String k : blobs.tailMap(prefix, true).keySet()) {
      if (!k.startsWith(prefix)) {
        break;
      }
      int slash = k.indexOf('/', prefix.length());
      if (slash >= 0) {
        // the key without "authority/": the common prefix an object store would send
        folders.addPrefix(k.substring(folder.authority().length() + 1, slash + 1));
      }
    }
    return folders.sorted();
  }

  @Override
  public byte[] read(StorageLocation file) throws IOException {
    Blob blob = blobs.get(key(file));
    if (blob == null) {
      throw new NoSuchFileException(file.toString());
    }
    return blob.content().clone();
  }

  @Override
  public InputStream open(StorageLocation file) throws IOException {
    return new ByteArrayInputStream(read(file));
  }

  @Override
  public void createExclusive(StorageLocation file, byte[] content) throws IOException {
    Blob blob = new Blob(content.clone(), clock.instant());
    if (blobs.putIfAbsent(key(file), blob) != null) {
      throw new FileAlreadyExistsException(file.toString());
    }
  }

  @Override
  public boolean supportsAppend() {
    return true;
  }

  @Override
  public Optional<AppendableLog> openLog(StorageLocation file) {
    String key = key(file);
    Blob fresh = new Blob(new byte[0], clock.instant());
    Blob existing = blobs.putIfAbsent(key, fresh);
    long length = (existing == null ? fresh : existing).content().length;
    return Optional.of(new InMemoryAppendableLog(file, key, length, blobs, clock));
  }

  @Override
  public void deleteAll(Collection<StorageLocation> files) {
    // Check every location before deleting any, so a bad one does not leave half a call done.
    List<String> keys = new ArrayList<>(files.size());
    for (StorageLocation file : files) {
      keys.add(key(file));
    }
    for (String key : keys) {
      blobs.remove(key);
    }
  }

  @Override
  public void close() {}

  private String key(StorageLocation location) {
    if (!location.scheme().equals(scheme)) {
      throw new IllegalArgumentException("not a " + scheme + " location: " + location);
    }
    return location.authority() + "/" + location.path();
  }
}
