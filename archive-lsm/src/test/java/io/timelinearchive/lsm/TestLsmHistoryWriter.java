package io.timelinearchive.lsm;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.archive.read.ArchiveReadOptions;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The LSM history written through the storage SPI: layer-0 files, manifests and {@code _version_}
 * as Hudi 1.0.1 writes them, read back by {@link LsmHistory}; compaction and cleaning by Hudi
 * 1.0.1's rules; and each leftover a crash can leave, recovered.
 */
class TestLsmHistoryWriter {
  @TempDir Path tmp;

  private Path dir;
  private MetaStorage storage;
  private StorageLocation folder;
  private long clock = 20250101000000000L;

  @BeforeEach
  void open() throws IOException {
    dir = Files.createDirectories(tmp.resolve("history"));
    folder = StorageLocation.of(dir.toUri().toString());
    storage = MetaStorages.open(folder, Map.of());
  }

  @AfterEach
  void close() throws IOException {
    storage.close();
  }

  private LsmHistoryWriter writer(int batch) {
    return writer(new LsmSettings(batch, LsmSettings.HUDI_COMPACTION_MAX_BYTES, 3));
  }

  private LsmHistoryWriter writer(LsmSettings settings) {
    return new LsmHistoryWriter(storage, folder, settings);
  }

  private LsmSnapshot current() throws IOException {
    return LsmSnapshot.current(storage, folder);
  }

