package io.timelinearchive.lsm;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.select.ArchivalPlan;
import io.timelinearchive.select.ArchivalPolicy;
import io.timelinearchive.select.Barrier.Kind;
import io.timelinearchive.select.Barrier.Scope;
import io.timelinearchive.select.MetadataTableRules;
import io.timelinearchive.select.TableFacts;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.ActiveTimeline;
import io.timelinearchive.timeline.HoodieTable;
import io.timelinearchive.timeline.InstantKey;
import io.timelinearchive.timeline.State;
import io.timelinearchive.timeline.TimelineFile;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Hudi 1.x table's timeline as archive-core's model, its facts as Hudi 1.0.1 reads them, and the
 * plan {@link Hudi1Selection} makes of them. (Against Hudi 1.0.1's own archiver: archive-hudi1's
 * TestSameSelectionAsHudi1.)
 */
class TestHudi1Selection {
  private static final String VERSION_8 =
      "hoodie.table.name=t\nhoodie.table.version=8\nhoodie.timeline.layout.version=2\n"
          + "hoodie.table.timeline.timezone=UTC\n";
  private static final Schema CLEANER_PLAN =
      new Schema.Parser()
          .parse(
              """
              {"type": "record", "name": "HoodieCleanerPlan",
               "namespace": "org.apache.hudi.avro.model", "fields": [
                 {"name": "earliestInstantToRetain", "type": ["null", {"type": "record",
                   "name": "HoodieActionInstant", "fields": [
                     {"name": "timestamp", "type": "string"},
                     {"name": "action", "type": "string"},
                     {"name": "state", "type": "string"}]}], "default": null},
                 {"name": "policy", "type": "string"},
                 {"name": "extraMetadata", "type": ["null", {"type": "map", "values": "string"}],
                  "default": null}]}
              """);

  @TempDir Path dir;

  private Path table(Path base, String properties, String... timelineFiles) throws IOException {
    Path meta = Files.createDirectories(base.resolve(".hoodie"));
    Files.writeString(meta.resolve("hoodie.properties"), properties);
    Files.createDirectories(meta.resolve("timeline/history"));
    for (String name : timelineFiles) {
      Files.writeString(meta.resolve("timeline").resolve(name), "");
    }
    return base;
  }

  private static StorageLocation location(Path base) {
    return StorageLocation.of(base.toUri().toString());
  }

  private static byte[] cleanerPlan(String earliestToRetain, String savepointed)
      throws IOException {
    GenericRecord retain =
        new GenericData.Record(
            CLEANER_PLAN.getField("earliestInstantToRetain").schema().getTypes().get(1));
    retain.put("timestamp", earliestToRetain);
    retain.put("action", "commit");
    retain.put("state", "COMPLETED");
    GenericRecord plan = new GenericData.Record(CLEANER_PLAN);
    plan.put("earliestInstantToRetain", retain);
    plan.put("policy", "KEEP_LATEST_COMMITS");
    plan.put("extraMetadata", Map.of("savepointed_timestamps", savepointed));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (DataFileWriter<GenericRecord> writer =
        new DataFileWriter<>(new GenericDatumWriter<GenericRecord>(CLEANER_PLAN))) {
      writer.create(CLEANER_PLAN, out);
      writer.append(plan);
    }
    return out.toByteArray();
  }

  private static ArchivalPolicy policy(String... keyValues) {
    Map<String, String> config = new java.util.HashMap<>();
    config.put("hoodie.keep.min.commits", "2");
    config.put("hoodie.keep.max.commits", "3");
    config.put("hoodie.cleaner.policy", "KEEP_LATEST_FILE_VERSIONS");
    for (int i = 0; i < keyValues.length; i += 2) {
      config.put(keyValues[i], keyValues[i + 1]);
    }
    return ArchivalPolicy.fromConfig(config);
  }

