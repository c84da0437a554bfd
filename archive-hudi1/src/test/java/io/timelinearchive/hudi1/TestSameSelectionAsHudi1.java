package io.timelinearchive.hudi1;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.lsm.Hudi1ActiveTimeline;
import io.timelinearchive.lsm.Hudi1Selection;
import io.timelinearchive.lsm.Hudi1TableFacts;
import io.timelinearchive.select.ArchivalPlan;
import io.timelinearchive.select.ArchivalPolicy;
import io.timelinearchive.select.InstantSelector;
import io.timelinearchive.select.MetadataTableRules;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.HoodieTable;
import io.timelinearchive.timeline.TimelineFile;
import io.timelinearchive.timeline.TimelineFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hudi.common.model.HoodieTableType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Selection on Hudi 1.x tables against Apache Hudi 1.0.1's own archiver: each scenario's table is
 * written by Hudi 1.0.1's Java write client (its archival off), then copied; Hudi's {@code
 * TimelineArchiverV2} archives the copy once, and our plan of the original, by the same settings,
 * names exactly the instant files Hudi's run took out of {@code .hoodie/timeline/}.
 */
class TestSameSelectionAsHudi1 {
  private static final List<String> OUTCOMES = new ArrayList<>();

  @TempDir Path tmp;

  /** A table Hudi writes, and the archival settings both archivers then apply. */
  record Scenario(
      String name,
      HoodieTableType type,
      Map<String, String> writeSettings,
      Map<String, String> archival,
      Script script) {
    @Override
    public String toString() {
      return name;
    }
  }

  interface Script {
    void write(Hudi1Table table);
  }

  private static Map<String, String> keep(int min, int max, int cleanerRetained) {
    Map<String, String> m = new HashMap<>();
    m.put("hoodie.keep.min.commits", String.valueOf(min));
    m.put("hoodie.keep.max.commits", String.valueOf(max));
    m.put("hoodie.clean.commits.retained", String.valueOf(cleanerRetained));
    m.put("hoodie.cleaner.commits.retained", String.valueOf(cleanerRetained));
    return m;
  }

  private static Map<String, String> with(Map<String, String> base, String... pairs) {
    Map<String, String> m = new HashMap<>(base);
    for (int i = 0; i < pairs.length; i += 2) {
      m.put(pairs[i], pairs[i + 1]);
    }
    return m;
  }

  private static final Map<String, String> CLUSTERING =
      Map.of(
          "hoodie.parquet.small.file.limit", "0",
          "hoodie.clustering.plan.strategy.class",
              "org.apache.hudi.client.clustering.plan.strategy.JavaSizeBasedClusteringPlanStrategy",
          "hoodie.clustering.execution.strategy.class",
              "org.apache.hudi.client.clustering.run.strategy.JavaSortAndSizeExecutionStrategy");

  private static void commits(Hudi1Table table, int n) {
    for (int i = 0; i < n; i++) {
      table.commit();
    }
  }

  private static void inserts(Hudi1Table table, int n) {
    for (int i = 0; i < n; i++) {
      table.insertCommit();
    }
  }

