package io.timelinearchive.hudi1;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.archive.TimelineArchiver;
import io.timelinearchive.archive.restore.TimelineRestorer;
import io.timelinearchive.cli.TimelineArchiveCommand;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.HoodieTable;
import io.timelinearchive.timeline.UnsupportedTableException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hudi.common.model.HoodieTableType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 16, part 1, against Apache Hudi 1.0.1 itself: a table its Java write client wrote (table
 * version 8, the timeline in {@code .hoodie/timeline/}), with more commits than the archival
 * settings keep, is refused by what only Hudi 0.x tables have (unarchive, in the library and as a
 * command, exit 3), the version named, and not one file or folder under it is created, changed or
 * removed; reading it is {@link TestHudi1TimelineIsRead}'s, archiving it {@link
 * TestWeArchiveHudi1Tables}'s. The same table after its {@code hoodie.properties} was edited to
 * claim version 6 is refused by every entry point and command, the show commands too: the layout on
 * disk wins.
 */
class TestHudi1TableIsRefused {
  /** Small enough that the tables written need archiving (Hudi's own archival is off). */
  private static final Map<String, String> ARCHIVAL =
      Map.of(
          "hoodie.keep.min.commits", "2",
          "hoodie.keep.max.commits", "3",
          "hoodie.cleaner.commits.retained", "1",
          "hoodie.compact.inline.max.delta.commits", "3");

  private static final int COMMITS = 8;
  private static final String VERSION_8 = "hoodie.table.version=8";
  private static final String TIMELINE_FOLDER = ".hoodie/timeline exists";

  private static final Map<HoodieTableType, Path> WRITTEN = new EnumMap<>(HoodieTableType.class);
  private static Path fixtures;

  @TempDir Path tmp;

  @BeforeAll
  static void writeTablesWithHudi1() throws IOException {
    fixtures = Files.createTempDirectory("hudi1-tables");
    for (HoodieTableType type : HoodieTableType.values()) {
      Path dir = fixtures.resolve(type.name());
      Map<String, String> writer = new TreeMap<>(ARCHIVAL);
      // Hudi 1.x's name for the cleaner's retention, so that the tables hold cleans too
      writer.put("hoodie.clean.commits.retained", "1");
      Hudi1Table.write(dir, type, writer, COMMITS);
      WRITTEN.put(type, dir);
    }
  }

  @AfterAll
  static void deleteTables() throws IOException {
    Hudi1Tables.deleteTree(fixtures);
  }

  @ParameterizedTest
  @EnumSource(HoodieTableType.class)
  void theTableIsOneHudi1WroteAndWouldNeedArchiving(HoodieTableType type) throws IOException {
    Path table = copy(type);

    assertThat(Files.readString(table.resolve(".hoodie/hoodie.properties")))
        .contains(VERSION_8)
        .contains("hoodie.table.type=" + type.name());
    String completed = type == HoodieTableType.MERGE_ON_READ ? "deltacommit" : "commit";
    try (Stream<Path> timeline = Files.list(table.resolve(".hoodie/timeline"))) {
      assertThat(
              timeline
                  .map(p -> p.getFileName().toString())
                  // Hudi 1.x names a completed instant <requested time>_<completion time>.<action>
                  .filter(name -> name.matches("\\d+_\\d+\\." + completed)))
          .as("completed %ss, more than hoodie.keep.max.commits=3", completed)
          .hasSizeGreaterThan(3);
    }
  }

  @ParameterizedTest
  @EnumSource(HoodieTableType.class)
  void theRestorerRefusesNamingTheVersion(HoodieTableType type) throws Exception {
    Path table = copy(type);
    SortedMap<String, String> before = snapshot(table);
    assertRestorerRefuses(table, VERSION_8, "is a Hudi 1.x table");
    assertUnchanged(table, before);
  }

  @ParameterizedTest
  @MethodSource("changingCommandsOnEachType")
  void unarchiveExits3NamingTheVersion(String command, HoodieTableType type) throws Exception {
    Path table = copy(type);
    assertCommandRefuses(table, command, VERSION_8, "is a Hudi 1.x table");
  }

  /**
   * The properties say table version 6 and timeline layout 1, as a 0.x table's do, but the instants
   * are in Hudi 1.x's {@code .hoodie/timeline/}: the layout on disk is what the gate goes by.
   */
  @ParameterizedTest
  @MethodSource("commandsOnEachType")
  void propertiesClaimingVersion6AreOverruledByTheTimelineFolder(
      String command, HoodieTableType type) throws Exception {
    Path table = copy(type);
    claimVersion6(table);
    assertCommandRefuses(table, command, TIMELINE_FOLDER);
  }

