package io.timelinearchive.hudicompat;

import static io.timelinearchive.hudicompat.Hudi05Table.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.timelinearchive.archive.ArchiveResult;
import io.timelinearchive.archive.read.ArchivedTimeline;
import io.timelinearchive.format.ArchivedInstant;
import io.timelinearchive.select.ArchivalPlan;
import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.TimelineInstant;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 16, the seed's version: archives of Apache Hudi 0.5.3 and ours, each read by the other
 * side, on tables 0.5.3's own timeline classes wrote in layout 0 and 1 (see {@link Hudi05Table}).
 * Hudi 0.5.3 runs from its own class loader ({@link Hudi053}): its {@code HoodieCommitArchiveLog}
 * converts and writes, its log reader and {@code HoodieArchivedTimeline} read.
 */
class TestHudi05Archives {
  private static final int BATCH = 4;
  private static final Map<String, String> SETTINGS = HudiTable.archivalSettings();

  @TempDir Path tmp;

  /**
   * 0.5.3's archiver writes the archive (its entry schema, 11 fields; every instant file of the
   * instants our plan names, but the rollbacks, which 0.5.3's active timeline does not list); our
   * reader returns each of its entries with the instant and the whole record 0.5.3 put there.
   */
  @ParameterizedTest(name = "{0}, layout {1}")
  @CsvSource({"COPY_ON_WRITE, 0", "COPY_ON_WRITE, 1", "MERGE_ON_READ, 0", "MERGE_ON_READ, 1"})
  void ourReaderReturnsEveryEntryHudi053Wrote(String type, int layout) throws Exception {
    Path base = Hudi05Table.write(tmp.resolve("table"), type, layout);
    String uri = HudiTable.uri(base);
    List<String> files = hudi053Files(Ours.plan(uri, SETTINGS));

    Hudi053.archive(base, layout, files, BATCH);

    List<List<String>> blocks = Hudi053.scanArchive(base, layout);
    List<String> written = new ArrayList<>();
    for (List<String> block : blocks) {
      assertThat(block.get(0)).isEqualTo(".commits_.archive.1_1-0-1 AVRO_DATA_BLOCK");
      assertThat(block.size() - 1).isBetween(1, BATCH);
      written.addAll(block.subList(1, block.size()));
    }
    assertThat(written).as("0.5.3 wrote an entry per file").hasSameSizeAs(files);
    assertThat(blocks).hasSize((files.size() + BATCH - 1) / BATCH);

    ArchivedTimeline ours = Ours.read(uri, Map.of());
    assertThat(ours.files())
        .singleElement()
        .satisfies(f -> assertThat(f.truncatedTail()).isFalse());
    Map<String, ArchivedInstant> read = new TreeMap<>();
    for (ArchivedInstant entry : ours.instants()) {
      read.put(key(entry.instant()), entry);
    }
    assertThat(read).as("one entry each").hasSameSizeAs(ours.instants());
    List<String> keys = new ArrayList<>();
    for (String record : written) {
      JsonNode theirs = json(record);
      String key =
          theirs.get("commitTime").asText()
              + " "
              + theirs.get("actionType").asText()
              + " "
              + theirs.get("actionState").asText();
      keys.add(key);
      ArchivedInstant entry = read.get(key);
      assertThat(entry).as("our reader's entry %s", key).isNotNull();
      assertThat(json(entry.entry().orElseThrow().toString()))
          .as("the record of %s", key)
          .isEqualTo(theirs);
      assertThat(entry.rawContent()).as("0.5.3's entries carry no raw bytes").isEmpty();
      assertThat(entry.stateTransitionTime()).as("0.5.3's schema has none").isEmpty();
    }
    assertThat(read.keySet()).containsExactlyInAnyOrderElementsOf(keys);
    // what 0.5.3 puts there: its 11 fields, details in each, a delta commit labelled commit
    JsonNode first = json(written.get(0));
    assertThat(first.size()).isEqualTo(11);
    assertThat(first.has("stateTransitionTime")).isFalse();
    if (type.equals("MERGE_ON_READ")) {
      assertThat(written).noneMatch(r -> json(r).get("actionType").asText().equals("deltacommit"));
    }
    assertThat(written)
        .filteredOn(r -> json(r).get("actionType").asText().equals("commit"))
        .allSatisfy(r -> assertThat(json(r).get("hoodieCommitMetadata").isObject()).isTrue());
  }

