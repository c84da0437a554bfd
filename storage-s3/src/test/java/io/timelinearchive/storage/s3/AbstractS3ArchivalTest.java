package io.timelinearchive.storage.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.archive.ArchiveListener;
import io.timelinearchive.archive.ArchiveResult;
import io.timelinearchive.archive.InvariantChecker;
import io.timelinearchive.archive.TimelineArchiver;
import io.timelinearchive.sample.SampleTable;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.HoodieTable;
import io.timelinearchive.timeline.State;
import io.timelinearchive.timeline.TimelineInstant;
import java.time.Clock;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An end-to-end archival of a 1,000-instant table on an S3 API server, checked by the independent
 * {@link InvariantChecker}, with the S3 requests of the run compared to the fewest it could make.
 */
abstract class AbstractS3ArchivalTest {
  private static final Logger LOG = LoggerFactory.getLogger(AbstractS3ArchivalTest.class);

  protected abstract S3Server server();

  /**
   * Writes a sample table in memory, then copies its files to {@code base} in parallel (the
   * generator writes one file at a time, which is slow against a remote store).
   *
   * @return every instant file written, by name
   */
  static Map<String, byte[]> writeTable(
      MetaStorage storage, StorageLocation base, SampleTable.Spec spec) throws Exception {
    StorageLocation memoryBase = StorageLocation.of("memory://" + UUID.randomUUID() + "/table");
    try (MetaStorage memory = MetaStorages.open(memoryBase, Map.of())) {
      SampleTable.write(memory, memoryBase, spec);
      StorageLocation memoryMeta = memoryBase.resolve(HoodieTable.META_FOLDER);
      List<FileEntry> files = memory.list(memoryMeta).toList();
      ExecutorService pool = Executors.newFixedThreadPool(8);
      try {
        List<Future<?>> copies = new ArrayList<>();
        for (FileEntry file : files) {
          byte[] content = memory.read(file.location());
          StorageLocation target = base.resolve(HoodieTable.META_FOLDER).resolve(file.name());
          copies.add(
              pool.submit(
                  () -> {
                    storage.createExclusive(target, content);
                    return null;
                  }));
        }
        for (Future<?> copy : copies) {
          copy.get();
        }
      } finally {
        pool.shutdownNow();
      }
      return InvariantChecker.snapshot(memory, memoryMeta);
    }
  }

  static Map<String, Long> minus(Map<String, Long> after, Map<String, Long> before) {
    Map<String, Long> run = new TreeMap<>();
    after.forEach(
        (operation, count) -> {
          long n = count - before.getOrDefault(operation, 0L);
          if (n != 0) {
            run.put(operation, n);
          }
        });
    return run;
  }

  @Test
  void archivesAThousandInstantTableWithNearTheFewestRequests() throws Exception {
    String bucket = server().newBucket();
    StorageLocation base = StorageLocation.of("s3://" + bucket + "/warehouse/orders");
    try (MetaStorage storage = server().open(bucket, Map.of())) {
      // 800 commits and a clean after every 4th: 1,000 instants, 3,000 instant files
      SampleTable.Spec spec =
          new SampleTable.Spec(
              800, false, 0, 4, 0, 0, false, LocalDateTime.of(2026, 1, 1, 0, 0), 5);
      Map<String, byte[]> original = writeTable(storage, base, spec);
      assertThat(original).hasSize(3_000);
      InvariantChecker checker = new InvariantChecker(original);
      StorageLocation meta = base.resolve(HoodieTable.META_FOLDER);
      StorageLocation archiveFolder = meta.resolve(HoodieTable.DEFAULT_ARCHIVE_FOLDER);
      Map<String, Long> before = S3MetaStorageFactory.requestCounts(storage).orElseThrow();

      ArchiveResult result;
      try (TimelineArchiver archiver =
          TimelineArchiver.create(
              storage, base, Map.of(), Clock.systemUTC(), ArchiveListener.NONE)) {
        result = archiver.archiveIfRequired();
      }

      Map<String, Long> requests =
          minus(S3MetaStorageFactory.requestCounts(storage).orElseThrow(), before);
      assertThat(checker.check(storage, meta, archiveFolder)).isEmpty();
      // the run's own result reports the same service requests the storage counted
      assertThat(result.serviceRequests()).isEqualTo(requests);
      List<TimelineInstant> archived = result.archived();
      long archivedInstants = archived.stream().map(TimelineInstant::key).distinct().count();
      assertThat(archivedInstants).isGreaterThan(900);
      assertThat(result.activeAfter()).isEqualTo(3_000 - archived.size());

      long nonEmpty = archived.stream().filter(i -> original.get(i.fileName()).length > 0).count();
      long pending = archived.stream().filter(i -> i.state() != State.COMPLETED).count();
      long completed = archived.size() - pending;
      LOG.info(
          "Archived {} instants ({} files, {} non-empty) on {} with S3 requests {}: {} per instant",
          archivedInstants,
          archived.size(),
          nonEmpty,
          server().getClass().getSimpleName(),
          requests,
          String.format(
              "%.3f",
              requests.values().stream().mapToLong(Long::longValue).sum()
                  / (double) archivedInstants));

      // The floor: one GET per non-empty archived file, one DeleteObjects per 1,000 pending files
      // and one per completed file (strictly oldest first), plus O(1) listings, lock, journal and
      // archive writes. Never a HeadObject.
      assertThat(requests.keySet())
          .containsOnly("GetObject", "PutObject", "DeleteObjects", "ListObjectsV2");
      assertThat(requests.get("GetObject")).isBetween(nonEmpty, nonEmpty + 10);
      long deleteFloor = (pending + 999) / 1000 + completed;
      assertThat(requests.get("DeleteObjects")).isBetween(deleteFloor, deleteFloor + 5);
      assertThat(requests.get("ListObjectsV2")).isLessThanOrEqualTo(10);
      assertThat(requests.get("PutObject")).isLessThanOrEqualTo(5);

      // A second run has nothing left to archive beyond the retained window
      try (TimelineArchiver archiver =
          TimelineArchiver.create(
              storage, base, Map.of(), Clock.systemUTC(), ArchiveListener.NONE)) {
        assertThat(archiver.archiveIfRequired().archived()).isEmpty();
      }
      assertThat(checker.check(storage, meta, archiveFolder)).isEmpty();
    }
  }
}
