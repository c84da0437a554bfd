package io.timelinearchive.hudi1;

import static io.timelinearchive.hudi1.Hudi1Reads.base;
import static io.timelinearchive.hudi1.Hudi1Reads.hudiInstant;
import static io.timelinearchive.hudi1.Hudi1Reads.metaClient;
import static io.timelinearchive.hudi1.Hudi1Reads.of;
import static io.timelinearchive.hudi1.Hudi1Reads.storage;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.archive.read.ArchiveReadOptions;
import io.timelinearchive.cli.TimelineArchiveCommand;
import io.timelinearchive.lsm.CorruptHistoryFileException;
import io.timelinearchive.lsm.Hudi1ActiveTimeline;
import io.timelinearchive.lsm.Hudi1Instant;
import io.timelinearchive.lsm.Hudi1TimelineFile;
import io.timelinearchive.lsm.LsmFileName;
import io.timelinearchive.lsm.LsmHistory;
import io.timelinearchive.lsm.LsmHistoryInstant;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.timeline.HoodieTable;
import io.timelinearchive.timeline.State;
import io.timelinearchive.timeline.TimelineFormat;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hudi.common.model.HoodieTableType;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieArchivedTimeline;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 21, reading: tables Apache Hudi 1.0.1's Java write client wrote with its own archiver on,
 * so that Hudi 1.0.1 itself moved most instants into its LSM history (layer-0 files compacted into
 * layer 1, several manifests, {@code _version_}). Our reader's active timeline and history are Hudi
 * 1.0.1's own, instant for instant (requested time, completion time, action, state) and byte for
 * byte (the details Hudi returns); together they hold every commit written; {@code show active} and
 * {@code show archived} list them; and a corrupt manifest, a missing history file or a garbled
 * {@code _version_} fails with the file named.
 */
class TestHudi1TimelineIsRead {
  /** Hudi's own archival, small, and its LSM compaction after every 2 files of a layer. */
  private static final Map<String, String> HUDI_ARCHIVAL =
      Map.of(
          "hoodie.archive.automatic", "true",
          "hoodie.keep.min.commits", "2",
          "hoodie.keep.max.commits", "3",
          "hoodie.clean.commits.retained", "1",
          "hoodie.cleaner.commits.retained", "1",
          "hoodie.compact.inline.max.delta.commits", "3",
          "hoodie.timeline.compaction.batch.size", "2");

  private static final int COMMITS = 24;

  private static final Map<HoodieTableType, Path> WRITTEN = new EnumMap<>(HoodieTableType.class);
  private static final Map<HoodieTableType, List<String>> COMMITTED =
      new EnumMap<>(HoodieTableType.class);
  private static Path fixtures;

  @TempDir Path tmp;

  @BeforeAll
  static void writeTablesWithHudi1() throws IOException {
    fixtures = Files.createTempDirectory("hudi1-lsm-tables");
    for (HoodieTableType type : HoodieTableType.values()) {
      Path dir = fixtures.resolve(type.name());
      COMMITTED.put(type, Hudi1Table.write(dir, type, HUDI_ARCHIVAL, COMMITS));
      WRITTEN.put(type, dir);
    }
  }

  @AfterAll
  static void deleteTables() throws IOException {
    Hudi1Tables.deleteTree(fixtures);
  }

  @ParameterizedTest
  @EnumSource(HoodieTableType.class)
  void hudiArchivedIntoAnLsmHistoryOfLayersAndManifests(HoodieTableType type) throws IOException {
    Path history = WRITTEN.get(type).resolve(".hoodie/timeline/history");
    List<String> names;
    try (Stream<Path> files = Files.list(history)) {
      names = files.map(p -> p.getFileName().toString()).sorted().toList();
    }
    assertThat(names).contains("_version_");
    String version = Files.readString(history.resolve("_version_"), UTF_8);
    assertThat(version).as("_version_ is the bare decimal number").matches("\\d+");
    assertThat(names).contains("manifest_" + version);
    String manifest = Files.readString(history.resolve("manifest_" + version), UTF_8);
    assertThat(manifest)
        .as("Hudi's manifest JSON")
        .startsWith("{")
        .contains("\"files\"")
        .contains("\"fileName\"")
        .contains("\"fileLen\"");
    List<LsmFileName> parquet = names.stream().flatMap(n -> LsmFileName.parse(n).stream()).toList();
    assertThat(parquet).extracting(LsmFileName::layer).contains(0, 1);
    assertThat(names.stream().filter(n -> n.startsWith("manifest_"))).hasSizeGreaterThan(2);
  }