  @Test
  void theTimelineAsCoresModelKeepsTheRealNamesAndTheCompletionTimes() throws IOException {
    Path base =
        table(
            dir,
            VERSION_8,
            "101.commit.requested",
            "101.inflight",
            "101_105.commit",
            "103.clustering.requested",
            "103.clustering.inflight",
            "103_107.replacecommit",
            "109.clustering.requested");
    try (MetaStorage storage = MetaStorages.open(location(base), Map.of())) {
      Hudi1ActiveTimeline active =
          Hudi1ActiveTimeline.load(storage, HoodieTable.inspect(storage, location(base)));
      ActiveTimeline core = active.asActiveTimeline();
      assertThat(core.files())
          .extracting(f -> f.file().name() + " " + f.instant())
          .containsExactly(
              "101.commit.requested 101 commit REQUESTED",
              "101.inflight 101 commit INFLIGHT",
              "101_105.commit 101 commit COMPLETED",
              "103.clustering.requested 103 clustering REQUESTED",
              "103.clustering.inflight 103 clustering INFLIGHT",
              "103_107.replacecommit 103 replacecommit COMPLETED",
              "109.clustering.requested 109 clustering REQUESTED");
      assertThat(core.metaFolder()).isEqualTo(active.folder());
      assertThat(active.completionTimes())
          .containsExactlyInAnyOrderEntriesOf(
              Map.of(
                  new InstantKey("101", Action.COMMIT), "105",
                  new InstantKey("103", Action.REPLACE_COMMIT), "107"));
    }
  }

  @Test
  void theMetadataTablesLatestCompactionIsItsLatestCommitOrReplacecommitByRequestedTime()
      throws IOException {
    Path base =
        table(
            dir,
            VERSION_8 + "hoodie.table.metadata.partitions=files\n",
            "101_102.commit",
            "103_104.commit");
    table(
        base.resolve(".hoodie/metadata"),
        VERSION_8 + "hoodie.table.type=MERGE_ON_READ\n",
        "100_101.deltacommit",
        "102.compaction.requested",
        "102_106.commit",
        "104_105.deltacommit");
    try (MetaStorage storage = MetaStorages.open(location(base), Map.of())) {
      HoodieTable table = HoodieTable.inspect(storage, location(base));
      TableFacts facts =
          Hudi1TableFacts.load(storage, table, Hudi1ActiveTimeline.load(storage, table));
      // requested at 102, though it completed after 104 was requested
      assertThat(facts.metadataTable()).contains(TableFacts.MetadataTable.compactedAt("102"));
      assertThat(facts.completionTimes())
          .containsEntry(new InstantKey("103", Action.COMMIT), "104");
    }
  }

  @Test
  void withoutAMetadataTableFolderNothingIsCompacted() throws IOException {
    Path base =
        table(dir, VERSION_8 + "hoodie.table.metadata.partitions=files\n", "101_102.commit");
    try (MetaStorage storage = MetaStorages.open(location(base), Map.of())) {
      HoodieTable table = HoodieTable.inspect(storage, location(base));
      assertThat(
              Hudi1TableFacts.load(storage, table, Hudi1ActiveTimeline.load(storage, table))
                  .metadataTable())
          .contains(TableFacts.MetadataTable.notCompactedYet());
    }
  }

  @Test
  void theLatestCleansPlanIsReadWithItsSavepointsWhereAReplacecommitMakesItMatter()
      throws IOException {
    Path base =
        table(
            dir,
            VERSION_8,
            "101_102.commit",
            "103.clustering.requested",
            "103_104.replacecommit",
            "105.clean.inflight",
            "105_106.clean",
            "107.clean.inflight",
            "107_108.clean");
    Files.write(base.resolve(".hoodie/timeline/105.clean.requested"), cleanerPlan("100", ""));
    Files.write(
        base.resolve(".hoodie/timeline/107.clean.requested"), cleanerPlan("103", "101,099"));
    try (MetaStorage storage = MetaStorages.open(location(base), Map.of())) {
      HoodieTable table = HoodieTable.inspect(storage, location(base));
      TableFacts facts =
          Hudi1TableFacts.load(storage, table, Hudi1ActiveTimeline.load(storage, table));
      assertThat(facts.latestClean())
          .contains(new TableFacts.LatestClean("107", Optional.of("103"), List.of("101", "099")));
    }
  }

