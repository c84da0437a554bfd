package io.timelinearchive.archive;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.select.Barrier;
import io.timelinearchive.storage.RequestCounts;
import io.timelinearchive.timeline.TimelineInstant;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What one run of {@link TimelineArchiver#archiveIfRequired()} did: what it archived, wrote and
 * deleted, why it stopped where it did, and what it cost.
 *
 * <p>A final class rather than a record so that a later release can add what a run reports without
 * breaking code that reads it: only the archiver creates one, and each accessor keeps its name.
 */
public final class ArchiveResult {
  private final List<TimelineInstant> archived;
  private final SortedMap<String, Integer> archivedByAction;
  private final List<TimelineInstant> recovered;
  private final List<WrittenFile> archiveFilesWritten;
  private final int filesDeleted;
  private final int auxFilesDeleted;
  private final Barrier barrier;
  private final List<Barrier> barriers;
  private final List<String> warnings;
  private final RequestCounts requests;
  private final Map<String, Long> serviceRequests;
  private final Map<String, Duration> phases;
  private final int activeBefore;
  private final int activeAfter;
  private final List<String> archiveFilesPurged;
  private final List<String> archiveFilesMerged;
  private final Optional<String> mergedArchiveFile;

  ArchiveResult(
      List<TimelineInstant> archived,
      SortedMap<String, Integer> archivedByAction,
      List<TimelineInstant> recovered,
      List<WrittenFile> archiveFilesWritten,
      int filesDeleted,
      int auxFilesDeleted,
      Barrier barrier,
      List<Barrier> barriers,
      List<String> warnings,
      RequestCounts requests,
      Map<String, Long> serviceRequests,
      Map<String, Duration> phases,
      int activeBefore,
      int activeAfter,
      List<String> archiveFilesPurged,
      List<String> archiveFilesMerged,
      Optional<String> mergedArchiveFile) {
    this.archived = List.copyOf(archived);
    this.archivedByAction = Collections.unmodifiableSortedMap(new TreeMap<>(archivedByAction));
    this.recovered = List.copyOf(recovered);
    this.archiveFilesWritten = List.copyOf(archiveFilesWritten);
    this.filesDeleted = filesDeleted;
    this.auxFilesDeleted = auxFilesDeleted;
    this.barrier = requireNonNull(barrier, "barrier is null");
    this.barriers = List.copyOf(barriers);
    this.warnings = List.copyOf(warnings);
    this.requests = requireNonNull(requests, "requests is null");
    this.serviceRequests = Map.copyOf(serviceRequests);
    this.phases = Collections.unmodifiableMap(new LinkedHashMap<>(phases));
    this.activeBefore = activeBefore;
    this.activeAfter = activeAfter;
    this.archiveFilesPurged = List.copyOf(archiveFilesPurged);
    this.archiveFilesMerged = List.copyOf(archiveFilesMerged);
    this.mergedArchiveFile = requireNonNull(mergedArchiveFile, "mergedArchiveFile is null");
  }

  /**
   * @return the instant state files archived by this run, sorted
   */
  public List<TimelineInstant> archived() {
    return archived;
  }

  /**
   * @return the count of archived instants (not files) per action of their key
   */
  public SortedMap<String, Integer> archivedByAction() {
    return archivedByAction;
  }

  /**
   * @return state files that an interrupted earlier run had archived and this run deleted
   */
  public List<TimelineInstant> recovered() {
    return recovered;
  }

  /**
   * @return the archive files this run wrote to (created or appended), with bytes
   */
  public List<WrittenFile> archiveFilesWritten() {
    return archiveFilesWritten;
  }

  /**
   * @return instant files deleted from the active timeline (including recovered ones)
   */
  public int filesDeleted() {
    return filesDeleted;
  }

  /**
   * @return old compaction plan copies removed from {@code .hoodie/.aux/}
   */
  public int auxFilesDeleted() {
    return auxFilesDeleted;
  }

  /**
   * @return why selection of commits stopped where it did (or the unreadable file that stopped the
   *     run), which decides how far the archive reaches
   */
  public Barrier barrier() {
    return barrier;
  }

  /**
   * @return why selection stopped, for each group of instants (commits, cleans, rollbacks)
   */
  public List<Barrier> barriers() {
    return barriers;
  }

  /**
   * @return things the user should know (skipped unreadable files, widened retention, …)
   */
  public List<String> warnings() {
    return warnings;
  }

  /**
   * @return storage calls made, by kind, as counted at the storage interface
   */
  public RequestCounts requests() {
    return requests;
  }

  /**
   * @return requests the backend sent to its service, by operation (retries included), where the
   *     backend counts them
   */
  public Map<String, Long> serviceRequests() {
    return serviceRequests;
  }

  /**
   * @return wall time of each phase, in the order they ran
   */
  public Map<String, Duration> phases() {
    return phases;
  }

  /**
   * @return instant state files in the active timeline before the run
   */
  public int activeBefore() {
    return activeBefore;
  }

  /**
   * @return instant state files left after the run
   */
  public int activeAfter() {
    return activeAfter;
  }

  /**
   * @return archive files deleted by {@code archive.history.max-age}, oldest first
   */
  public List<String> archiveFilesPurged() {
    return archiveFilesPurged;
  }

  /**
   * @return small archive files merged into {@link #mergedArchiveFile()} and deleted ({@code
   *     hoodie.archive.merge.*}), oldest first
   */
  public List<String> archiveFilesMerged() {
    return archiveFilesMerged;
  }

  /**
   * @return the archive file this run's merge wrote, if it merged
   */
  public Optional<String> mergedArchiveFile() {
    return mergedArchiveFile;
  }

  /**
   * @return the run's wall time: the sum of its {@link #phases()}
   */
  public Duration duration() {
    return phases.values().stream().reduce(Duration.ZERO, Duration::plus);
  }

  @Override
  public String toString() {
    return "ArchiveResult[archivedByAction="
        + archivedByAction
        + ", filesDeleted="
        + filesDeleted
        + ", activeBefore="
        + activeBefore
        + ", activeAfter="
        + activeAfter
        + ", archiveFilesWritten="
        + archiveFilesWritten
        + ", barrier="
        + barrier
        + ", warnings="
        + warnings
        + "]";
  }

  /**
   * An archive file this run wrote to.
   *
   * @param name the file's name in {@code .hoodie/archived/}
   * @param appended whether the run appended to a file that existed (rather than creating it)
   * @param bytesWritten bytes this run wrote to it
   * @param blocks log blocks this run wrote to it
   */
  public record WrittenFile(String name, boolean appended, long bytesWritten, int blocks) {}
}
