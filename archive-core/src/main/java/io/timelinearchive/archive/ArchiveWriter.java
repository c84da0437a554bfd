package io.timelinearchive.archive;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.archive.folder.ArchiveFolder;
import io.timelinearchive.archive.folder.ArchiveLock;
import io.timelinearchive.format.ArchiveBlockEncoder;
import io.timelinearchive.format.ArchiveEntry;
import io.timelinearchive.format.ArchiveFileName;
import io.timelinearchive.format.ArchiveTail;
import io.timelinearchive.format.LogBlocks;
import io.timelinearchive.storage.AppendableLog;
import io.timelinearchive.storage.ExclusiveCreate;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.InstantKey;
import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one run's archive entries in bounded steps, so a run over any number of instants holds a
 * bounded amount in memory. Entries are encoded into blocks of {@link
 * ArchiverSettings#archivalBatch()} records as soon as a batch is complete at an instant boundary
 * (the raw contents they carry are many times larger than their compressed form), each block on the
 * given executor while reading goes on, at most {@link #ENCODING_AHEAD} at once; blocks are kept up
 * to {@link ArchiverSettings#writeBufferBytes()} (counted by their entries' encoded fields, most of
 * what a block holds), then appended to the newest archive file where the store can append, or else
 * written as a new archive file (one per flush, versions rising).
 *
 * <p>Nothing touches the store before the first flush; the run journal is created just before the
 * first archive byte and names the first file written, so recovery reads that file (from the
 * journal's offset) and every later version. The caller marks instant boundaries ({@link
 * #endOfInstant}) and flushes only there, so an instant whose later file turns out unreadable is
 * still wholly in the entry buffer and can be dropped ({@link #drop}).
 */
final class ArchiveWriter implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(ArchiveWriter.class);

  /** The most bytes one append carries (several blocks, or one larger block). */
  static final int APPEND_BYTES = 4 * 1024 * 1024;

  private final MetaStorage storage;
  private final ArchiveFolder folder;
  private final ArchiverSettings settings;
  private final ArchiveLock lock;
  private final List<ArchiveResult.WrittenFile> written = new ArrayList<>();

  /** Entries not yet encoded: fewer than a batch, plus those of the instant being read. */
  private final List<ArchiveEntry> entries = new ArrayList<>();

  /** Blocks being encoded, in order. */
  private final Deque<Future<List<byte[]>>> encoding = new ArrayDeque<>();

  /** Encoded blocks not yet written. */
  private final List<byte[]> blocks = new ArrayList<>();

  private long countedBytes;

  private boolean opened;
  private AppendableLog log;
  private long logStart;
  private int logBlocks;
  private int nextVersion;

  /** Blocks encoded at once, at most: their entries, raw contents included, are held meanwhile. */
  static final int ENCODING_AHEAD = 8;

  private final Executor encoder;

  ArchiveWriter(
      MetaStorage storage,
      ArchiveFolder folder,
      ArchiverSettings settings,
      ArchiveLock lock,
      Executor encoder) {
    this.encoder = requireNonNull(encoder, "encoder is null");
    this.storage = requireNonNull(storage, "storage is null");
    this.folder = requireNonNull(folder, "folder is null");
    this.settings = requireNonNull(settings, "settings is null");
    this.lock = requireNonNull(lock, "lock is null");
  }

  /** Buffers an entry of the instant being read. */
  void add(ArchiveEntry entry) {
    entries.add(requireNonNull(entry, "entry is null"));
  }

  /**
   * Marks that every buffered entry's instant is complete: encodes the complete batches among them.
   */
  void endOfInstant() throws IOException {
    int batch = settings.archivalBatch();
    int whole = entries.size() / batch * batch;
    if (whole > 0) {
      encode(entries.subList(0, whole));
    }
  }

  /**
   * Whether the blocks have reached the buffer's limit, so the caller should flush: counted by
   * their entries' encoded fields, whether or not their encoding is done, so that where a run
   * flushes depends on its entries alone.
   */
  boolean full() {
    return countedBytes >= settings.writeBufferBytes();
  }

  /** Whether nothing is buffered. */
  boolean isEmpty() {
    return entries.isEmpty() && encoding.isEmpty() && blocks.isEmpty();
  }

  /** Whether anything reached the store (the journal, a block). */
  boolean hasWritten() {
    return opened;
  }

  /** Removes the buffered entries of one instant, whose files are not all readable. */
  void drop(InstantKey key) {
    entries.removeIf(e -> e.instant().key().equals(key));
  }

  /** Writes what is buffered, at an instant boundary; durable when this returns. */
  void flush() throws IOException {
    encode(entries);
    while (!encoding.isEmpty()) {
      collectOldest();
    }
    if (blocks.isEmpty()) {
      return;
    }
    lock.check();
    if (!opened) {
      open();
    }
    if (log != null) {
      for (LogBlocks.Chunk chunk : LogBlocks.gather(blocks, APPEND_BYTES)) {
        // Renews a long write's lease; a holder that lost it stops appending before a successor
        // (which waits for the lease to run out) can append to the same file.
        lock.checkIfDue();
        log.append(chunk.bytes());
        logBlocks += chunk.blocks();
      }
    } else {
      writeNewFile();
    }
    blocks.clear();
    countedBytes = 0;
  }

  /** The files this run wrote or appended to, in order. */
  List<ArchiveResult.WrittenFile> written() {
    return written;
  }

  /** Records the appended file; does not flush (a failed run must not write its buffer). */
  @Override
  public void close() throws IOException {
    if (log != null) {
      try (AppendableLog closing = log) {
        if (logBlocks > 0) {
          written.add(
              new ArchiveResult.WrittenFile(
                  closing.location().fileName(),
                  logStart > 0,
                  closing.length() - logStart,
                  logBlocks));
        }
      } finally {
        log = null;
      }
    }
  }

  /** Encodes {@code batch}-record blocks of the given leading entries and removes them. */
  private void encode(List<ArchiveEntry> leading) throws IOException {
    int batch = settings.archivalBatch();
    for (int i = 0; i < leading.size(); i += batch) {
      if (encoding.size() >= ENCODING_AHEAD) {
        collectOldest();
      }
      List<ArchiveEntry> block =
          List.copyOf(leading.subList(i, Math.min(leading.size(), i + batch)));
      long counted = 0;
      for (ArchiveEntry entry : block) {
        counted += entry.encodedLength();
      }
      FutureTask<List<byte[]>> task = new FutureTask<>(() -> ArchiveBlockEncoder.encode(block));
      encoder.execute(task);
      encoding.addLast(task);
      countedBytes += counted;
    }
    leading.clear();
  }

  /** Waits for the oldest block being encoded and keeps what it made. */
  private void collectOldest() throws IOException {
    List<byte[]> encoded;
    try {
      encoded = encoding.removeFirst().get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while encoding archive blocks");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IOException("encoding an archive block failed", e.getCause());
    }
    blocks.addAll(encoded);
  }

  /** Chooses where this run writes: the newest file if it can take appends, else a new one. */
  private void open() throws IOException {
    opened = true;
    Optional<FileEntry> newest = folder.newest();
    int newestVersion = folder.newestVersion();
    Optional<AppendableLog> appendable = Optional.empty();
    if (newest.isPresent() && newest.get().length() < settings.maxArchiveFileBytes()) {
      try {
        appendable = storage.openLog(newest.get().location());
      } catch (IOException e) {
        // Lease held by a crashed writer, blob full, …: Hudi rolls over, and so do we.
        LOG.warn(
            "cannot append to {} ({}); starting a new archive file",
            newest.get().location(),
            e.toString());
      }
      if (appendable.isPresent()
          && !ArchiveTail.endsAtBlockBoundary(
              storage, appendable.get().location(), appendable.get().length())) {
        LOG.warn(
            "{} ends with a torn block (a writer died mid-append); starting a new archive file",
            newest.get().location());
        appendable.get().close();
        appendable = Optional.empty();
      }
    }
    if (appendable.isEmpty()) {
      appendable =
          storage.openLog(folder.location().resolve(ArchiveFileName.of(newestVersion + 1)));
    }
    if (appendable.isPresent()) {
      log = appendable.get();
      logStart = log.length();
      new ArchiveJournal(log.location().fileName(), logStart, settings.owner())
          .create(storage, folder.location());
    } else {
      nextVersion = newestVersion + 1;
      new ArchiveJournal(ArchiveFileName.of(nextVersion), 0, settings.owner())
          .create(storage, folder.location());
    }
  }

  private void writeNewFile() throws IOException {
    StorageLocation file = folder.location().resolve(ArchiveFileName.of(nextVersion));
    byte[] content = LogBlocks.concat(blocks);
    // The blocks are in the content now: let them go before the (possibly slow) upload.
    int blockCount = blocks.size();
    blocks.clear();
    countedBytes = 0;
    lock.check();
    try {
      ExclusiveCreate.create(storage, file, content);
    } catch (FileAlreadyExistsException e) {
      throw new IOException(
          "archive file " + file + " was written by someone else meanwhile; nothing deleted", e);
    }
    written.add(new ArchiveResult.WrittenFile(file.fileName(), false, content.length, blockCount));
    nextVersion++;
  }
}
