package io.timelinearchive.storage;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.util.Collection;
import java.util.Optional;

/**
 * The few operations the archiver needs from a store holding a table's metadata folder.
 *
 * <p>Implementations are thread-safe: the archiver reads instant files in parallel. Every method
 * takes locations of the store's own scheme and authority; another one is an {@link
 * IllegalArgumentException}.
 */
public interface MetaStorage extends Closeable {

  /**
   * The direct children of {@code folder} that are files, sorted by name (UTF-8 byte order), paged
   * lazily. Sub-folders are not listed and never descended into. A folder that does not exist lists
   * as empty (object stores have no folders).
   */
  FileIterator list(StorageLocation folder) throws IOException;

  /**
   * The whole content of a file.
   *
   * @throws NoSuchFileException if the file does not exist
   */
  byte[] read(StorageLocation file) throws IOException;

  /**
   * A stream over the content of a file, for sequential reading of large files.
   *
   * @throws NoSuchFileException if the file does not exist (possibly only on the first read)
   */
  InputStream open(StorageLocation file) throws IOException;

  /**
   * Creates {@code file} with {@code content} if and only if it does not exist. Atomic: readers see
   * the whole content or no file. Of several concurrent callers on one name, exactly one succeeds.
   *
   * @throws FileAlreadyExistsException if the file exists (this call wrote nothing)
   * @throws OutcomeUnknownException if a retried attempt cannot tell whether an earlier attempt of
   *     this call created the file; read it back to decide
   */
  void createExclusive(StorageLocation file, byte[] content) throws IOException;

  /**
   * Opens {@code file} for appending, creating it empty if missing, on stores with real durable
   * append. Stores without it return empty, and the archiver writes each run as a new file with
   * {@link #createExclusive}.
   */
  Optional<AppendableLog> openLog(StorageLocation file) throws IOException;

  /**
   * Deletes the given files, in batches where the store has batch deletes. No order holds among the
   * files of one call: callers that need an order make one call per step. Missing files are
   * ignored.
   *
   * @throws DeleteFailedException naming every file that could not be deleted, after trying all
   */
  void deleteAll(Collection<StorageLocation> files) throws IOException;

  /**
   * Requests sent to the service so far, by operation name (for example {@code GetObject}), retries
   * included, where the backend counts them; empty where it does not. Reported in each run's result
   * next to the calls counted at this interface.
   */
  default java.util.Map<String, Long> serviceRequests() {
    return java.util.Map.of();
  }
}
