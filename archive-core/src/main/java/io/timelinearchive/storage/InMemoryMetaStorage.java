package io.timelinearchive.storage;

import static java.util.Objects.requireNonNull;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
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
  private record Blob(byte[] content, Instant lastModified) {}

  private final String scheme;
  private final ConcurrentNavigableMap<String, Blob> blobs;
  private final Clock clock;

  InMemoryMetaStorage(String scheme, ConcurrentNavigableMap<String, Blob> blobs, Clock clock) {
    this.scheme = requireNonNull(scheme, "scheme is null");
    this.blobs = requireNonNull(blobs, "blobs is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  static ConcurrentNavigableMap<String, ?> newVolume() {
    // Keys sort as object stores list them, so listing a prefix yields names in UTF-8 byte order.
    return new ConcurrentSkipListMap<String, Blob>(Utf8Order.COMPARATOR);
  }

  @SuppressWarnings("unchecked")
  static InMemoryMetaStorage onVolume(
      String scheme, ConcurrentNavigableMap<String, ?> volume, Clock clock) {
    return new InMemoryMetaStorage(scheme, (ConcurrentNavigableMap<String, Blob>) volume, clock);
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
    return Optional.of(new Log(file, key, (existing == null ? fresh : existing).content().length));
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

  private final class Log implements AppendableLog {
    private final StorageLocation location;
    private final String key;
    private long length;

    Log(StorageLocation location, String key, long length) {
      this.location = location;
      this.key = key;
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
      Blob current = blobs.get(key);
      if (current == null) {
        throw new NoSuchFileException(location.toString(), null, "deleted while appending");
      }
      if (current.content().length != length) {
        throw new IOException(
            "concurrent append to "
                + location
                + ": expected length "
                + length
                + ", found "
                + current.content().length);
      }
      byte[] grown = Arrays.copyOf(current.content(), current.content().length + bytes.length);
      System.arraycopy(bytes, 0, grown, current.content().length, bytes.length);
      if (!blobs.replace(key, current, new Blob(grown, clock.instant()))) {
        throw new IOException("concurrent append to " + location);
      }
      length = grown.length;
    }

    @Override
    public void close() {}
  }
}