  @Test
  void thePlanNamesTheRealFilesOfTheInstantsItTakes() throws IOException {
    Path base =
        table(
            dir,
            VERSION_8,
            "101.commit.requested",
            "101.inflight",
            "101_102.commit",
            "1025.clean.requested",
            "1025.clean.inflight",
            "1025_1026.clean",
            "103.commit.requested",
            "103.inflight",
            "103_104.commit",
            "105.commit.requested",
            "105.inflight",
            "105_106.commit",
            "107.commit.requested",
            "107.inflight",
            "107_108.commit",
            "1075.clean.requested",
            "1075.clean.inflight",
            "1075_1076.clean");
    try (MetaStorage storage = MetaStorages.open(location(base), Map.of())) {
      HoodieTable table = HoodieTable.inspect(storage, location(base));
      Hudi1ActiveTimeline active = Hudi1ActiveTimeline.load(storage, table);
      ArchivalPlan plan =
          Hudi1Selection.plan(
              storage,
              table,
              active,
              policy(),
              MetadataTableRules.fromConfig(Map.of()),
              Instant.now());
      assertThat(active.asActiveTimeline().filesOf(plan.files()))
          .extracting(f -> f.file().name())
          .containsExactly(
              "101.commit.requested",
              "101.inflight",
              "101_102.commit",
              "1025.clean.requested",
              "1025.clean.inflight",
              "1025_1026.clean",
              "103.commit.requested",
              "103.inflight",
              "103_104.commit");
      assertThat(plan.barrier(Scope.CLEAN).kind()).isEqualTo(Kind.NEWEST_COMMIT);
      assertThat(active.asActiveTimeline().filesOf(plan.files()))
          .extracting(TimelineFile::file)
          .allMatch(f -> f.location().toString().contains("/.hoodie/timeline/"));
    }
  }

  @Test
  void aMetadataTableIsArchivedByItsWritersRulesUpToItsDataTablesEarliestInstant()
      throws IOException {
    Path base = table(dir, VERSION_8, "1015_1016.commit", "104.commit.requested");
    Path metadata =
        table(
            base.resolve(".hoodie/metadata"),
            VERSION_8 + "hoodie.table.type=MERGE_ON_READ\n",
            "1005.compaction.requested",
            "1005_1006.commit",
            "101_1011.deltacommit",
            "102_1021.deltacommit",
            "103_1031.deltacommit",
            "1035_1036.deltacommit",
            "105_1051.deltacommit",
            "106_1061.deltacommit",
            "107_1071.deltacommit");
    try (MetaStorage storage = MetaStorages.open(location(base), Map.of())) {
      HoodieTable table = HoodieTable.inspect(storage, location(metadata));
      assertThat(table.isMetadataTable()).isTrue();
      // the metadata table keeps min 3, max 4 here (one more than its data table's 2 and 3), and
      // compacts every 2 delta commits
      ArchivalPlan plan =
          Hudi1Selection.plan(
              storage,
              table,
              Hudi1ActiveTimeline.load(storage, table),
              policy(),
              new MetadataTableRules(2),
              Instant.now());
      assertThat(plan.minCommits()).isEqualTo(3);
      assertThat(plan.instants()).extracting(InstantKey::time).containsExactly("1005", "101");
      assertThat(plan.barrier().kind()).isEqualTo(Kind.DATA_TABLE);
      assertThat(plan.barrier().instantTime()).contains("1015");
      assertThat(plan.files())
          .contains(new TimelineInstant("101", Action.DELTA_COMMIT, State.COMPLETED));
    }
  }
}
