package io.timelinearchive.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.format.ArchiveFileName;
import io.timelinearchive.format.ArchiveMergePlan;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.WithoutAppendMetaStorage;
import io.timelinearchive.storage.memory.InMemoryMetaStorageFactory;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link MergeScenarios} in memory and on local disk, and what only one store needs. */
class TestArchiveMerger {
  @TempDir Path dir;
  private final StorageLocation memoryBase = TestTables.newMemoryTable();

  @AfterEach
  void dropVolume() {
    InMemoryMetaStorageFactory.dropVolume(memoryBase.authority());
  }

  private StorageLocation base(String store) {
    return store.equals("memory")
        ? memoryBase
        : StorageLocation.of(dir.resolve("t").toAbsolutePath().toString());
  }

  interface Scenario {
    void run(MetaStorage storage, StorageLocation base) throws Exception;
  }

  private void run(String store, Scenario scenario) throws Exception {
    StorageLocation base = base(store);
    try (MetaStorage storage = MetaStorages.open(base, Map.of())) {
      scenario.run(storage, base);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "file"})
  void mergesABatchOfSmallFiles(String store) throws Exception {
    run(store, MergeScenarios::mergesABatchOfSmallFiles);
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "file"})
  void mergeFollowsTheSettingAndTheStore(String store) throws Exception {
    run(store, MergeScenarios::mergeFollowsTheSettingAndTheStore);
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "file"})
  void readersSeeEachEntryOnceWhileAPlanIsThere(String store) throws Exception {
    run(store, MergeScenarios::readersSeeEachEntryOnceWhileAPlanIsThere);
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "file"})
  void recoversFromAPlanLeftAtAnyStep(String store) throws Exception {
    run(store, MergeScenarios::recoversFromAPlanLeftAtAnyStep);
  }

  @Test
  void fewerSmallFilesThanTheBatchOrFilesAboveTheLimitAreNotMerged() throws Exception {
    try (MetaStorage memory = MetaStorages.open(memoryBase, Map.of())) {
      MetaStorage storage = new WithoutAppendMetaStorage(memory);
      io.timelinearchive.sample.SampleTable.write(storage, memoryBase, MergeScenarios.table());
      MutableClock clock = new MutableClock(java.time.Instant.parse("2026-11-29T12:00:00Z"));
      // the default batch (10) is never reached by four runs
      for (int run = 1; run <= 4; run++) {
        assertThat(
                MergeScenarios.run(storage, memoryBase, MergeScenarios.capped(), clock)
                    .archiveFilesMerged())
            .isEmpty();
      }
      // every file is above a 100-byte limit: no candidate at all
      Map<String, String> tiny =
          MergeScenarios.capped(
              "hoodie.archive.merge.files.batch.size",
              "2",
              "hoodie.archive.merge.small.file.limit.bytes",
              "100");
      assertThat(MergeScenarios.run(storage, memoryBase, tiny, clock).archiveFilesMerged())
          .isEmpty();
      assertThat(MergeScenarios.archiveFiles(storage, memoryBase)).hasSize(5);
      // a limit between the sizes: only the newest run of files within it is merged
      List<io.timelinearchive.storage.FileEntry> files =
          MergeScenarios.archiveFiles(storage, memoryBase);
      long biggestOfFirst = files.get(0).length();
      io.timelinearchive.storage.FileEntry big = files.get(2);
      // make the third file the largest by far: the runs after it are the only candidates
      long limit =
          files.stream()
                  .filter(f -> f != big)
                  .mapToLong(io.timelinearchive.storage.FileEntry::length)
                  .max()
                  .getAsLong()
              + 1000;
      assertThat(biggestOfFirst).isLessThan(limit);
      byte[] padded = storage.read(big.location());
      byte[] twice = new byte[padded.length * 30];
      for (int i = 0; i < 30; i++) {
        System.arraycopy(padded, 0, twice, i * padded.length, padded.length);
      }
      storage.deleteAll(List.of(big.location()));
      storage.createExclusive(big.location(), twice);
      Map<String, String> limited =
          MergeScenarios.capped(
              "hoodie.archive.merge.files.batch.size",
              "2",
              "hoodie.archive.merge.small.file.limit.bytes",
              String.valueOf(limit));
      ArchiveResult result = MergeScenarios.run(storage, memoryBase, limited, clock);
      assertThat(result.archiveFilesMerged())
          .containsExactly(
              files.get(3).name(), files.get(4).name(), result.archiveFilesWritten().get(0).name());
      assertThat(MergeScenarios.archiveFiles(storage, memoryBase))
          .extracting(io.timelinearchive.storage.FileEntry::name)
          .containsExactly(
              files.get(0).name(), files.get(1).name(), big.name(), ArchiveFileName.of(7));
    }
  }

  @ParameterizedTest
  @CsvSource({
    "hoodie.archive.merge.enable, yes, is not true or false",
    "hoodie.archive.merge.files.batch.size, 1, must be at least 2",
    "hoodie.archive.merge.files.batch.size, ten, is not a whole number",
    "hoodie.archive.merge.small.file.limit.bytes, 0, must be at least 1",
    "hoodie.archive.merge.small.file.limit.bytes, 20MB, is not a whole number"
  })
  void badMergeSettingsNameTheKeyAndValue(String key, String value, String why) {
    Map<String, String> config = new HashMap<>(TestTables.SMALL_RETENTION);
    config.put(key, value);
    try (MetaStorage memory = MetaStorages.open(memoryBase, Map.of())) {
      assertThatThrownBy(
              () ->
                  TimelineArchiver.create(
                      memory, memoryBase, config, Clock.systemUTC(), ArchiveListener.NONE))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(key + "='" + value + "'")
          .hasMessageContaining(why);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void ourPlanParsesAsHudiWritesIt() {
    StorageLocation folder = memoryBase.resolve(".hoodie/archived");
    ArchiveMergePlan plan =
        new ArchiveMergePlan(
            List.of(ArchiveFileName.of(3), ArchiveFileName.of(4)), ArchiveFileName.of(5));
    byte[] bytes = plan.encode(folder);
    assertThat(ArchiveMergePlan.decode(bytes)).isEqualTo(new ArchiveMergePlan.Read.Parsed(plan));
    // an Avro object container: magic "Obj" 1, the schema embedded by its full name
    assertThat(new String(bytes, 0, 4, java.nio.charset.StandardCharsets.ISO_8859_1))
        .isEqualTo("Obj\u0001");
    assertThat(new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1))
        .contains("HoodieMergeArchiveFilePlan")
        .contains(folder.resolve(ArchiveFileName.of(3)).toString());
    for (int cut = 0; cut < bytes.length; cut += 7) {
      assertThat(ArchiveMergePlan.decode(java.util.Arrays.copyOf(bytes, cut)))
          .as("cut at %d", cut)
          .isInstanceOf(ArchiveMergePlan.Read.Unreadable.class);
    }
  }

  @Test
  void thePlanTellsReadersWhichCopyToSkip() {
    ArchiveMergePlan plan =
        new ArchiveMergePlan(
            List.of(ArchiveFileName.of(1), ArchiveFileName.of(2)), ArchiveFileName.of(3));
    String a = ArchiveFileName.of(1);
    String b = ArchiveFileName.of(2);
    String m = ArchiveFileName.of(3);
    assertThat(plan.shadowed(List.of(a, b))).isEmpty();
    assertThat(plan.shadowed(List.of(a, b, m))).containsExactly(m);
    assertThat(plan.shadowed(List.of(b, m))).containsExactly(b);
    assertThat(plan.shadowed(List.of(m))).isEmpty();
    assertThat(plan.shadowed(List.of(a))).isEmpty();
  }
}
