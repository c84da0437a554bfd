package io.timelinearchive.reliability;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.archive.InvariantChecker;
import io.timelinearchive.archive.TimelineArchiver;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Hostile input through the CLI: bad instant files make {@code archive} fail (exit 3) before it
 * deletes anything, naming the file; bad archive files make {@code show archived} fail naming the
 * file and the byte offset, except where readers are meant to cope (a truncated tail block,
 * duplicate entries). Never a stack trace without {@code --verbose}.
 */
class HostileInputIT {
  private static final Path CORPUS = Path.of("src/test/resources/hostile");
  private static final String OLD = "20251231000000000";
  private static final String ARCHIVE = ".commits_.archive.1_1-0-1";

  @TempDir static Path work;
  private static Path pristine;
  private static Map<String, byte[]> original;
  private static Path archived;
  private static byte[] archive;

  @BeforeAll
  static void tables() throws Exception {
    assertThat(Jar.JAR).as("the shaded jar (system property timeline-archive.jar)").isRegularFile();
    pristine = work.resolve("pristine");
    Tables.write(pristine, 300, 3);
    original = Tables.snapshot(pristine);
    // a table archived once, in this JVM: its archive file is what the archive cases edit
    archived = work.resolve("archived");
    Tables.link(pristine, archived);
    try (TimelineArchiver archiver =
        TimelineArchiver.open(archived.toString(), Map.of("hoodie.commits.archival.batch", "3"))) {
      assertThat(archiver.archiveIfRequired().archived()).isNotEmpty();
    }
    archive = Files.readAllBytes(archived.resolve(".hoodie/archived/" + ARCHIVE));
  }

  static Stream<String> instantCases() throws IOException {
    try (Stream<Path> dirs = Files.list(CORPUS)) {
      return dirs
          .filter(Files::isDirectory)
          .map(p -> p.getFileName().toString())
          .filter(n -> !n.equals("malformed-names"))
          .sorted()
          .toList()
          .stream();
    }
  }

  @ParameterizedTest
  @MethodSource("instantCases")
  void anUnreadableInstantFileFailsTheRunBeforeAnyDeletion(String name) throws Exception {
    Path table = work.resolve("case-" + name);
    Tables.link(pristine, table);
    List<String> hostile = dropIn(CORPUS.resolve(name), table);
    TreeMap<String, byte[]> before = contents(table);

    // small retention, so that the 2025 instant is selected
    Jar.Run run = Jar.run(work, "archive", table.toString(), "--min", "2", "--max", "3");

    assertThat(run.exitCode()).as("exit code; stderr: %s", run.err()).isEqualTo(3);
    assertThat(run.errors()).startsWith("error: ").contains(hostile.get(0)).doesNotContain("\tat ");
    assertThat(run.errors().lines()).hasSize(1);
    assertUnchanged(before, contents(table));
  }