  /** {@code n} rows of instants requested after every earlier one. */
  private List<LsmRow> rows(int n) {
    List<LsmRow> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String time = String.valueOf(++clock);
      rows.add(
          new LsmRow(
              time,
              String.valueOf(clock + 5),
              i % 3 == 2 ? "clean" : "commit",
              Optional.of(ByteBuffer.wrap(("metadata of " + time).getBytes(UTF_8))),
              i % 3 == 2
                  ? Optional.of(ByteBuffer.wrap(("plan " + time).getBytes(UTF_8)))
                  : Optional.empty()));
    }
    return rows;
  }

  /** One archival run: a layer-0 file, made current. */
  private LsmSnapshot archive(LsmHistoryWriter writer, List<LsmRow> rows) throws IOException {
    LsmManifest.Entry file = writer.writeLayerZero(rows);
    return writer.commit(current(), List.of(), List.of(file));
  }

  private List<String> names() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  private static List<LsmRow> read(LsmHistory history) {
    return history.instants().stream().map(LsmHistoryInstant::row).toList();
  }

  @Test
  void rowsWrittenAreReadBackRowForRowBytesIncluded() throws IOException {
    List<LsmRow> rows = new ArrayList<>(rows(5));
    rows.add(
        new LsmRow(
            String.valueOf(++clock),
            "20250102000000000",
            "rollback",
            Optional.empty(),
            Optional.empty()));
    rows.add(
        new LsmRow(
            String.valueOf(++clock),
            Optional.empty(),
            "replacecommit",
            Optional.of(ByteBuffer.wrap(new byte[0])),
            Optional.of(ByteBuffer.wrap(new byte[] {0, (byte) 0xff, 1}))));
    LsmSnapshot snapshot = archive(writer(10), rows);

    assertThat(snapshot.version()).hasValue(1);
    LsmHistory history = LsmHistory.load(storage, folder, ArchiveReadOptions.all());
    assertThat(read(history)).isEqualTo(rows);
    assertThat(history.instants()).allSatisfy(r -> assertThat(r.version()).isEqualTo(1));
    assertThat(history.files())
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.name().fileName())
                  .isEqualTo(
                      rows.get(0).requestedTime()
                          + "_"
                          + rows.get(6).requestedTime()
                          + "_0.parquet");
              assertThat(f.length()).isEqualTo(f.manifestLength());
            });
  }

  @Test
  void theFileHasHudisSchemaCodecAndFooterKeysAndNothingElse() throws IOException {
    LsmManifest.Entry file = writer(10).writeLayerZero(rows(3));
    byte[] bytes = Files.readAllBytes(dir.resolve(file.name().fileName()));
    assertThat(bytes.length).isEqualTo(file.length());
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            new ByteArrayInputFile(bytes, "f"), ParquetReadOptions.builder().build())) {
      var meta = reader.getFooter().getFileMetaData();
      assertThat(meta.getSchema()).isEqualTo(HistoryFolder.SCHEMA);
      assertThat(meta.getKeyValueMetaData())
          .containsExactlyInAnyOrderEntriesOf(
              Map.of(
                  "parquet.avro.schema", LsmFileWriter.AVRO_SCHEMA, "writer.model.name", "avro"));
      assertThat(reader.getFooter().getBlocks())
          .flatExtracting(b -> b.getColumns())
          .extracting(ColumnChunkMetaData::getCodec)
          .containsOnly(CompressionCodecName.GZIP);
    }
  }

  @Test
  void theManifestIsJacksonsPrettyPrintOfHudisManifest() {
    LsmManifest.Entry a =
        new LsmManifest.Entry(LsmFileName.parse("1_2_0.parquet").orElseThrow(), 10);
    LsmManifest.Entry b =
        new LsmManifest.Entry(LsmFileName.parse("3_4_1.parquet").orElseThrow(), 2048);
    assertThat(new String(LsmManifest.json(List.of(a, b)), UTF_8))
        .isEqualTo(
            "{\n  \"files\" : [ {\n    \"fileName\" : \"1_2_0.parquet\",\n    \"fileLen\" : 10\n"
                + "  }, {\n    \"fileName\" : \"3_4_1.parquet\",\n    \"fileLen\" : 2048\n  } ]\n}");
    assertThat(new String(LsmManifest.json(List.of()), UTF_8)).isEqualTo("{\n  \"files\" : [ ]\n}");
  }

  @Test
  void eachCommitWritesTheNextManifestAndReplacesVersion() throws IOException {
    LsmHistoryWriter writer = writer(10);
    List<LsmRow> first = rows(2);
    archive(writer, first);
    assertThat(Files.readString(dir.resolve("_version_"))).isEqualTo("1");
    List<LsmRow> second = rows(2);
    LsmSnapshot two = archive(writer, second);

    assertThat(Files.readString(dir.resolve("_version_"))).isEqualTo("2");
    assertThat(names()).contains("manifest_1", "manifest_2");
    assertThat(two.files()).hasSize(2);
    assertThat(current()).isEqualTo(two);
    assertThat(Files.readAllBytes(dir.resolve("manifest_2")))
        .isEqualTo(LsmManifest.json(two.files()));
    List<LsmRow> all = new ArrayList<>(first);
    all.addAll(second);
    assertThat(read(LsmHistory.load(storage, folder, ArchiveReadOptions.all()))).isEqualTo(all);
  }

  @Test
  void archivingTheSameInstantsTwiceFails() throws IOException {
    LsmHistoryWriter writer = writer(10);
    List<LsmRow> rows = rows(3);
    archive(writer, rows);
    assertThatThrownBy(() -> writer.writeLayerZero(rows))
        .isInstanceOf(FileAlreadyExistsException.class)
        .hasMessageContaining(
            rows.get(0).requestedTime() + "_" + rows.get(2).requestedTime() + "_0.parquet")
        .hasMessageContaining("lists it already");
  }

  @Test
  void badRowsAreRefused() {
    LsmHistoryWriter writer = writer(10);
    List<LsmRow> rows = rows(2);
    assertThatThrownBy(() -> writer.writeLayerZero(List.of(rows.get(1), rows.get(0))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("out of order");
    assertThatThrownBy(() -> writer.writeLayerZero(List.of()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new LsmRow("12a", "13", "commit", Optional.empty(), Optional.empty()))
        .hasMessageContaining("'12a'");
  }

  @Test
  void aStaleSnapshotIsNotCommittedOver() throws IOException {
    LsmHistoryWriter writer = writer(10);
    LsmSnapshot before = current();
    archive(writer, rows(2));
    LsmManifest.Entry file = writer.writeLayerZero(rows(2));
    assertThatThrownBy(() -> writer.commit(before, List.of(), List.of(file)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("another writer");
  }

  // --- compaction and cleaning, by Hudi 1.0.1's rules

  @Test
  void belowTheBatchSizeNothingIsCompacted() throws IOException {
    LsmHistoryWriter writer = writer(3);
    archive(writer, rows(2));
    LsmSnapshot two = archive(writer, rows(2));
    LsmCompaction done = writer.compactAndClean(two);
    assertThat(done.merges()).isEmpty();
    assertThat(done.deletedFiles()).isEmpty();
    assertThat(done.deletedManifests()).isEmpty();
    assertThat(done.snapshot()).isEqualTo(two);
  }

  @Test
  void atTheBatchSizeTheLayerIsMergedIntoOneFileOfTheNext() throws IOException {
    LsmHistoryWriter writer = writer(3);
    List<LsmRow> all = new ArrayList<>();
    LsmSnapshot snapshot = null;
    for (int i = 0; i < 3; i++) {
      List<LsmRow> rows = rows(2);
      all.addAll(rows);
      snapshot = archive(writer, rows);
    }
    LsmCompaction done = writer.compactAndClean(snapshot);

    assertThat(done.merges())
        .singleElement()
        .satisfies(
            m -> {
              assertThat(m.sources()).hasSize(3);
              assertThat(m.target().name())
                  .isEqualTo(
                      new LsmFileName(all.get(0).requestedTime(), all.get(5).requestedTime(), 1));
              assertThat(m.manifest()).isEqualTo(4);
            });
    assertThat(done.snapshot().version()).hasValue(4);
    assertThat(done.snapshot().files()).extracting(e -> e.name().layer()).containsExactly(1);
    // 4 manifests, 3 + 1 kept: nothing cleaned yet, the merged files stay for older snapshots
    assertThat(done.deletedManifests()).isEmpty();
    assertThat(done.deletedFiles()).isEmpty();
    assertThat(read(LsmHistory.load(storage, folder, ArchiveReadOptions.all()))).isEqualTo(all);
  }

  @Test
  void mergesCascadeLayerByLayerAndTheCleanKeepsThreePlusOnePerMerge() throws IOException {
    LsmHistoryWriter writer = writer(2);
    List<LsmRow> all = new ArrayList<>();
    List<Integer> mergesPerRun = new ArrayList<>();
    LsmCompaction last = null;
    for (int run = 0; run < 8; run++) {
      List<LsmRow> rows = rows(2);
      all.addAll(rows);
      last = writer.compactAndClean(archive(writer, rows));
      mergesPerRun.add(last.merges().size());
      assertThat(read(LsmHistory.load(storage, folder, ArchiveReadOptions.all())))
          .as("run %d", run)
          .isEqualTo(all);
    }
    // a binary counter: run 2 merges layer 0, run 4 layers 0 and 1, run 8 layers 0, 1 and 2
    assertThat(mergesPerRun).containsExactly(0, 1, 0, 2, 0, 1, 0, 3);
    assertThat(last.snapshot().files()).extracting(e -> e.name().layer()).containsExactly(3);
    List<String> manifests = names().stream().filter(n -> n.startsWith("manifest_")).toList();
    int version = last.snapshot().version().getAsInt();
    assertThat(manifests)
        .containsExactlyInAnyOrder(
            Stream.iterate(version - 5, v -> v + 1)
                .limit(6)
                .map(v -> "manifest_" + v)
                .toArray(String[]::new));
    // every history file left is listed by a kept manifest
    List<String> listed = new ArrayList<>();
    for (String m : manifests) {
      LsmManifest.parse(folder.resolve(m), 0, Files.readAllBytes(dir.resolve(m)))
          .files()
          .forEach(e -> listed.add(e.name().fileName()));
    }
    assertThat(names().stream().filter(n -> n.endsWith(".parquet"))).allMatch(listed::contains);
    assertThat(last.deletedFiles()).isNotEmpty();
  }

  @Test
  void theSizeBoundStopsTakingFilesOnceThoseTakenHoldMore() throws IOException {
    LsmHistoryWriter probe = writer(10);
    archive(probe, rows(2));
    long size = current().files().get(0).length();
    // the bound is checked before each file: over it after two files, so two are taken of four
    LsmHistoryWriter writer = writer(new LsmSettings(4, size + 1, 3));
    LsmSnapshot snapshot = null;
    for (int i = 0; i < 3; i++) {
      snapshot = archive(writer, rows(2));
    }
    LsmCompaction done = writer.compactAndClean(snapshot);
    assertThat(done.merges()).singleElement().satisfies(m -> assertThat(m.sources()).hasSize(2));
    assertThat(done.snapshot().files()).extracting(e -> e.name().layer()).containsExactly(0, 0, 1);

    // a bound the first file passes alone takes one file only: no merge (Hudi 1.0.1 does not
    // look further)
    LsmHistoryWriter tight = writer(new LsmSettings(2, 0, 3));
    assertThat(tight.compactAndClean(done.snapshot()).merges()).isEmpty();
  }

  @Test
  void layerNineIsNeverCompacted() {
    List<LsmManifest.Entry> top =
        List.of(
            new LsmManifest.Entry(new LsmFileName("1", "2", 9), 1),
            new LsmManifest.Entry(new LsmFileName("3", "4", 9), 1));
    assertThat(LsmCompactionRules.candidates(top, 9, new LsmSettings(2, 100, 3))).isEmpty();
  }

  // --- crash leftovers

  @Test
  void aLayerZeroFileNoManifestListsIsWrittenAnew() throws IOException {
    LsmHistoryWriter writer = writer(10);
    List<LsmRow> rows = rows(3);
    String name = rows.get(0).requestedTime() + "_" + rows.get(2).requestedTime() + "_0.parquet";
    Files.writeString(dir.resolve(name), "half a file");
    archive(writer, rows);
    assertThat(read(LsmHistory.load(storage, folder, ArchiveReadOptions.all()))).isEqualTo(rows);
  }

  @Test
  void aManifestAboveVersionIsDeletedAndWrittenAnew() throws IOException {
    LsmHistoryWriter writer = writer(10);
    List<LsmRow> first = rows(2);
    archive(writer, first);
    Files.writeString(
        dir.resolve("manifest_2"),
        "{\"files\": [{\"fileName\": \"9_9_0.parquet\", \"fileLen\": 1}]}");
    assertThat(current().version()).hasValue(1);
    List<LsmRow> second = rows(2);
    LsmSnapshot two = archive(writer, second);
    assertThat(two.version()).hasValue(2);
    assertThat(Files.readAllBytes(dir.resolve("manifest_2")))
        .isEqualTo(LsmManifest.json(two.files()));
    assertThat(LsmHistory.load(storage, folder, ArchiveReadOptions.all()).instants()).hasSize(4);
  }

  @Test
  void aMissingVersionFileIsWrittenAgainAndTheHighestManifestIsCurrentMeanwhile()
      throws IOException {
    LsmHistoryWriter writer = writer(10);
    archive(writer, rows(2));
    archive(writer, rows(2));
    Files.delete(dir.resolve("_version_"));
    LsmSnapshot fallback = current();
    assertThat(fallback.version()).hasValue(2);
    assertThat(fallback.fromVersionFile()).isFalse();
    writer.compactAndClean(fallback);
    assertThat(Files.readString(dir.resolve("_version_"))).isEqualTo("2");
    // and a commit over the fallback snapshot goes on from it
    archive(writer, rows(1));
    assertThat(Files.readString(dir.resolve("_version_"))).isEqualTo("3");
  }

  @Test
  void aCompactedFileWithoutItsManifestIsWrittenAnew() throws IOException {
    LsmHistoryWriter writer = writer(2);
    List<LsmRow> all = new ArrayList<>();
    List<LsmRow> a = rows(2);
    List<LsmRow> b = rows(2);
    all.addAll(a);
    all.addAll(b);
    archive(writer, a);
    LsmSnapshot two = archive(writer, b);
    String merged = a.get(0).requestedTime() + "_" + b.get(1).requestedTime() + "_1.parquet";
    Files.write(dir.resolve(merged), new byte[] {'P', 'A', 'R', '1'});

    LsmCompaction done = writer.compactAndClean(two);
    assertThat(done.merges())
        .singleElement()
        .satisfies(m -> assertThat(m.target().name().fileName()).isEqualTo(merged));
    assertThat(read(LsmHistory.load(storage, folder, ArchiveReadOptions.all()))).isEqualTo(all);
  }

  @Test
  void theCleanDeletesFilesAndManifestsNoSnapshotNeeds() throws IOException {
    LsmHistoryWriter writer = writer(10);
    LsmSnapshot one = archive(writer, rows(2));
    Files.writeString(dir.resolve("1_2_0.parquet"), "an orphan a crashed run left");
    Files.writeString(dir.resolve("manifest_2"), "{\"files\": []}");
    Files.writeString(dir.resolve("notes.txt"), "not ours");
    LsmCompaction done = writer.compactAndClean(one);
    assertThat(done.deletedFiles())
        .extracting(StorageLocation::fileName)
        .containsExactly("1_2_0.parquet");
    assertThat(done.deletedManifests())
        .extracting(StorageLocation::fileName)
        .containsExactly("manifest_2");
    assertThat(names())
        .contains("notes.txt", "manifest_1", "_version_")
        .doesNotContain("manifest_2", "1_2_0.parquet");
    assertThat(one.files()).allSatisfy(e -> assertThat(dir.resolve(e.name().fileName())).exists());
  }

  // --- bad input

  @Test
  void aCorruptFileToMergeFailsNamingIt() throws IOException {
    LsmHistoryWriter writer = writer(2);
    archive(writer, rows(2));
    LsmSnapshot two = archive(writer, rows(2));
    String victim = two.files().get(1).name().fileName();
    Files.writeString(dir.resolve(victim), "garbage");
    assertThatThrownBy(() -> writer.compactAndClean(two))
        .isInstanceOf(CorruptHistoryFileException.class)
        .hasMessageContaining(folder.resolve(victim).toString());
    Files.delete(dir.resolve(victim));
    assertThatThrownBy(() -> writer.compactAndClean(two))
        .isInstanceOf(CorruptHistoryFileException.class)
        .hasMessageContaining(folder.resolve(victim).toString())
        .hasMessageContaining("does not exist");
    assertThat(current()).isEqualTo(two);
  }

  @Test
  void settingsTakeHudisKeyAndDefaultAndNameABadValue() {
    assertThat(LsmSettings.defaults()).isEqualTo(new LsmSettings(10, 1000L * 1024 * 1024, 3));
    assertThat(
            LsmSettings.fromConfig(Map.of("hoodie.timeline.compaction.batch.size", "4"))
                .compactionBatchSize())
        .isEqualTo(4);
    assertThatThrownBy(
            () -> LsmSettings.fromConfig(Map.of("hoodie.timeline.compaction.batch.size", "x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("hoodie.timeline.compaction.batch.size");
    assertThatThrownBy(
            () -> LsmSettings.fromConfig(Map.of("hoodie.timeline.compaction.batch.size", "0")))
        .hasMessageStartingWith("hoodie.timeline.compaction.batch.size");
  }
}