  @ParameterizedTest
  @EnumSource(HoodieTableType.class)
  void theActiveTimelineIsHudis(HoodieTableType type) throws IOException {
    Path table = WRITTEN.get(type);
    HoodieTableMetaClient hudi = metaClient(table);
    try (MetaStorage storage = storage(table)) {
      HoodieTable ours = HoodieTable.inspect(storage, base(table));
      assertThat(ours.format()).isEqualTo(TimelineFormat.HUDI_1_LSM);
      Hudi1ActiveTimeline active = Hudi1ActiveTimeline.load(storage, ours);

      assertThat(active.malformed()).isEmpty();
      // Hudi 1.x's active timeline keeps each instant once, in its latest state
      assertThat(active.latestStates())
          .extracting(f -> f.instant().toString())
          .containsExactlyElementsOf(
              hudi.getActiveTimeline().getInstants().stream().map(i -> of(i).toString()).toList());
      // every state file is listed: the requested and inflight ones of completed instants too
      assertThat(active.instants())
          .filteredOn(i -> i.state() == State.REQUESTED)
          .hasSizeGreaterThanOrEqualTo(active.latestStates().size());

      for (Hudi1TimelineFile file : active.latestStates()) {
        HoodieInstant instant = hudiInstant(hudi.getActiveTimeline().getInstants(), file.instant());
        assertThat(Hudi1ActiveTimeline.read(storage, file))
            .as("details of %s", file.instant())
            .isEqualTo(hudi.getActiveTimeline().getInstantDetails(instant).orElse(new byte[0]));
      }
    }
  }

  @ParameterizedTest
  @EnumSource(HoodieTableType.class)
  void theHistoryIsHudisWithTheSameMetadataBytes(HoodieTableType type) throws IOException {
    Path table = WRITTEN.get(type);
    HoodieTableMetaClient hudi = metaClient(table);
    HoodieArchivedTimeline archived = hudi.getArchivedTimeline();
    archived.loadInstantDetailsInMemory("0", "99999999999999999");
    try (MetaStorage storage = storage(table)) {
      LsmHistory history =
          LsmHistory.load(
              storage, HoodieTable.inspect(storage, base(table)), ArchiveReadOptions.all());

      assertThat(history.instants()).hasSizeGreaterThan(COMMITS / 2);
      assertThat(history.timeline())
          .extracting(Hudi1Instant::toString)
          .containsExactlyElementsOf(
              archived.getInstants().stream().map(i -> of(i).toString()).toList());
      for (LsmHistoryInstant row : history.instants()) {
        HoodieInstant instant = hudiInstant(archived.getInstants(), row.instant());
        assertThat(row.metadataBytes().orElse(null))
            .as("metadata of %s", row.instant())
            .isEqualTo(archived.getInstantDetails(instant).orElse(null));
      }

      // Hudi's reader gives a compaction's plan (a completed commit's row with a plan) in place
      // of its metadata when asked for plans
      archived.clearInstantDetailsFromMemory("0", "99999999999999999");
      archived.loadCompactionDetailsInMemory("0", "99999999999999999");
      List<LsmHistoryInstant> compactions =
          history.instants().stream()
              .filter(r -> r.action().equals("commit") && r.plan().isPresent())
              .toList();
      if (type == HoodieTableType.MERGE_ON_READ) {
        assertThat(compactions).as("compactions archived with their plans").isNotEmpty();
      }
      for (LsmHistoryInstant row : compactions) {
        HoodieInstant instant = hudiInstant(archived.getInstants(), row.instant());
        assertThat(row.planBytes().orElseThrow())
            .as("plan of %s", row.instant())
            .isEqualTo(archived.getInstantDetails(instant).orElse(null));
      }
    }
  }

  @ParameterizedTest
  @EnumSource(HoodieTableType.class)
  void activeAndHistoryTogetherHoldEveryCommitWrittenOnce(HoodieTableType type) throws IOException {
    Path table = WRITTEN.get(type);
    String completed = type == HoodieTableType.MERGE_ON_READ ? "deltacommit" : "commit";
    try (MetaStorage storage = storage(table)) {
      HoodieTable ours = HoodieTable.inspect(storage, base(table));
      List<Hudi1Instant> all =
          new ArrayList<>(
              LsmHistory.load(storage, ours, ArchiveReadOptions.metadataOnly()).timeline());
      List<Hudi1Instant> active = Hudi1ActiveTimeline.load(storage, ours).instants();
      Set<String> archivedKeys =
          all.stream().map(i -> i.requestedTime() + " " + i.action()).collect(Collectors.toSet());
      assertThat(active.stream().filter(Hudi1Instant::isCompleted))
          .as("no instant both active and archived")
          .noneMatch(i -> archivedKeys.contains(i.requestedTime() + " " + i.action()));
      all.addAll(active);
      Set<String> completedTimes =
          all.stream()
              .filter(i -> i.isCompleted() && i.action().equals(completed))
              .map(Hudi1Instant::requestedTime)
              .collect(Collectors.toCollection(TreeSet::new));
      assertThat(completedTimes).containsAll(COMMITTED.get(type));
    }
  }