  @ParameterizedTest
  @EnumSource(HoodieTableType.class)
  void propertiesClaimingVersion6AreOverruledByTheTimelineFolderInTheLibrary(HoodieTableType type)
      throws Exception {
    Path table = copy(type);
    claimVersion6(table);
    assertLibraryRefuses(table, TIMELINE_FOLDER);
  }

  /**
   * Every command: on a table whose properties and layout disagree, the show commands refuse too.
   */
  static Stream<Arguments> commandsOnEachType() {
    return onEachType(List.of("plan", "archive", "show active", "show archived", "unarchive"));
  }

  /** The commands only Hudi 0.x tables have: Hudi 1.x tables are read, planned and archived. */
  static Stream<Arguments> changingCommandsOnEachType() {
    return onEachType(List.of("unarchive"));
  }

  private static Stream<Arguments> onEachType(List<String> commands) {
    List<Arguments> all = new ArrayList<>();
    for (String command : commands) {
      for (HoodieTableType type : HoodieTableType.values()) {
        all.add(Arguments.of(command, type));
      }
    }
    return all.stream();
  }

  private static void assertLibraryRefuses(Path table, String... named) throws IOException {
    SortedMap<String, String> before = snapshot(table);
    String uri = table.toUri().toString();
    try (TimelineArchiver archiver = TimelineArchiver.open(uri, ARCHIVAL)) {
      assertRefused(archiver::plan, named);
      assertRefused(archiver::rules, named);
      assertRefused(archiver::archiveIfRequired, named);
    }
    assertRestorerRefuses(table, named);
    assertUnchanged(table, before);
  }

  private static void assertRestorerRefuses(Path table, String... named) throws IOException {
    String uri = table.toUri().toString();
    try (TimelineRestorer restorer = TimelineRestorer.open(uri, ARCHIVAL)) {
      assertRefused(() -> restorer.restore("0", "99999999999999999", false, true), named);
      assertRefused(() -> restorer.restore("0", "99999999999999999", true, false), named);
    }
    StorageLocation base = StorageLocation.of(uri);
    try (MetaStorage storage = MetaStorages.open(base, Map.of())) {
      assertRefused(() -> HoodieTable.load(storage, base), named);
    }
  }

  private static void assertRefused(
      org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String... named) {
    var refusal =
        assertThatThrownBy(call)
            .isInstanceOf(UnsupportedTableException.class)
            .hasMessageContaining("nothing was changed");
    for (String n : named) {
      refusal.hasMessageContaining(n);
    }
  }

  private static void assertCommandRefuses(Path table, String command, String... named)
      throws IOException {
    SortedMap<String, String> before = snapshot(table);
    List<String> args = new ArrayList<>(List.of(command.split(" ")));
    args.add(table.toString());
    switch (command) {
      case "plan", "archive" -> args.addAll(List.of("--min", "2", "--max", "3"));
      case "unarchive" -> args.addAll(List.of("--from", "0", "--to", "99999999999999999"));
      default -> {}
    }
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit =
        TimelineArchiveCommand.run(
            args.toArray(String[]::new), new PrintWriter(out), new PrintWriter(err));

    assertThat(exit).as("exit code of %s; stderr: %s", args, err).isEqualTo(3);
    String firstLine = err.toString().lines().findFirst().orElse("");
    assertThat(firstLine).startsWith("error: ").contains("nothing was changed");
    for (String n : named) {
      assertThat(firstLine).contains(n);
    }
    assertThat(out.toString()).as("standard output").isEmpty();
    assertUnchanged(table, before);
  }

  private static void assertUnchanged(Path table, SortedMap<String, String> before)
      throws IOException {
    assertThat(snapshot(table)).isEqualTo(before);
    assertThat(table.resolve(".hoodie/archived")).doesNotExist();
  }

  /**
   * Edits {@code hoodie.properties} the way a 0.x table's reads, leaving the rest as Hudi wrote.
   */
  private static void claimVersion6(Path table) throws IOException {
    Path properties = table.resolve(".hoodie/hoodie.properties");
    String text = Files.readString(properties);
    assertThat(text).contains(VERSION_8).contains("hoodie.timeline.layout.version=2");
    Files.writeString(
        properties,
        text.replace(VERSION_8, "hoodie.table.version=6")
            .replace("hoodie.timeline.layout.version=2", "hoodie.timeline.layout.version=1"));
    // Hudi keeps a backup of the properties; a reader must not find version 8 there either
    Files.deleteIfExists(table.resolve(".hoodie/hoodie.properties.backup"));
  }

  private Path copy(HoodieTableType type) throws IOException {
    return Hudi1Tables.copy(WRITTEN.get(type), tmp.resolve(type.name().toLowerCase()));
  }

  private static SortedMap<String, String> snapshot(Path dir) throws IOException {
    return Hudi1Tables.snapshot(dir);
  }
}
