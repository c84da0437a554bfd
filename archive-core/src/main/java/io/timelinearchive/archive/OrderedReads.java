package io.timelinearchive.archive;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.format.InstantConversionException;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.timeline.TimelineFile;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * The selected instant files read on a pool and taken in timeline order, each turned into a value
 * on the thread that read it; reads run a bounded window ahead of the file taken: enough to keep
 * every reader busy, few enough to bound memory.
 *
 * @param <T> what a file becomes
 */
public final class OrderedReads<T> {
  /** What one file becomes, given its content; runs on the pool. */
  public interface Work<T> {
    T apply(TimelineFile file, byte[] content) throws IOException;
  }

  private final ExecutorService pool;
  private final MetaStorage storage;
  private final List<TimelineFile> files;
  private final Work<T> work;
  private final int window;
  private final List<Future<T>> futures;

  /**
   * @param pool the readers, of {@code readParallelism} threads
   * @param readParallelism the readers' count, which sets the window (four reads each)
   */
  public OrderedReads(
      ExecutorService pool,
      int readParallelism,
      MetaStorage storage,
      List<TimelineFile> files,
      Work<T> work) {
    this.pool = requireNonNull(pool, "pool is null");
    this.storage = requireNonNull(storage, "storage is null");
    this.files = List.copyOf(files);
    this.work = requireNonNull(work, "work is null");
    this.window = Math.max(1, readParallelism) * 4;
    this.futures = new ArrayList<>(this.files.size());
  }

  /**
   * What file {@code i} became; files are taken in order, each once.
   *
   * @throws IOException naming the file if it could not be read or turned into a value (a file gone
   *     since the listing is said to have been deleted by another process)
   */
  public T take(int i) throws IOException {
    while (futures.size() < files.size() && futures.size() < i + window) {
      TimelineFile next = files.get(futures.size());
      futures.add(pool.submit(() -> work.apply(next, read(next))));
    }
    try {
      return futures.get(i).get();
    } catch (ExecutionException e) {
      throw InstantConversionException.ofRead(files.get(i), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while reading instant files");
    } finally {
      futures.set(i, null);
    }
  }

  private byte[] read(TimelineFile file) throws IOException {
    // The listing gave the length: an empty file needs no request at all.
    return file.file().length() == 0 ? new byte[0] : storage.read(file.file().location());
  }
}
