package io.timelinearchive.archive;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.select.Barrier;
import io.timelinearchive.storage.RequestCounts;
import io.timelinearchive.timeline.TimelineInstant;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;

/**
 * What one run did.
 *
 * @param archived the instant state files archived by this run, sorted
 * @param archivedByAction count of archived instants (not files) per action of their key
 * @param recovered state files that an interrupted earlier run had archived and this run deleted
 * @param archiveFilesWritten archive files this run wrote to (created or appended), with bytes
 * @param filesDeleted instant files deleted from the active timeline (including recovered ones)
 * @param auxFilesDeleted old compaction plan copies removed from {@code .hoodie/.aux/}
 * @param barrier why selection of commits stopped where it did (or the unreadable file that stopped
 *     the run), which decides how far the archive reaches
 * @param barriers why selection stopped, for each group of instants (commits, cleans, rollbacks)
 * @param warnings things the user should know (skipped unreadable files, widened retention, …)
 * @param requests storage calls made, by kind, as counted at the storage interface
 * @param serviceRequests requests the backend sent to its service, by operation (retries included),
 *     where the backend counts them
 * @param phases wall time of each phase, in the order they ran
 * @param activeBefore instant state files in the active timeline before the run
 * @param activeAfter instant state files left after the run
 * @param archiveFilesPurged archive files deleted by {@code archive.history.max-age}, oldest first
 * @param archiveFilesMerged small archive files merged into {@code mergedArchiveFile} and deleted
 *     ({@code hoodie.archive.merge.*}), oldest first
 * @param mergedArchiveFile the archive file this run's merge wrote, if it merged
 */
public record ArchiveResult(
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

  public ArchiveResult {
    archiveFilesPurged = List.copyOf(archiveFilesPurged);
    archiveFilesMerged = List.copyOf(archiveFilesMerged);
    requireNonNull(mergedArchiveFile, "mergedArchiveFile is null");
    archived = List.copyOf(archived);
    recovered = List.copyOf(recovered);
    archiveFilesWritten = List.copyOf(archiveFilesWritten);
    requireNonNull(barrier, "barrier is null");
    barriers = List.copyOf(barriers);
    warnings = List.copyOf(warnings);
    requireNonNull(requests, "requests is null");
    serviceRequests = Map.copyOf(serviceRequests);
  }

  public Duration duration() {
    return phases.values().stream().reduce(Duration.ZERO, Duration::plus);
  }

  /** An archive file this run wrote to. */
  public record WrittenFile(String name, boolean appended, long bytesWritten, int blocks) {}
}
