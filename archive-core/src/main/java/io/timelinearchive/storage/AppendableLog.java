package io.timelinearchive.storage;

import java.io.Closeable;
import java.io.IOException;

/**
 * A file that grows by appends, on a store with real append (local disk, HDFS, Azure append blobs).
 *
 * <p>Not thread-safe: one archiver owns a log while it holds the archive lock.
 */
public interface AppendableLog extends Closeable {
  StorageLocation location();

  /** The number of bytes in the file, including those appended through this log. */
  long length();

  /**
   * Appends {@code bytes} at the end of the file. When this returns, the bytes are durable (forced
   * to disk, {@code hsync}ed, committed by the service) and visible to new readers. Either all of
   * them are appended or, on failure, the file may end with a prefix of them; callers never append
   * after a failed call.
   *
   * @throws IOException if the file changed under this log (another writer appended) or the write
   *     failed
   */
  void append(byte[] bytes) throws IOException;
}