  @ParameterizedTest
  @EnumSource(HoodieTableType.class)
  void showActiveAndShowArchivedListWhatHudiHolds(HoodieTableType type) throws IOException {
    Path table = WRITTEN.get(type);
    HoodieTableMetaClient hudi = metaClient(table);
    HoodieArchivedTimeline archived = hudi.getArchivedTimeline();

    Run active = run("show", "active", table.toString());
    assertThat(active.exit).as(active.err).isZero();
    List<String> expectedActive;
    try (MetaStorage storage = storage(table)) {
      expectedActive =
          Hudi1ActiveTimeline.load(storage, HoodieTable.inspect(storage, base(table)))
              .instants()
              .stream()
              .map(TestHudi1TimelineIsRead::line)
              .toList();
    }
    assertThat(active.out.lines().toList())
        .containsExactlyElementsOf(
            concat(
                expectedActive, expectedActive.size() + " instant file(s) in the active timeline"));
    assertThat(expectedActive)
        .as("every instant Hudi shows, in its latest state, has its line")
        .containsAll(
            hudi.getActiveTimeline().getInstants().stream().map(i -> line(of(i))).toList());

    Run history = run("show", "archived", table.toString());
    assertThat(history.exit).as(history.err).isZero();
    List<String> expectedHistory = archived.getInstants().stream().map(i -> line(of(i))).toList();
    assertThat(history.out.lines().toList())
        .containsExactlyElementsOf(
            concat(expectedHistory, expectedHistory.size() + " instant file(s) in the history"));

    Run details = run("show", "archived", table.toString(), "--details", "--limit", "1");
    assertThat(details.exit).as(details.err).isZero();
    assertThat(details.out).contains("\"metadataBytes\"").contains("\"metadata\":{");

    Run json = run("--json", "show", "archived", table.toString());
    assertThat(json.exit).as(json.err).isZero();
    assertThat(json.out).contains("\"completionTime\"").contains("\"historyFiles\"");
  }

  @ParameterizedTest
  @EnumSource(HoodieTableType.class)
  void aCorruptManifestIsAnErrorNamingIt(HoodieTableType type) throws IOException {
    Path table = copy(type);
    Path history = table.resolve(".hoodie/timeline/history");
    Path manifest = history.resolve("manifest_" + Files.readString(history.resolve("_version_")));
    String json = Files.readString(manifest);
    Files.writeString(manifest, json.substring(0, json.length() / 2));

    assertBadHistory(table, manifest, "not a JSON manifest");
  }

  @ParameterizedTest
  @EnumSource(HoodieTableType.class)
  void aMissingHistoryFileIsAnErrorNamingIt(HoodieTableType type) throws IOException {
    Path table = copy(type);
    Path history = table.resolve(".hoodie/timeline/history");
    String manifest = "manifest_" + Files.readString(history.resolve("_version_"));
    String listed =
        Files.readString(history.resolve(manifest))
            .lines()
            .filter(l -> l.contains("\"fileName\""))
            .map(l -> l.replaceAll(".*\"fileName\"\\s*:\\s*\"([^\"]+)\".*", "$1"))
            .findFirst()
            .orElseThrow();
    Files.delete(history.resolve(listed));

    assertBadHistory(table, history.resolve(listed), "is listed by");
  }

  @ParameterizedTest
  @EnumSource(HoodieTableType.class)
  void aGarbledVersionFileIsAnErrorNamingIt(HoodieTableType type) throws IOException {
    Path table = copy(type);
    Path version = table.resolve(".hoodie/timeline/history/_version_");
    Files.writeString(version, "v" + Files.readString(version) + "\u0000");

    assertBadHistory(table, version, "not a manifest version");
  }

  private static void assertBadHistory(Path table, Path file, String reason) throws IOException {
    String named = base(table).resolve(".hoodie/timeline/history/" + file.getFileName()).toString();
    try (MetaStorage storage = storage(table)) {
      HoodieTable ours = HoodieTable.inspect(storage, base(table));
      assertThatThrownBy(() -> LsmHistory.load(storage, ours, ArchiveReadOptions.all()))
          .isInstanceOf(CorruptHistoryFileException.class)
          .hasMessageContaining(named)
          .hasMessageContaining(reason);
    }
    Run run = run("show", "archived", table.toString());
    assertThat(run.exit).as(run.err).isEqualTo(3);
    assertThat(run.err.lines().findFirst().orElse(""))
        .startsWith("error: ")
        .contains(named)
        .contains(reason);
    assertThat(run.out).isEmpty();
    // the active timeline does not need the history
    assertThat(run("show", "active", table.toString()).exit).isZero();
  }

  private record Run(int exit, String out, String err) {}

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit = TimelineArchiveCommand.run(args, new PrintWriter(out), new PrintWriter(err));
    return new Run(exit, out.toString(), err.toString());
  }

  private static List<String> concat(List<String> lines, String last) {
    List<String> all = new ArrayList<>(lines);
    all.add(last);
    return all;
  }

  /** The line {@code show} prints for an instant. */
  private static String line(Hudi1Instant i) {
    return i.requestedTime()
        + " "
        + i.action()
        + " "
        + i.state()
        + i.completionTime().map(c -> " " + c).orElse("");
  }

  private Path copy(HoodieTableType type) throws IOException {
    return Hudi1Tables.copy(WRITTEN.get(type), tmp.resolve(type.name().toLowerCase()));
  }
}
