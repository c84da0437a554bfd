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
import java.nio.file.FileAlreadyExistsException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one run's archive entries in bounded steps, so a run over any number of instants holds a
 * bounded amount in memory. Entries are encoded into blocks of {@link
 * ArchiverSettings#archivalBatch()} records as soon as a batch is complete at an instant boundary
 * (decoded entries are several times larger than their encoding); encoded blocks are kept up to
 * {@link ArchiverSettings#writeBufferBytes()}, then appended to the newest archive file where the
 * store can append, or else written as a new archive file (one per flush, versions rising).
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

  /** Encoded blocks not yet written. */
  private final List<byte[]> blocks = new ArrayList<>();

  private long blockBytes;

  private boolean opened;
  private AppendableLog log;
  private long logStart;
  private int logBlocks;
  private int nextVersion;

  ArchiveWriter(
      MetaStorage storage, ArchiveFolder folder, ArchiverSettings settings, ArchiveLock lock) {
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
  void endOfInstant() {
    int batch = settings.archivalBatch();
    int whole = entries.size() / batch * batch;
    if (whole > 0) {
      encode(entries.subList(0, whole));
    }
  }

  /** Whether the encoded blocks have reached the buffer's limit, so the caller should flush. */
  boolean full() {
    return blockBytes >= settings.writeBufferBytes();
  }

  /** Whether nothing is buffered. */
  boolean isEmpty() {
    return entries.isEmpty() && blocks.isEmpty();
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
    blockBytes = 0;
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
  private void encode(List<ArchiveEntry> leading) {
    int batch = settings.archivalBatch();
    for (int i = 0; i < leading.size(); i += batch) {
      for (byte[] block :
          ArchiveBlockEncoder.encode(leading.subList(i, Math.min(leading.size(), i + batch)))) {
        blocks.add(block);
        blockBytes += block.length;
      }
    }
    leading.clear();
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
    blockBytes = 0;
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
