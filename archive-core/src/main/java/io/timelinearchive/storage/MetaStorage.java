package io.timelinearchive.storage;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The few operations the archiver needs from a store holding a table's metadata folder.
 *
 * <p>Every implementation guarantees, and the archiver's invariants rest on these alone:
 *
 * <ul>
 *   <li><b>Atomic visibility.</b> A file made by {@link #createExclusive} is seen whole or not at
 *       all: no reader, lister or later call ever sees part of its content.
 *   <li><b>Exclusivity.</b> Of concurrent {@link #createExclusive} calls on one name, exactly one
 *       wins; every other fails with {@link FileAlreadyExistsException}, or with {@link
 *       OutcomeUnknownException} when a retry cannot tell which writer won.
 *   <li><b>Listing consistency.</b> A {@link #list} begun after a call returned sees that call's
 *       effect: a created or appended file with its new length, a deleted file gone.
 *   <li><b>Exact lengths.</b> A listed length is the file's length when it was listed. A file being
 *       appended to, or left open by a writer that died (HDFS lists such a file without its last
 *       block), may hold more bytes when read, so a reader that must see every byte reads the
 *       stream to its end.
 * </ul>
 *
 * <p>Implementations are thread-safe: the archiver reads instant files in parallel. Every method
 * takes locations of the store's own scheme and authority; another one is an {@link
 * IllegalArgumentException}. A backend that counts the requests it sends to its service also
 * implements {@link ServiceRequestCounting}.
 */
public interface MetaStorage extends Closeable {

  /**
   * The direct children of {@code folder} that are files, sorted by name (UTF-8 byte order), paged
   * lazily. Sub-folders are not listed and never descended into. A folder that does not exist lists
   * as empty (object stores have no folders).
   *
   * @param folder the folder to list
   * @return its files, with their lengths
   * @throws IOException if the store fails
   */
  FileIterator list(StorageLocation folder) throws IOException;

  /**
   * The direct sub-folders of {@code folder}, sorted by name (UTF-8 byte order), read from the
   * store page by page. On an object store a sub-folder is a name some key continues with {@code
   * /}: the common prefixes of one delimiter listing, never a listing of the files below them, so
   * an empty folder is none. On a file system it is a directory. Files are not listed and
   * sub-folders not descended into. A folder that does not exist lists as empty. The archiver never
   * calls this: it finds tables below a prefix.
   */
  List<StorageLocation> listFolders(StorageLocation folder) throws IOException;

  /**
   * The whole content of a file.
   *
   * @param file the file to read
   * @return its bytes
   * @throws IOException if the store fails
   * @throws NoSuchFileException if the file does not exist
   */
  byte[] read(StorageLocation file) throws IOException;

  /**
   * A stream over the content of a file, for sequential reading of large files.
   *
   * @param file the file to read
   * @return a stream from its first byte; the caller closes it
   * @throws IOException if the store fails
   * @throws NoSuchFileException if the file does not exist (possibly only on the first read)
   */
  InputStream open(StorageLocation file) throws IOException;

  /**
   * Creates {@code file} with {@code content} if and only if it does not exist. Atomic: readers see
   * the whole content or no file. Of several concurrent callers on one name, exactly one succeeds.
   * Missing folders are created.
   *
   * @param file the file to create
   * @param content its whole content
   * @throws IOException if the store fails
   * @throws FileAlreadyExistsException if the file exists (this call wrote nothing)
   * @throws OutcomeUnknownException if a retried attempt cannot tell whether an earlier attempt of
   *     this call created the file; read it back to decide
   */
  void createExclusive(StorageLocation file, byte[] content) throws IOException;

  /**
   * Whether this store has real durable append, so that {@link #openLog} returns logs. Answered
   * without I/O, from what the storage learnt when it was opened. A file that cannot take appends
   * (for example one written by another tool) still fails its {@code openLog} with an exception.
   *
   * @return true if {@link #openLog} returns logs
   */
  boolean supportsAppend();

  /**
   * Opens {@code file} for appending, creating it empty if missing, on stores with real durable
   * append ({@link #supportsAppend}). Stores without it return empty and create nothing, and the
   * archiver writes each run as a new file with {@link #createExclusive}.
   *
   * @param file the log file
   * @return the log to append to, or empty on a store without durable append
   * @throws IOException if the store fails, or the file cannot take appends
   */
  Optional<AppendableLog> openLog(StorageLocation file) throws IOException;

  /**
   * Deletes the given files, in batches where the store has batch deletes. No order holds among the
   * files of one call: callers that need an order make one call per step. Missing files are
   * ignored.
   *
   * @param files the files to delete
   * @throws IOException if the store fails
   * @throws DeleteFailedException naming every file that could not be deleted, after trying all
   */
  void deleteAll(Collection<StorageLocation> files) throws IOException;

  /**
   * Makes the deletes of earlier {@link #deleteAll} calls in {@code folder} survive a machine crash
   * (a power loss), not only the death of this process. A caller whose next step relies on them
   * being gone for good, also after a restart, calls this first. Stores whose deletes are durable
   * when {@code deleteAll} returns (object stores, HDFS's namenode) do nothing; the local disk
   * forces the folder once for all the deletes since its last force (see its durability contract).
   */
  default void syncDeletes(StorageLocation folder) throws IOException {}
}
