package io.timelinearchive.storage.memory;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.storage.AbstractAppendableLog;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.memory.InMemoryMetaStorage.Blob;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.time.Clock;
import java.util.Arrays;
import java.util.concurrent.ConcurrentMap;

/**
 * A log on one key of an in-memory volume. Each append replaces the blob with a longer one only if
 * the blob is still the one it grew from, so a stale log (another writer appended) is refused.
 */
final class InMemoryAppendableLog extends AbstractAppendableLog {
  private final String key;
  private final ConcurrentMap<String, Blob> blobs;
  private final Clock clock;

  InMemoryAppendableLog(
      StorageLocation location,
      String key,
      long length,
      ConcurrentMap<String, Blob> blobs,
      Clock clock) {
    super(location, length);
    this.key = requireNonNull(key, "key is null");
    this.blobs = requireNonNull(blobs, "blobs is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  @Override
  protected void appendAt(long position, byte[] bytes) throws IOException {
    Blob current = blobs.get(key);
    if (current == null) {
      throw new NoSuchFileException(location().toString(), null, "deleted while appending");
    }
    if (current.content().length != position) {
      throw new IOException(
          "concurrent append to "
              + location()
              + ": expected length "
              + position
              + ", found "
              + current.content().length);
    }
    byte[] grown = Arrays.copyOf(current.content(), current.content().length + bytes.length);
    System.arraycopy(bytes, 0, grown, current.content().length, bytes.length);
    if (!blobs.replace(key, current, new Blob(grown, clock.instant()))) {
      throw new IOException("concurrent append to " + location());
    }
  }

  @Override
  public void close() {}
}