  /**
   * We archive a copy of the table, 0.5.3's archiver the same instant files of another copy (but
   * the rollbacks, which it does not see); 0.5.3's {@code HoodieArchivedTimeline} reads every entry
   * of ours, and reads ours as it reads its own: the same instants and the same details, but that
   * ours say {@code deltacommit} where 0.5.3 wrote {@code commit}, and that ours hold the rollbacks
   * too. 0.5.3 turns every entry into a completed instant and keys details by time alone; it cannot
   * load details at all from an archive holding a compaction plan (layout 1, merge-on-read: its own
   * archive fails alike).
   */
  @ParameterizedTest(name = "{0}, layout {1}")
  @CsvSource({"COPY_ON_WRITE, 0", "COPY_ON_WRITE, 1", "MERGE_ON_READ, 0", "MERGE_ON_READ, 1"})
  void hudi053ReadsOurArchiveAsItReadsItsOwn(String type, int layout) throws Exception {
    Path ourCopy = Hudi05Table.write(tmp.resolve("ours"), type, layout);
    Path theirCopy = tmp.resolve("hudi053");
    HudiFixtures.copyTree(ourCopy, theirCopy);
    String uri = HudiTable.uri(ourCopy);
    Map<String, byte[]> originals = Ours.instantFiles(uri, Map.of());

    ArchiveResult result = Ours.archive(uri, SETTINGS);
    List<TimelineInstant> archived = result.archived();
    assertThat(archived).as("we archived").hasSizeGreaterThan(BATCH);
    Hudi053.archive(
        theirCopy,
        layout,
        archived.stream()
            .filter(i -> i.action() != Action.ROLLBACK)
            .map(TimelineInstant::fileName)
            .toList(),
        BATCH);

    List<String> expected = new ArrayList<>();
    for (TimelineInstant instant : archived) {
      // 0.5.3 makes every entry a completed instant of its actionType
      expected.add(instant.time() + " " + entryAction(instant) + " COMPLETED");
    }
    List<String> fromOurs = Hudi053.archivedInstants(ourCopy, layout);
    assertThat(sorted(fromOurs)).as("0.5.3's instants from ours").isEqualTo(sorted(expected));
    List<String> fromItsOwn = new ArrayList<>();
    for (String instant : fromOurs) {
      if (!instant.contains(" rollback ")) {
        fromItsOwn.add(instant.replace(" deltacommit ", " commit "));
      }
    }
    assertThat(sorted(Hudi053.archivedInstants(theirCopy, layout)))
        .as("0.5.3's instants from its own archive")
        .isEqualTo(sorted(fromItsOwn));

    if (type.equals("MERGE_ON_READ") && layout == 1) {
      for (Path copy : List.of(ourCopy, theirCopy)) {
        assertThatThrownBy(() -> Hudi053.archivedDetails(copy, layout))
            .isInstanceOf(Hudi053.Failure.class)
            .hasMessage(
                "org.apache.hudi.exception.HoodieIOException: Unknown action in metadata compaction");
      }
      return;
    }
    Map<String, String> detailsFromOurs = Hudi053.archivedDetails(ourCopy, layout);
    Map<String, String> detailsFromItsOwn = Hudi053.archivedDetails(theirCopy, layout);
    Map<String, JsonNode> ours = new TreeMap<>();
    detailsFromOurs.forEach((time, text) -> ours.put(time, json(text)));
    Map<String, JsonNode> its = new TreeMap<>();
    detailsFromItsOwn.forEach((time, text) -> its.put(time, json(text)));
    Map<String, JsonNode> oursButRollbacks = new TreeMap<>(ours);
    archived.stream()
        .filter(i -> i.action() == Action.ROLLBACK)
        .forEach(i -> oursButRollbacks.remove(i.time()));
    assertThat(oursButRollbacks).as("details, 0.5.3 from ours vs its own").isEqualTo(its);
    assertThat(ours.keySet())
        .as("every archived time has details")
        .containsExactlyInAnyOrderElementsOf(
            archived.stream().map(TimelineInstant::time).distinct().toList());

    // a completed commit's details name the files of the original commit file, as 0.5.3 reads them
    int commits = 0;
    for (TimelineInstant instant : archived) {
      if (instant.state().name().equals("COMPLETED")
          && (instant.action() == Action.COMMIT || instant.action() == Action.DELTA_COMMIT)) {
        String original = new String(originals.get(instant.fileName()), StandardCharsets.UTF_8);
        assertThat(Hudi053.filesWritten(detailsFromOurs.get(instant.time())))
            .as("files of %s", instant.fileName())
            .isEqualTo(Hudi053.filesWritten(original))
            .isNotEmpty();
        commits++;
      }
    }
    assertThat(commits).as("completed commits compared").isGreaterThan(3);
  }

  /** Every instant file of our plan that 0.5.3's active timeline lists (it omits rollbacks). */
  private static List<String> hudi053Files(ArchivalPlan plan) {
    List<String> files = new ArrayList<>();
    for (TimelineInstant instant : plan.files()) {
      if (instant.action() != Action.ROLLBACK) {
        files.add(instant.fileName());
      }
    }
    assertThat(files).as("something to archive").hasSizeGreaterThan(BATCH);
    return files;
  }

  /** The actionType of an entry we write for this file: the action in its name. */
  private static String entryAction(TimelineInstant instant) {
    return instant.action().actionName();
  }

  private static String key(TimelineInstant instant) {
    return instant.time() + " " + instant.action().actionName() + " " + instant.state().name();
  }

  private static List<String> sorted(List<String> values) {
    List<String> copy = new ArrayList<>(values);
    Collections.sort(copy);
    return copy;
  }
}
