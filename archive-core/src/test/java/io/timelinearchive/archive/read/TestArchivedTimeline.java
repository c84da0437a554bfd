package io.timelinearchive.archive.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.timelinearchive.format.ArchiveBlockEncoder;
import io.timelinearchive.format.ArchiveEntry;
import io.timelinearchive.format.ArchiveEntryConverter;
import io.timelinearchive.format.ArchiveFileName;
import io.timelinearchive.format.ArchiveSchemas;
import io.timelinearchive.format.ArchivedInstant;
import io.timelinearchive.format.AvroInstantFiles;
import io.timelinearchive.format.CorruptArchiveException;
import io.timelinearchive.format.LogBlockFixtures;
import io.timelinearchive.format.SampleRecords;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.State;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TestArchivedTimeline {
  private static final ArchiveEntryConverter CONVERTER =
      ArchiveEntryConverter.inZone(ZoneOffset.UTC);
  private static final java.time.Instant MODIFIED = java.time.Instant.parse("2024-05-01T00:00:00Z");

  private MetaStorage storage;
  private StorageLocation folder;

  @BeforeEach
  void setUp() throws IOException {
    StorageLocation table = StorageLocation.of("memory://vol-" + UUID.randomUUID() + "/t");
    storage = MetaStorages.open(table, Map.of());
    folder = table.resolve(".hoodie/archived");
  }

  @AfterEach
  void tearDown() throws IOException {
    storage.close();
  }

  static ArchiveEntry entry(
      String time, Action action, State state, byte[] content, java.time.Instant modified) {
    try {
      return CONVERTER.convert(new TimelineInstant(time, action, state), modified, content);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static ArchiveEntry commit(String time, State state) {
    String json =
        "{\"partitionToWriteStats\":{},\"operationType\":\"UPSERT\",\"note\":\"" + time + "\"}";
    return entry(time, Action.COMMIT, state, json.getBytes(StandardCharsets.UTF_8), MODIFIED);
  }

  static ArchiveEntry clean(String time) {
    return entry(
        time,
        Action.CLEAN,
        State.COMPLETED,
        AvroInstantFiles.serialize(SampleRecords.cleanMetadata(time)),
        MODIFIED);
  }

  static byte[] blocks(List<ArchiveEntry> entries, int batch) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < entries.size(); i += batch) {
      ArchiveBlockEncoder.encode(entries.subList(i, Math.min(entries.size(), i + batch)))
          .forEach(out::writeBytes);
    }
    return out.toByteArray();
  }

  private StorageLocation write(int version, byte[] content) throws IOException {
    StorageLocation file = folder.resolve(ArchiveFileName.of(version));
    storage.createExclusive(file, content);
    return file;
  }

  private FileEntry listed(StorageLocation file) throws IOException {
    return storage.list(folder).toList().stream()
        .filter(f -> f.location().equals(file))
        .findFirst()
        .orElseThrow();
  }

  private static List<String> names(ArchivedTimeline timeline) {
    return timeline.instants().stream().map(i -> i.instant().toString()).toList();
  }

  @Test
  void loadsFilesByVersionDeduplicatesAndSorts() throws IOException {
    // Out of order inside the blocks, and a duplicate across files whose first copy must win.
    write(
        2,
        blocks(
            List.of(
                commit("20240103000000000", State.COMPLETED),
                commit("20240101000000000", State.COMPLETED)),
            10));
    write(
        10,
        blocks(
            List.of(
                entry(
                    "20240101000000000",
                    Action.COMMIT,
                    State.COMPLETED,
                    "{}".getBytes(StandardCharsets.UTF_8),
                    java.time.Instant.parse("2030-01-01T00:00:00Z")),
                clean("20240104000000000")),
            1));
    write(
        1,
        blocks(
            List.of(
                commit("20240101000000000", State.REQUESTED),
                commit("20240101000000000", State.INFLIGHT)),
            10));
    storage.createExclusive(folder.resolve("mergeArchivePlan"), new byte[] {1, 2});
    storage.createExclusive(folder.resolve(".commits_.archive.x_1-0-1"), new byte[] {3});

    ArchivedTimeline timeline = ArchivedTimeline.load(storage, folder, ArchiveReadOptions.all());

    assertThat(names(timeline))
        .containsExactly(
            "20240101000000000 commit REQUESTED",
            "20240101000000000 commit INFLIGHT",
            "20240101000000000 commit COMPLETED",
            "20240103000000000 commit COMPLETED",
            "20240104000000000 clean COMPLETED");
    ArchivedInstant kept = timeline.instants().get(2);
    assertThat(kept.stateTransitionTime()).hasValue("20240501000000000");
    assertThat(timeline.files()).extracting(ArchiveFileSummary::version).containsExactly(1, 2, 10);
    assertThat(timeline.files()).extracting(ArchiveFileSummary::blocks).containsExactly(1, 1, 2);
    assertThat(timeline.files()).extracting(ArchiveFileSummary::entries).containsExactly(2, 2, 2);
    assertThat(timeline.files())
        .allSatisfy(
            f -> {
              assertThat(f.truncatedTail()).isFalse();
              assertThat(f.validLength()).isEqualTo(f.length());
            });
    assertThat(timeline.timeline().size()).isEqualTo(5);
  }

  @Test
  void detailsCarryTheEntryAndTheExactRawBytes() throws IOException {
    byte[] content = AvroInstantFiles.serialize(SampleRecords.cleanMetadata("20240104000000000"));
    write(
        1,
        blocks(
            List.of(entry("20240104000000000", Action.CLEAN, State.COMPLETED, content, MODIFIED)),
            10));

    ArchivedInstant clean =
        ArchivedTimeline.load(storage, folder, ArchiveReadOptions.all()).instants().get(0);

    assertThat(clean.rawBytes()).hasValueSatisfying(b -> assertThat(b).isEqualTo(content));
    GenericRecord entry = clean.entry().orElseThrow();
    assertThat(SampleRecords.plain(entry.get("hoodieCleanMetadata")))
        .isEqualTo(SampleRecords.plain(SampleRecords.cleanMetadata("20240104000000000")));
  }

  @Test
  void metadataOnlyLeavesDetailsOut() throws IOException {
    write(
        1,
        blocks(
            List.of(clean("20240104000000000"), commit("20240105000000000", State.COMPLETED)), 10));

    ArchivedTimeline timeline =
        ArchivedTimeline.load(storage, folder, ArchiveReadOptions.metadataOnly());

    assertThat(names(timeline))
        .containsExactly("20240104000000000 clean COMPLETED", "20240105000000000 commit COMPLETED");
    assertThat(timeline.instants())
        .allSatisfy(
            i -> {
              assertThat(i.entry()).isEmpty();
              assertThat(i.rawContent()).isEmpty();
              assertThat(i.stateTransitionTime()).hasValue("20240501000000000");
            });
  }

  @Test
  void loadsOnlyATimeRangeInclusive() throws IOException {
    List<ArchiveEntry> entries =
        List.of(
            commit("20240101000000000", State.COMPLETED),
            commit("20240102000000000", State.REQUESTED),
            commit("20240102000000000", State.COMPLETED),
            clean("20240103000000000"),
            commit("20240104000000000", State.COMPLETED));
    write(1, blocks(entries, 2));

    for (boolean details : new boolean[] {true, false}) {
      ArchiveReadOptions options =
          ArchiveReadOptions.all()
              .withDetails(details)
              .between("20240102000000000", "20240103000000000");
      ArchivedTimeline timeline = ArchivedTimeline.load(storage, folder, options);
      assertThat(names(timeline))
          .as("details %s", details)
          .containsExactly(
              "20240102000000000 commit REQUESTED",
              "20240102000000000 commit COMPLETED",
              "20240103000000000 clean COMPLETED");
      assertThat(timeline.instants())
          .allSatisfy(i -> assertThat(i.entry().isPresent()).isEqualTo(details));
      assertThat(timeline.files().get(0).entries()).isEqualTo(5);
    }
    assertThatThrownBy(() -> ArchiveReadOptions.all().between("2", "1"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void compactionEntriesKeepTheirActions() throws IOException {
    byte[] plan = AvroInstantFiles.serialize(SampleRecords.compactionPlan("20240101000000000"));
    byte[] done = "{\"compacted\":true}".getBytes(StandardCharsets.UTF_8);
    write(
        1,
        blocks(
            List.of(
                entry("20240102000000000", Action.COMPACTION, State.REQUESTED, plan, MODIFIED),
                entry(
                    "20240102000000000", Action.COMPACTION, State.INFLIGHT, new byte[0], MODIFIED),
                entry("20240102000000000", Action.COMMIT, State.COMPLETED, done, MODIFIED)),
            10));

    ArchivedTimeline timeline =
        ArchivedTimeline.load(storage, folder, ArchiveReadOptions.metadataOnly());

    assertThat(timeline.instants())
        .extracting(ArchivedInstant::instant)
        .containsExactly(
            new TimelineInstant("20240102000000000", Action.COMPACTION, State.REQUESTED),
            new TimelineInstant("20240102000000000", Action.COMPACTION, State.INFLIGHT),
            new TimelineInstant("20240102000000000", Action.COMMIT, State.COMPLETED));
  }

  @Test
  void aTruncatedTailIsSkippedAndReportedPerFile() throws IOException {
    byte[] first = blocks(List.of(commit("20240101000000000", State.COMPLETED)), 10);
    byte[] second = blocks(List.of(commit("20240102000000000", State.COMPLETED)), 10);
    byte[] cut = Arrays.copyOf(second, second.length / 2);
    StorageLocation file1 = write(1, concat(first, cut));
    write(2, blocks(List.of(commit("20240103000000000", State.COMPLETED)), 10));

    ArchivedTimeline timeline = ArchivedTimeline.load(storage, folder, ArchiveReadOptions.all());

    assertThat(names(timeline))
        .containsExactly(
            "20240101000000000 commit COMPLETED", "20240103000000000 commit COMPLETED");
    ArchiveFileSummary summary = timeline.files().get(0);
    assertThat(summary.location()).isEqualTo(file1);
    assertThat(summary.name()).isEqualTo(".commits_.archive.1_1-0-1");
    assertThat(summary.truncatedTail()).isTrue();
    assertThat(summary.blocks()).isEqualTo(1);
    assertThat(summary.entries()).isEqualTo(1);
    assertThat(summary.validLength()).isEqualTo(first.length);
    assertThat(summary.length()).isEqualTo(first.length + cut.length);
    assertThat(timeline.files().get(1).truncatedTail()).isFalse();
  }

  @Test
  void aCorruptBlockFailsTheLoadNamingFileAndOffset() throws IOException {
    byte[] first = blocks(List.of(commit("20240101000000000", State.COMPLETED)), 10);
    byte[] second = blocks(List.of(commit("20240102000000000", State.COMPLETED)), 10);
    write(1, blocks(List.of(commit("20240100000000000", State.COMPLETED)), 10));
    byte[] file = concat(first, "junk".getBytes(StandardCharsets.US_ASCII), second);
    StorageLocation file2 = write(2, file);

    CorruptArchiveException e =
        catchThrowableOfType(
            CorruptArchiveException.class,
            () -> ArchivedTimeline.load(storage, folder, ArchiveReadOptions.metadataOnly()));

    assertThat(e.location()).isEqualTo(file2.toString());
    assertThat(e.offset()).isEqualTo(first.length);
    assertThat(e).hasMessageContaining(file2.toString());
  }

  @Test
  void anEntryWithAnUnknownActionIsCorruptAtItsOffset() throws IOException {
    GenericRecord record = new GenericData.Record(ArchiveSchemas.ARCHIVED_META_ENTRY);
    record.put("commitTime", "20240101000000000");
    record.put("actionType", "teleport");
    record.put("actionState", "COMPLETED");
    byte[] block =
        LogBlockFixtures.avroDataBlock(ArchiveSchemas.ARCHIVED_META_ENTRY, List.of(record));
    write(1, block);

    assertThatThrownBy(
            () -> ArchivedTimeline.load(storage, folder, ArchiveReadOptions.metadataOnly()))
        .isInstanceOf(CorruptArchiveException.class)
        .hasMessageContaining("unknown actionType 'teleport'");
  }

  @Test
  void readsEntriesWrittenUnderHudisOwnSchema() throws IOException {
    GenericRecord hudi = new GenericData.Record(ArchiveSchemas.HUDI_ARCHIVED_META_ENTRY);
    hudi.put("commitTime", "20240101000000000");
    hudi.put("actionType", "clean");
    hudi.put("actionState", "COMPLETED");
    hudi.put("hoodieCleanMetadata", SampleRecords.cleanMetadata("20240101000000000"));
    write(
        1, LogBlockFixtures.avroDataBlock(ArchiveSchemas.HUDI_ARCHIVED_META_ENTRY, List.of(hudi)));

    ArchivedInstant clean =
        ArchivedTimeline.load(storage, folder, ArchiveReadOptions.all()).instants().get(0);

    assertThat(clean.instant())
        .isEqualTo(new TimelineInstant("20240101000000000", Action.CLEAN, State.COMPLETED));
    assertThat(clean.rawContent()).isEmpty();
    assertThat(clean.stateTransitionTime()).isEmpty();
    assertThat(clean.entry()).isPresent();
  }

  @Test
  void aMissingFolderIsAnEmptyArchive() throws IOException {
    ArchivedTimeline timeline = ArchivedTimeline.load(storage, folder, ArchiveReadOptions.all());
    assertThat(timeline.instants()).isEmpty();
    assertThat(timeline.files()).isEmpty();
  }

  @Test
  void readFileFromAnOffsetReturnsTheLaterEntries() throws IOException {
    byte[] b1 = blocks(List.of(commit("20240101000000000", State.COMPLETED)), 10);
    byte[] b2 =
        blocks(
            List.of(
                commit("20240102000000000", State.REQUESTED),
                commit("20240102000000000", State.COMPLETED)),
            10);
    byte[] b3 = blocks(List.of(clean("20240103000000000")), 10);
    StorageLocation location = write(3, concat(b1, b2, b3));
    FileEntry file = listed(location);

    ArchiveFileContent content = ArchivedTimeline.readFile(storage, file, b1.length);

    assertThat(content.instants())
        .extracting(i -> i.instant().toString())
        .containsExactly(
            "20240102000000000 commit REQUESTED",
            "20240102000000000 commit COMPLETED",
            "20240103000000000 clean COMPLETED");
    assertThat(content.instants()).allSatisfy(i -> assertThat(i.entry()).isEmpty());
    assertThat(content.summary().version()).isEqualTo(3);
    assertThat(content.summary().blocks()).isEqualTo(2);
    assertThat(content.summary().entries()).isEqualTo(3);
    assertThat(content.summary().validLength()).isEqualTo(file.length());

    ArchiveFileContent atEnd = ArchivedTimeline.readFile(storage, file, file.length());
    assertThat(atEnd.instants()).isEmpty();
    assertThat(atEnd.summary().validLength()).isEqualTo(file.length());

    CorruptArchiveException e =
        catchThrowableOfType(
            CorruptArchiveException.class,
            () -> ArchivedTimeline.readFile(storage, file, b1.length + 1));
    assertThat(e.offset()).isEqualTo(b1.length + 1);

    assertThatThrownBy(() -> ArchivedTimeline.readFile(storage, file, file.length() + 1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void readFileReportsATruncatedTail() throws IOException {
    byte[] b1 = blocks(List.of(commit("20240101000000000", State.COMPLETED)), 10);
    byte[] b2 = blocks(List.of(commit("20240102000000000", State.COMPLETED)), 10);
    FileEntry file = listed(write(1, concat(b1, Arrays.copyOf(b2, b2.length - 1))));

    ArchiveFileContent content = ArchivedTimeline.readFile(storage, file, 0);

    assertThat(content.instants()).hasSize(1);
    assertThat(content.summary().truncatedTail()).isTrue();
    assertThat(content.summary().validLength()).isEqualTo(b1.length);
  }

  @Test
  void rawContentIsReadOnly() {
    ArchivedInstant instant =
        new ArchivedInstant(
            new TimelineInstant("1", Action.COMMIT, State.COMPLETED),
            Optional.empty(),
            Optional.empty(),
            Optional.of(ByteBuffer.wrap(new byte[] {1})));
    assertThat(instant.rawContent().orElseThrow().isReadOnly()).isTrue();
    assertThat(instant.rawBytes()).hasValueSatisfying(b -> assertThat(b).containsExactly(1));
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }
}
