package io.timelinearchive.storage;

import static java.util.Objects.requireNonNull;

import java.io.IOException;

/**
 * The bookkeeping every {@link AppendableLog} keeps, so that a backend writes only its store's
 * append. The log knows the file's length as it left it and hands it to {@link #appendAt} as the
 * position the bytes must land at: the store refuses (or the backend checks and refuses) a file
 * that is not that long, since another writer's bytes would then sit between blocks whose offsets
 * the caller computed from this length. After a failed append the file may end with any prefix of
 * the bytes, so the log refuses every later append: the caller reopens the log, which learns the
 * file's length anew.
 *
 * <p>Not thread-safe, as {@link AppendableLog}.
 */
public abstract class AbstractAppendableLog implements AppendableLog {
  private final StorageLocation location;
  private long length;
  private boolean failed;

  /**
   * @param length the file's length when the log was opened
   */
  protected AbstractAppendableLog(StorageLocation location, long length) {
    this.location = requireNonNull(location, "location is null");
    if (length < 0) {
      throw new IllegalArgumentException("negative length " + length + " of " + location);
    }
    this.length = length;
  }

  @Override
  public final StorageLocation location() {
    return location;
  }

  @Override
  public final long length() {
    return length;
  }

  @Override
  public final void append(byte[] bytes) throws IOException {
    requireNonNull(bytes, "bytes is null");
    if (failed) {
      throw new IOException(
          "an earlier append to " + location + " failed; its end is unknown, reopen the log");
    }
    checkAppendable(bytes);
    failed = true;
    appendAt(length, bytes);
    length += bytes.length;
    failed = false;
  }

  /**
   * Refuses {@code bytes} before anything is written, for a limit the store would hit half-way
   * (Azure's blocks per blob); a refusal here leaves the log usable. Accepts everything unless
   * overridden.
   */
  protected void checkAppendable(byte[] bytes) throws IOException {}

  /**
   * Appends {@code bytes} to the file, which this log left {@code position} bytes long; durable and
   * visible to new readers when this returns, as {@link AppendableLog#append} promises.
   *
   * @throws IOException if the file is not {@code position} bytes long (another writer), or the
   *     write failed; the file may then end with a prefix of the bytes
   */
  protected abstract void appendAt(long position, byte[] bytes) throws IOException;

  @Override
  public String toString() {
    return getClass().getSimpleName() + "[" + location + ", length=" + length + "]";
  }
}