  @ParameterizedTest
  @ValueSource(strings = {"requested", "inflight", "completed"})
  void zeroByteFilesOfEveryActionNeverCostData(String state) throws Exception {
    Path table = work.resolve("empty-" + state);
    Tables.link(pristine, table);
    String[] actions = {
      "commit",
      "deltacommit",
      "replacecommit",
      "compaction",
      "logcompaction",
      "clean",
      "rollback",
      "savepoint",
      "restore",
      "indexing",
      "schemacommit"
    };
    for (int i = 0; i < actions.length; i++) {
      String time = "202512310000000" + String.format("%02d", i);
      String suffix = state.equals("completed") ? "" : "." + state;
      Files.write(table.resolve(".hoodie/" + time + "." + actions[i] + suffix), new byte[0]);
    }
    TreeMap<String, byte[]> before = contents(table);
    InvariantChecker checker = new InvariantChecker(Tables.snapshot(table));

    Jar.Run run = Jar.run(work, "archive", table.toString(), "--min", "2", "--max", "3");

    assertThat(run.exitCode()).as("exit code; stderr: %s", run.err()).isIn(0, 3);
    assertThat(run.err()).doesNotContain("\tat ");
    if (run.exitCode() == 3) {
      assertThat(run.errors()).startsWith("error: ").contains(".hoodie/2025123100000");
      assertUnchanged(before, contents(table));
    }
    assertThat(Tables.violations(checker, table)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void malformedNamesAreLeftAlone(boolean verbose) throws Exception {
    Path table = work.resolve("malformed-" + verbose);
    Tables.link(pristine, table);
    List<String> hostile = dropIn(CORPUS.resolve("malformed-names"), table);
    InvariantChecker checker = new InvariantChecker(original);

    Jar.Run run =
        verbose
            ? Jar.run(work, "archive", table.toString(), "--verbose")
            : Jar.run(work, "archive", table.toString());

    assertThat(run.exitCode()).as("exit code; stderr: %s", run.err()).isZero();
    assertThat(run.out()).containsPattern("archived [1-9]\\d* instant file");
    for (String name : hostile) {
      assertThat(table.resolve(".hoodie/" + name)).as(name).exists();
    }
    assertThat(Tables.violations(checker, withoutFiles(table, hostile))).isEmpty();
  }

  /**
   * Hudi's reader takes T.commit.inflight for a commit's inflight file T.inflight (an alias that
   * TestInstantNameFuzzing found our parser shares). Next to the real one, with other bytes:
   * neither is deleted before its bytes are archived (both go in, as two entries of one instant
   * state).
   */
  @org.junit.jupiter.api.Test
  void anAliasOfAnInflightCommitIsNotLost() throws Exception {
    Path table = work.resolve("alias");
    Tables.link(pristine, table);
    String inflight =
        original.keySet().stream().filter(n -> n.matches("\\d+\\.inflight")).findFirst().get();
    String alias = inflight.replace(".inflight", ".commit.inflight");
    byte[] bytes = "{\"alias\": true}".getBytes(US_ASCII);
    Files.write(table.resolve(".hoodie/" + alias), bytes);

    Jar.Run run = Jar.run(work, "archive", table.toString(), "--min", "2", "--max", "3");

    assertThat(run.exitCode()).as("exit code; stderr: %s", run.err()).isIn(0, 3);
    assertThat(run.err()).doesNotContain("\tat ");
    String id = inflight.substring(0, inflight.indexOf('.')) + "/commit/INFLIGHT";
    // The checker knows one file per instant state: both files archived read to it as a duplicate,
    // and the one it compares may be the other's bytes. What matters is checked below.
    assertThat(Tables.violations(new InvariantChecker(original), table))
        .as("invariants, the alias aside")
        .allMatch(
            v ->
                v.equals("archived twice: " + id)
                    || v.equals("archived with different bytes: " + inflight));
    List<InvariantChecker.Archived> archivedRecords;
    try (var storage = Tables.open(table)) {
      archivedRecords =
          InvariantChecker.readArchive(
              storage, Tables.location(table).resolve(".hoodie/archived"), new ArrayList<>());
    }
    for (Map.Entry<String, byte[]> file :
        Map.of(inflight, original.get(inflight), alias, bytes).entrySet()) {
      Path active = table.resolve(".hoodie/" + file.getKey());
      if (Files.exists(active)) {
        assertThat(Files.readAllBytes(active)).as(file.getKey()).isEqualTo(file.getValue());
      } else {
        assertThat(archivedRecords)
            .as("%s's bytes in the archive", file.getKey())
            .anyMatch(a -> a.id().equals(id) && Arrays.equals(a.raw(), file.getValue()));
      }
    }
  }

  record ArchiveCase(String name, byte[] content, int exitCode, String message) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Arguments> archiveCases() {
    List<ArchiveCase> cases = new ArrayList<>();
    int first = blockLength(archive, 0);
    byte[] wrongMagic = archive.clone();
    wrongMagic[4] = 'X';
    cases.add(new ArchiveCase("wrong magic", wrongMagic, 3, "at byte offset 0"));
    cases.add(
        new ArchiveCase(
            "garbage between blocks",
            concat(
                Arrays.copyOfRange(archive, 0, first),
                "garbage between blocks".getBytes(US_ASCII),
                Arrays.copyOfRange(archive, first, archive.length)),
            3,
            "at byte offset " + first));
    byte[] huge = archive.clone();
    ByteBuffer.wrap(huge).putLong(6, 1L << 62);
    // the offsets of the bad field: the size after the magic, the schema after the header's key
    cases.add(new ArchiveCase("declared size 2^62", huge, 3, "at byte offset 6"));
    cases.add(new ArchiveCase("schema not JSON", schemaNotJson(archive), 3, "at byte offset 22"));
    cases.add(
        new ArchiveCase(
            "truncated tail block",
            Arrays.copyOf(archive, archive.length - blockLengthOfLast(archive) / 2),
            0,
            null));
    cases.add(new ArchiveCase("duplicate entries", concat(archive, archive), 0, null));
    return cases.stream().map(Arguments::of);
  }

  @ParameterizedTest
  @MethodSource("archiveCases")
  void aBadArchiveFileIsNamedWithItsOffset(ArchiveCase c) throws Exception {
    Path table = work.resolve("archive-" + c.name().replace(' ', '-').replace('^', '_'));
    Tables.link(archived, table);
    Path file = table.resolve(".hoodie/archived/" + ARCHIVE);
    Files.delete(file); // a link to the good one: replace, not overwrite
    Files.write(file, c.content());

    Jar.Run show = Jar.run(work, "show", "archived", table.toString());

    assertThat(show.exitCode()).as("exit code; stderr: %s", show.err()).isEqualTo(c.exitCode());
    assertThat(show.err()).doesNotContain("\tat ");
    if (c.message() != null) {
      // (Jackson's parse error brings a second line with it: "at [Source: REDACTED ...")
      assertThat(show.errors().lines().findFirst().orElse(""))
          .startsWith("error: ")
          .contains(ARCHIVE)
          .contains(c.message());
    } else {
      Jar.Run good = Jar.run(work, "show", "archived", archived.toString());
      int lines = (int) good.out().lines().count();
      // the torn tail loses what it held, no more; duplicates are read once
      assertThat((int) show.out().lines().count()).isBetween(lines - 3, lines);
    }
    // archiving more never deletes what it has not archived, whatever the old archive holds
    Jar.Run more = Jar.run(work, "archive", table.toString(), "--min", "2", "--max", "3");
    assertThat(more.exitCode()).as("exit code; stderr: %s", more.err()).isIn(0, 3);
    assertThat(more.err()).doesNotContain("\tat ");
    assertThat(Files.readAllBytes(file)).startsWith(c.content());
  }

  private static int blockLength(byte[] bytes, int at) {
    return 14 + (int) ByteBuffer.wrap(bytes).getLong(at + 6);
  }

  private static int blockLengthOfLast(byte[] bytes) {
    int at = 0;
    int last = 0;
    while (at < bytes.length) {
      last = blockLength(bytes, at);
      at += last;
    }
    return last;
  }

  /** The first block's SCHEMA header value overwritten, at the same length, with non-JSON. */
  private static byte[] schemaNotJson(byte[] bytes) {
    byte[] edited = bytes.clone();
    ByteBuffer b = ByteBuffer.wrap(edited);
    b.position(14 + 8); // magic, size, format version, block type
    int entries = b.getInt();
    for (int i = 0; i < entries; i++) {
      int key = b.getInt();
      int length = b.getInt();
      if (key == 2) {
        Arrays.fill(edited, b.position(), b.position() + length, (byte) '~');
        return edited;
      }
      b.position(b.position() + length);
    }
    throw new AssertionError("no schema in the first block's header");
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  private static List<String> dropIn(Path caseDir, Path table) throws IOException {
    List<String> names = new ArrayList<>();
    try (Stream<Path> files = Files.list(caseDir)) {
      for (Path f : files.sorted().toList()) {
        Files.copy(f, table.resolve(".hoodie/" + f.getFileName()));
        names.add(f.getFileName().toString());
      }
    }
    return names;
  }

  private static TreeMap<String, byte[]> contents(Path table) throws IOException {
    TreeMap<String, byte[]> files = new TreeMap<>();
    for (String name : Tables.files(table)) {
      files.put(name, Files.readAllBytes(table.resolve(name)));
    }
    return files;
  }

  private static void assertUnchanged(
      TreeMap<String, byte[]> before, TreeMap<String, byte[]> after) {
    assertThat(after.keySet()).as("files after a failed run").isEqualTo(before.keySet());
    before.forEach((name, bytes) -> assertThat(after.get(name)).as(name).isEqualTo(bytes));
  }

  /** A copy of the table without the given files of {@code .hoodie/}, for the checker. */
  private static Path withoutFiles(Path table, List<String> names) throws IOException {
    Path copy = work.resolve(table.getFileName() + "-checked");
    Tables.link(table, copy);
    for (String name : names) {
      Files.delete(copy.resolve(".hoodie/" + name));
    }
    return copy;
  }
}
