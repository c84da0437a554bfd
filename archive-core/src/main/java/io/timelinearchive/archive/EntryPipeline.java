package io.timelinearchive.archive;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.archive.folder.ArchiveFolder;
import io.timelinearchive.archive.folder.ArchiveLock;
import io.timelinearchive.format.ArchiveEntry;
import io.timelinearchive.format.ArchiveEntryConverter;
import io.timelinearchive.format.InstantConversionException;
import io.timelinearchive.select.ArchivalPlan;
import io.timelinearchive.select.Barrier;
import io.timelinearchive.storage.DaemonThreads;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.timeline.ActiveTimeline;
import io.timelinearchive.timeline.InstantKey;
import io.timelinearchive.timeline.TimelineFile;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Reads the selected instant files (in parallel, a bounded window ahead), converts them to archive
 * entries and hands them to the {@link ArchiveWriter} in timeline order, which writes them in
 * bounded steps, each step between two instants.
 *
 * <p>An unreadable file stops archiving before its instant (invariant 5): with {@code
 * hoodie.fail.on.timeline.archiving} the run fails, at once if nothing was written yet, else once
 * what came before is archived and deleted; without it the run archives what is older and warns.
 */
final class EntryPipeline {
  private final MetaStorage storage;
  private final ArchiverSettings settings;
  private final ArchiveLock lock;
  private final RunReport report;

  EntryPipeline(
      MetaStorage storage, ArchiverSettings settings, ArchiveLock lock, RunReport report) {
    this.storage = requireNonNull(storage, "storage is null");
    this.settings = requireNonNull(settings, "settings is null");
    this.lock = requireNonNull(lock, "lock is null");
    this.report = requireNonNull(report, "report is null");
  }

  ArchivedFiles archive(ArchivalPlan plan, ActiveTimeline active, ArchiveFolder folder)
      throws IOException {
    List<TimelineFile> files = active.filesOf(plan.files());
    ArchiveEntryConverter converter = ArchiveEntryConverter.create();
    ExecutorService pool =
        Executors.newFixedThreadPool(
            Math.max(1, Math.min(settings.readParallelism(), files.size())),
            DaemonThreads.factory("timeline-archive-read"));
    List<TimelineInstant> instants = new ArrayList<>();
    List<TimelineFile> archived = new ArrayList<>();
    Barrier barrier = plan.barrier();
    IOException failure = null;
    // The readers' threads also encode the blocks, so that the run's thread only orders and writes.
    try (ArchiveWriter writer = new ArchiveWriter(storage, folder, settings, lock, pool)) {
      OrderedReads<ArchiveEntry> reads =
          new OrderedReads<>(
              pool,
              settings.readParallelism(),
              storage,
              files,
              (file, content) -> convert(converter, file, content));
      InstantKey last = null;
      for (int i = 0; i < files.size(); i++) {
        TimelineFile f = files.get(i);
        // A long read must renew the lease, or the run outlives it and gives up at the end.
        lock.checkIfDue();
        ArchiveEntry entry;
        try {
          entry = reads.take(i);
        } catch (InterruptedIOException e) {
          throw e;
        } catch (IOException cause) {
          if (settings.failOnArchivingError() && !writer.hasWritten()) {
            throw cause;
          }
          InstantKey cut = f.instant().key();
          writer.drop(cut);
          instants.removeIf(instant -> instant.key().equals(cut));
          archived.removeIf(file -> file.instant().key().equals(cut));
          if (settings.failOnArchivingError()) {
            failure = cause;
          } else {
            report.warn(cause.getMessage() + "; selection stopped before this instant");
          }
          barrier = Barrier.unreadableFile(f);
          break;
        }
        // Only between instants: an instant's files are written together or not at all.
        if (!f.instant().key().equals(last)) {
          writer.endOfInstant();
          if (writer.full()) {
            flush(writer);
          }
        }
        writer.add(entry);
        instants.add(entry.instant());
        archived.add(f);
        last = f.instant().key();
        report.progress(Phase.READ, i + 1, files.size());
      }
      flush(writer);
      writer.close();
      report.written(writer.written());
    } finally {
      pool.shutdownNow();
    }
    return new ArchivedFiles(instants, archived, barrier, failure);
  }

  private void flush(ArchiveWriter writer) throws IOException {
    if (writer.isEmpty()) {
      return;
    }
    report.enter(Phase.WRITE);
    writer.flush();
    report.enter(Phase.READ);
  }

  private static ArchiveEntry convert(
      ArchiveEntryConverter converter, TimelineFile f, byte[] content) throws IOException {
    try {
      return converter.convert(f.instant(), f.file().lastModified(), content);
    } catch (InstantConversionException e) {
      throw new InstantConversionException(f.instant(), f.file().location() + ": " + e.reason(), e);
    }
  }
}
