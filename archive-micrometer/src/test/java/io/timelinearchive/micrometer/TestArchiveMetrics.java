package io.timelinearchive.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.timelinearchive.archive.ArchiveListener;
import io.timelinearchive.archive.ArchiveResult;
import io.timelinearchive.archive.MutableClock;
import io.timelinearchive.archive.TestTables;
import io.timelinearchive.archive.TimelineArchiver;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.memory.InMemoryMetaStorageFactory;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TestArchiveMetrics {
  private final StorageLocation base = TestTables.newMemoryTable();
  private final MetaStorage storage = TestTables.memory(base);
  private final MeterRegistry registry = new SimpleMeterRegistry();
  private final MutableClock clock =
      new MutableClock(java.time.Instant.parse("2026-11-29T12:00:00Z"));

  @AfterEach
  void dropVolume() {
    InMemoryMetaStorageFactory.dropVolume(base.authority());
  }

  private ArchiveResult archive(Map<String, String> config) throws Exception {
    try (TimelineArchiver archiver =
        TimelineArchiver.create(storage, base, config, clock, ArchiveListener.NONE)) {
      return archiver.archiveIfRequired();
    }
  }

  private double count(String name, String... tags) {
    return registry
        .get("timeline.archive." + name)
        .tags("table", "t1")
        .tags(tags)
        .counter()
        .count();
  }

  private double gauge(String name, String... tags) {
    return registry.get("timeline.archive." + name).tags("table", "t1").tags(tags).gauge().value();
  }

  @Test
  void aRealRunIsPublishedAsItsResultSaysAndCountersAddUp() throws Exception {
    TestTables.write(storage, base, TestTables.copyOnWrite(40));
    ArchiveMetrics metrics = ArchiveMetrics.create(registry, "t1");

    ArchiveResult result = archive(TestTables.SMALL_RETENTION);
    metrics.record(result);

    assertThat(result.archived()).isNotEmpty();
    assertThat(count("runs", "barrier", "min_commits")).isEqualTo(1);
    assertThat(count("instants", "action", "commit"))
        .isEqualTo(result.archivedByAction().get("commit").doubleValue());
    assertThat(count("instants", "action", "clean"))
        .isEqualTo(result.archivedByAction().get("clean").doubleValue());
    assertThat(count("instant.files")).isEqualTo(result.archived().size());
    assertThat(count("bytes.written"))
        .isEqualTo(result.archiveFilesWritten().get(0).bytesWritten())
        .isPositive();
    assertThat(count("files.written", "mode", "created")).isEqualTo(1);
    assertThat(count("files.deleted", "folder", "active")).isEqualTo(result.filesDeleted());
    assertThat(count("files.deleted", "folder", "archive")).isZero();
    assertThat(count("requests", "type", "read")).isEqualTo(result.requests().read());
    assertThat(count("requests", "type", "deleteCalls")).isEqualTo(result.requests().deleteCalls());
    assertThat(gauge("active.instant.files")).isEqualTo(result.activeAfter());
    assertThat(gauge("last.barrier", "scope", "commits", "kind", "min_commits")).isEqualTo(1);
    assertThat(gauge("last.barrier", "scope", "commits", "kind", "below_max")).isZero();
    for (String phase : result.phases().keySet()) {
      assertThat(
              registry
                  .get("timeline.archive.phase")
                  .tags(Tags.of("table", "t1", "phase", phase))
                  .timer()
                  .count())
          .isEqualTo(1);
    }
    assertThat(registry.get("timeline.archive.duration").timer().totalTime(TimeUnit.NANOSECONDS))
        .isEqualTo((double) result.duration().toNanos());

    // a second run has nothing to do: counters stay, the barrier gauges move
    ArchiveResult second = archive(TestTables.SMALL_RETENTION);
    metrics.record(second);

    assertThat(second.archived()).isEmpty();
    assertThat(count("runs", "barrier", lower(second.barrier().kind()))).isEqualTo(1);
    assertThat(count("instant.files")).isEqualTo(result.archived().size());
    assertThat(gauge("last.barrier", "scope", "commits", "kind", "min_commits"))
        .isEqualTo(second.barrier().kind().name().equals("MIN_COMMITS") ? 1 : 0);
    assertThat(gauge("last.barrier", "scope", "commits", "kind", lower(second.barrier().kind())))
        .isEqualTo(1);
    assertThat(registry.get("timeline.archive.duration").timer().count()).isEqualTo(2);
  }

  @Test
  void tablesShareARegistryApart() throws Exception {
    TestTables.write(storage, base, TestTables.copyOnWrite(40));
    ArchiveMetrics first = ArchiveMetrics.create(registry, "t1");
    ArchiveMetrics other = ArchiveMetrics.create(registry, "t2");

    first.record(archive(TestTables.SMALL_RETENTION));

    assertThat(count("instant.files")).isPositive();
    assertThat(
            registry
                .get("timeline.archive.active.instant.files")
                .tags("table", "t2")
                .gauge()
                .value())
        .isZero();
    assertThat(registry.find("timeline.archive.instant.files").tags("table", "t2").counter())
        .isNull();
    assertThat(other).isNotNull();
  }

  @Test
  void archiveCoreDoesNotDependOnMicrometer() throws Exception {
    // the binding is optional: only this module may bring Micrometer in
    String corePom =
        java.nio.file.Files.readString(java.nio.file.Path.of("..", "archive-core", "pom.xml"));
    assertThat(corePom)
        .contains("<artifactId>archive-core</artifactId>")
        .doesNotContain("micrometer");
  }

  private static String lower(Enum<?> e) {
    return e.name().toLowerCase(java.util.Locale.ROOT);
  }
}
