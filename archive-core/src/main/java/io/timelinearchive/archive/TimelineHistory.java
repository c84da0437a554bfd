package io.timelinearchive.archive;

import io.timelinearchive.archive.folder.ArchiveFolder;
import io.timelinearchive.archive.folder.ArchiveLock;
import io.timelinearchive.select.ArchivalPlan;
import io.timelinearchive.select.TableFacts;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.ActiveTimeline;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.IOException;
import java.time.Instant;
import java.util.Set;

/**
 * The steps of an archival run that depend on the table's timeline format: where the lock and the
 * run journal live, how the active timeline is listed and selected from, how the archive is written
 * and made current, what an interrupted run had archived, and how the archive is kept tidy. {@link
 * ArchiveRun} calls them in the order of the protocol; the lock, the journal's life and the order
 * of the deletes stay its own, the same for every format.
 *
 * <p>Hudi 0.x's log-block archive is built in ({@link LogBlockHistory}); another format comes from
 * a {@link TimelineHistoryProvider} on the class path.
 */
public interface TimelineHistory {

  /** The folder the archive lock and the run journal are kept in; listed once per run. */
  StorageLocation folder();

  /**
   * Finishes, under the lock, the history's own maintenance an interrupted run left unfinished.
   *
   * @param folder {@link #folder()} as listed at the start of the run
   * @return the folder as it is now
   */
  ArchiveFolder recover(ArchiveFolder folder, ArchiveLock lock, RunReport report)
      throws IOException;

  /** The active timeline, listed once, in core's model; its files keep their real names. */
  ActiveTimeline listActive() throws IOException;

  /** What selection needs to know of the table beyond its active timeline. */
  TableFacts facts(ActiveTimeline active) throws IOException;

  /** What a run would archive now, by the rules of this format's Hudi version; changes nothing. */
  ArchivalPlan plan(ActiveTimeline active, Instant now) throws IOException;

  /**
   * What the run that left {@code journal} had made durable in the archive, as state files of
   * {@code active}; whatever it wrote but had not made current is removed first, so that it is
   * archived again, once.
   */
  Set<TimelineInstant> settle(ArchiveFolder folder, ArchiveJournal journal, ActiveTimeline active)
      throws IOException;

  /**
   * Reads the plan's files and archives them durably, creating the run journal before the first
   * byte of the archive changes.
   *
   * @return what was archived, its files to delete from the active timeline
   */
  ArchivedFiles archive(
      ArchivalPlan plan,
      ActiveTimeline active,
      ArchiveFolder folder,
      ArchiveLock lock,
      RunReport report)
      throws IOException;

  /**
   * Keeps the archive tidy after the deletes (merges or compacts files, cleans old ones), as the
   * settings ask; reports what it did.
   *
   * @param folder the folder with what this run wrote to it
   */
  void maintain(ArchiveFolder folder, ArchiveLock lock, RunReport report) throws IOException;
}