  static List<Scenario> scenarios() {
    HoodieTableType cow = HoodieTableType.COPY_ON_WRITE;
    HoodieTableType mor = HoodieTableType.MERGE_ON_READ;
    List<Scenario> s = new ArrayList<>();
    s.add(new Scenario("cow, cleans", cow, Map.of(), keep(2, 4, 1), t -> commits(t, 12)));
    s.add(new Scenario("cow, min 4 max 6", cow, Map.of(), keep(4, 6, 1), t -> commits(t, 14)));
    s.add(new Scenario("cow, max reached", cow, Map.of(), keep(3, 12, 1), t -> commits(t, 12)));
    s.add(
        new Scenario(
            "cow, cleaner widens min and max", cow, Map.of(), keep(2, 3, 5), t -> commits(t, 12)));
    s.add(
        new Scenario(
            "cow, cleaner keeps by hours",
            cow,
            Map.of(),
            with(
                keep(2, 4, 1),
                "hoodie.cleaner.policy",
                "KEEP_LATEST_BY_HOURS",
                "hoodie.cleaner.hours.retained",
                "1"),
            t -> commits(t, 10)));
    s.add(
        new Scenario(
            "cow, cleaner keeps file versions",
            cow,
            Map.of(),
            with(keep(2, 4, 1), "hoodie.cleaner.policy", "KEEP_LATEST_FILE_VERSIONS"),
            t -> commits(t, 10)));
    s.add(
        new Scenario(
            "cow, savepoint",
            cow,
            Map.of(),
            keep(2, 4, 1),
            t -> {
              commits(t, 3);
              t.savepoint(t.commit());
              commits(t, 8);
            }));
    s.add(
        new Scenario(
            "cow, archive beyond savepoint",
            cow,
            Map.of(),
            with(keep(2, 4, 1), "hoodie.archive.beyond.savepoint", "true"),
            t -> {
              commits(t, 3);
              t.savepoint(t.commit());
              commits(t, 8);
            }));
    s.add(
        new Scenario(
            "cow, rollbacks",
            cow,
            Map.of(),
            keep(2, 4, 1),
            t -> {
              for (int i = 0; i < 4; i++) {
                commits(t, 2);
                t.failedWrite();
              }
              commits(t, 4);
            }));
    s.add(
        new Scenario(
            "cow, pending commit last",
            cow,
            Map.of(),
            keep(2, 4, 1),
            t -> {
              commits(t, 10);
              t.failedWrite();
            }));
    s.add(
        new Scenario(
            "cow, inline clustering",
            cow,
            with(
                CLUSTERING,
                "hoodie.clustering.inline",
                "true",
                "hoodie.clustering.inline.max.commits",
                "3"),
            keep(2, 4, 1),
            t -> inserts(t, 14)));
    s.add(
        new Scenario(
            "cow, inline clustering, cleaner keeps file versions",
            cow,
            with(
                CLUSTERING,
                "hoodie.clustering.inline",
                "true",
                "hoodie.clustering.inline.max.commits",
                "4"),
            with(keep(2, 4, 1), "hoodie.cleaner.policy", "KEEP_LATEST_FILE_VERSIONS"),
            t -> inserts(t, 14)));
    s.add(
        new Scenario(
            "cow, inline clustering, archive beyond savepoint",
            cow,
            with(
                CLUSTERING,
                "hoodie.clustering.inline",
                "true",
                "hoodie.clustering.inline.max.commits",
                "3"),
            with(keep(2, 4, 1), "hoodie.archive.beyond.savepoint", "true"),
            t -> {
              inserts(t, 2);
              t.savepoint(t.insertCommit());
              inserts(t, 12);
            }));
    s.add(
        new Scenario(
            "mor, inline clustering",
            mor,
            with(
                CLUSTERING,
                "hoodie.clustering.inline",
                "true",
                "hoodie.clustering.inline.max.commits",
                "3",
                "hoodie.compact.inline.max.delta.commits",
                "4"),
            with(keep(2, 4, 1), "hoodie.compact.inline.max.delta.commits", "4"),
            t -> inserts(t, 14)));
    s.add(
        new Scenario(
            "cow, pending clustering",
            cow,
            CLUSTERING,
            keep(2, 4, 1),
            t -> {
              inserts(t, 8);
              t.scheduleClustering();
              inserts(t, 4);
            }));
    s.add(
        new Scenario(
            "mor, inline compaction",
            mor,
            Map.of("hoodie.compact.inline.max.delta.commits", "3"),
            with(keep(2, 4, 1), "hoodie.compact.inline.max.delta.commits", "3"),
            t -> commits(t, 14)));
    s.add(
        new Scenario(
            "mor, compaction keeps delta commits",
            mor,
            Map.of("hoodie.compact.inline.max.delta.commits", "4"),
            with(keep(2, 3, 1), "hoodie.compact.inline.max.delta.commits", "7"),
            t -> commits(t, 14)));
    s.add(
        new Scenario(
            "mor, pending compaction",
            mor,
            Map.of("hoodie.compact.inline", "false"),
            with(keep(2, 4, 1), "hoodie.compact.inline.max.delta.commits", "3"),
            t -> {
              commits(t, 4);
              t.scheduleCompaction();
              commits(t, 8);
            }));
    s.add(
        new Scenario(
            "mor, rollbacks",
            mor,
            Map.of("hoodie.compact.inline.max.delta.commits", "3"),
            with(keep(2, 4, 1), "hoodie.compact.inline.max.delta.commits", "3"),
            t -> {
              for (int i = 0; i < 4; i++) {
                commits(t, 2);
                t.failedWrite();
              }
              commits(t, 4);
            }));
    s.add(
        new Scenario(
            "mor, savepoint",
            mor,
            Map.of("hoodie.compact.inline.max.delta.commits", "3"),
            with(keep(2, 4, 1), "hoodie.compact.inline.max.delta.commits", "3"),
            t -> {
              commits(t, 3);
              t.savepoint(t.commit());
              commits(t, 8);
            }));
    s.add(
        new Scenario(
            "cow, metadata table",
            cow,
            Map.of("hoodie.metadata.enable", "true"),
            keep(2, 4, 1),
            t -> commits(t, 14)));
    s.add(
        new Scenario(
            "cow, metadata table compacted rarely",
            cow,
            Map.of(
                "hoodie.metadata.enable", "true", "hoodie.metadata.compact.max.delta.commits", "7"),
            keep(2, 4, 1),
            t -> commits(t, 12)));
    s.add(
        new Scenario(
            "cow, metadata table not compacted yet",
            cow,
            Map.of(
                "hoodie.metadata.enable",
                "true",
                "hoodie.metadata.compact.max.delta.commits",
                "50"),
            keep(2, 4, 1),
            t -> commits(t, 10)));
    s.add(
        new Scenario(
            "mor, metadata table",
            mor,
            Map.of(
                "hoodie.metadata.enable", "true", "hoodie.compact.inline.max.delta.commits", "3"),
            with(keep(2, 4, 1), "hoodie.compact.inline.max.delta.commits", "3"),
            t -> commits(t, 14)));
    s.add(
        new Scenario(
            "mor, compaction trigger by time",
            mor,
            Map.of("hoodie.compact.inline", "false"),
            with(
                keep(2, 4, 1),
                "hoodie.compact.inline.trigger.strategy",
                "TIME_ELAPSED",
                "hoodie.compact.inline.max.delta.commits",
                "20"),
            t -> commits(t, 12)));
    return s;
  }

  @AfterAll
  static void report() {
    System.out.println("Selection on Hudi 1.x tables, ours against Hudi 1.0.1's archiver:");
    OUTCOMES.forEach(o -> System.out.println("  " + o));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void ourPlanNamesTheFilesHudisArchiverTakes(Scenario scenario) throws IOException {
    Path original = tmp.resolve("table");
    Map<String, String> write = new HashMap<>(scenario.writeSettings());
    write.putAll(scenario.archival());
    // Hudi writes the table with its own archival off (Hudi1Table's default)
    write.put("hoodie.archive.automatic", "false");
    try (Hudi1Table table = Hudi1Table.create(original, scenario.type(), write)) {
      scenario.script().write(table);
    }
    Path copy = Hudi1Tables.copy(original, tmp.resolve("copy"));

    Set<String> before = timelineNames(copy);
    try (Hudi1Table hudi = Hudi1Table.open(copy, scenario.type(), write)) {
      hudi.archive();
    }
    Set<String> after = timelineNames(copy);
    assertThat(after).as("Hudi's archiver only deletes instant files").isSubsetOf(before);
    Set<String> hudiTook = new TreeSet<>(before);
    hudiTook.removeAll(after);

    ArchivalPlan plan = ours(original, scenario.archival(), TimelineFormat.HUDI_1_LSM);
    ArchivalPlan by015 = ours(original, scenario.archival(), TimelineFormat.HUDI_0);
    Set<String> weTake = new TreeSet<>();
    try (MetaStorage storage = MetaStorages.open(base(original), Map.of())) {
      HoodieTable table = HoodieTable.inspect(storage, base(original));
      for (TimelineFile file :
          Hudi1ActiveTimeline.load(storage, table).asActiveTimeline().filesOf(plan.files())) {
        weTake.add(file.file().name());
      }
    }
    OUTCOMES.add(
        scenario.name()
            + ": Hudi took "
            + hudiTook.size()
            + " of "
            + before.size()
            + " files, we "
            + weTake.size()
            + (hudiTook.equals(weTake) ? " (same)" : " (DIFFERENT)")
            + ", Hudi 0.15's rules "
            + by015.files().size()
            + "; "
            + plan.barrier());
    assertThat(weTake)
        .as("%s: %s", scenario.name(), plan.barriers())
        .containsExactlyElementsOf(hudiTook);
  }

  static List<Scenario> metadataTableScenarios() {
    return List.of(
        new Scenario(
            "cow, the metadata table itself",
            HoodieTableType.COPY_ON_WRITE,
            Map.of("hoodie.metadata.enable", "true"),
            keep(2, 4, 1),
            t -> commits(t, 16)),
        new Scenario(
            "cow, the metadata table itself, below its cleaner's retention",
            HoodieTableType.COPY_ON_WRITE,
            Map.of(
                "hoodie.metadata.enable", "true", "hoodie.metadata.compact.max.delta.commits", "3"),
            with(keep(2, 4, 1), "hoodie.metadata.compact.max.delta.commits", "3"),
            t -> commits(t, 8)),
        new Scenario(
            "mor, the metadata table itself",
            HoodieTableType.MERGE_ON_READ,
            Map.of(
                "hoodie.metadata.enable",
                "true",
                "hoodie.metadata.compact.max.delta.commits",
                "4",
                "hoodie.compact.inline.max.delta.commits",
                "3"),
            with(
                keep(2, 4, 1),
                "hoodie.compact.inline.max.delta.commits",
                "3",
                "hoodie.metadata.compact.max.delta.commits",
                "4"),
            t -> commits(t, 16)));
  }

  /**
   * A metadata table, archived by the rules Hudi 1.0.1's metadata writer gives it, once Hudi has
   * archived its data table (which Hudi 1.0.1 itself archives after each data commit, bounded by
   * the data table's earliest commit, so nothing is left to take before that).
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("metadataTableScenarios")
  void ourPlanOfAMetadataTableNamesTheFilesHudisArchiverTakes(Scenario scenario)
      throws IOException {
    Path original = tmp.resolve("table");
    Map<String, String> write = new HashMap<>(scenario.writeSettings());
    write.putAll(scenario.archival());
    write.put("hoodie.archive.automatic", "false");
    try (Hudi1Table table = Hudi1Table.create(original, scenario.type(), write)) {
      scenario.script().write(table);
    }
    Path state = Hudi1Tables.copy(original, tmp.resolve("state"));
    try (Hudi1Table hudi = Hudi1Table.open(state, scenario.type(), write)) {
      hudi.archive();
    }
    Path copy = Hudi1Tables.copy(state, tmp.resolve("copy"));
    Path metadata = Path.of(".hoodie", "metadata");

    Set<String> before = timelineNames(copy.resolve(metadata));
    try (Hudi1Table hudi = Hudi1Table.openMetadataTable(copy, scenario.type(), write)) {
      hudi.archive();
    }
    Set<String> after = timelineNames(copy.resolve(metadata));
    assertThat(after).isSubsetOf(before);
    Set<String> hudiTook = new TreeSet<>(before);
    hudiTook.removeAll(after);

    ArchivalPlan plan =
        ours(state.resolve(metadata), scenario.archival(), TimelineFormat.HUDI_1_LSM);
    Set<String> weTake = new TreeSet<>();
    try (MetaStorage storage = MetaStorages.open(base(state), Map.of())) {
      HoodieTable table = HoodieTable.inspect(storage, base(state.resolve(metadata)));
      for (TimelineFile file :
          Hudi1ActiveTimeline.load(storage, table).asActiveTimeline().filesOf(plan.files())) {
        weTake.add(file.file().name());
      }
    }
    OUTCOMES.add(
        scenario.name()
            + ": Hudi took "
            + hudiTook.size()
            + " of "
            + before.size()
            + " files, we "
            + weTake.size()
            + (hudiTook.equals(weTake) ? " (same)" : " (DIFFERENT)")
            + "; "
            + plan.barrier());
    assertThat(weTake)
        .as("%s: %s", scenario.name(), plan.barriers())
        .containsExactlyElementsOf(hudiTook);
  }

  /** Our plan by Hudi 1.0.1's rules (the entry the archiver calls), or by 0.15's for contrast. */
  private static ArchivalPlan ours(Path table, Map<String, String> archival, TimelineFormat rules)
      throws IOException {
    try (MetaStorage storage = MetaStorages.open(base(table), Map.of())) {
      HoodieTable hoodieTable = HoodieTable.inspect(storage, base(table));
      Hudi1ActiveTimeline active = Hudi1ActiveTimeline.load(storage, hoodieTable);
      ArchivalPolicy policy = ArchivalPolicy.fromConfig(archival);
      if (rules == TimelineFormat.HUDI_1_LSM) {
        return Hudi1Selection.plan(
            storage,
            hoodieTable,
            active,
            policy,
            MetadataTableRules.fromConfig(archival),
            Instant.now());
      }
      return InstantSelector.plan(
          active.asActiveTimeline().timeline(),
          Hudi1TableFacts.load(storage, hoodieTable, active),
          policy,
          Instant.now(),
          rules);
    }
  }

  private static StorageLocation base(Path table) {
    return StorageLocation.of(table.toUri().toString());
  }

  /**
   * The files directly in {@code .hoodie/timeline/}, but for the checksum files ({@code .N.crc})
   * Hadoop's local file system keeps beside each.
   */
  private static Set<String> timelineNames(Path table) throws IOException {
    try (Stream<Path> files = Files.list(table.resolve(".hoodie/timeline"))) {
      return files
          .filter(Files::isRegularFile)
          .map(p -> p.getFileName().toString())
          .filter(n -> !(n.startsWith(".") && n.endsWith(".crc")))
          .collect(Collectors.toCollection(TreeSet::new));
    }
  }
}
