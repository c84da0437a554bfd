package io.timelinearchive.hudi1;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.archive.read.ArchiveReadOptions;
import io.timelinearchive.lsm.Hudi1Actions;
import io.timelinearchive.lsm.Hudi1ActiveTimeline;
import io.timelinearchive.lsm.Hudi1Instant;
import io.timelinearchive.lsm.Hudi1TimelineFile;
import io.timelinearchive.lsm.LsmCompaction;
import io.timelinearchive.lsm.LsmFileName;
import io.timelinearchive.lsm.LsmHistory;
import io.timelinearchive.lsm.LsmHistoryInstant;
import io.timelinearchive.lsm.LsmHistoryWriter;
import io.timelinearchive.lsm.LsmManifest;
import io.timelinearchive.lsm.LsmRow;
import io.timelinearchive.lsm.LsmSettings;
import io.timelinearchive.lsm.LsmSnapshot;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.HoodieTable;
import io.timelinearchive.timeline.State;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hudi.common.model.HoodieLSMTimelineManifest;
import org.apache.hudi.common.model.HoodieTableType;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieArchivedTimeline;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.hadoop.fs.HadoopFSUtils;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.FileMetaData;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21, writing: the LSM history our {@link LsmHistoryWriter} writes is Hudi 1.0.1's own.
 * Hudi's archived timeline reads our files and manifests (instants, completion times, metadata and
 * plan bytes); Hudi's archiver carries on over them, compacting our files with its own; our
 * compaction carries on over files Hudi wrote, and Hudi reads the result as before; our files'
 * footers and our manifests are Hudi's to the byte.
 */
class TestHudi1ReadsOurHistory {
  private static final String ALL_FROM = "0";
  private static final String ALL_TO = "99999999999999999";

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

  private static final Map<String, String> NO_ARCHIVAL =
      Map.of(
          "hoodie.clean.commits.retained", "1",
          "hoodie.cleaner.commits.retained", "1",
          "hoodie.compact.inline.max.delta.commits", "3");

  @TempDir Path tmp;

  @Test
  void hudiReadsWhatWeArchivedAndItsArchiverCarriesOnOverIt() throws IOException {
    HoodieTableType type = HoodieTableType.MERGE_ON_READ;
    Path table = tmp.resolve("mor");
    Hudi1Table.write(table, type, NO_ARCHIVAL, 10);

    List<LsmRow> ours;
    try (MetaStorage storage = storage(table)) {
      HoodieTable hoodie = HoodieTable.inspect(storage, base(table));
      ours = archiveOldest(storage, hoodie, 8);
    }
    assertThat(ours).hasSize(8);
    assertThat(ours)
        .as("a compaction archived with its plan")
        .anySatisfy(
            r -> {
              assertThat(r.action()).isEqualTo("commit");
              assertThat(r.plan()).isPresent();
            });

    // Hudi 1.0.1's archived timeline: our rows, instant for instant and byte for byte
    HoodieArchivedTimeline archived = metaClient(table).getArchivedTimeline();
    archived.loadInstantDetailsInMemory(ALL_FROM, ALL_TO);
    assertThat(archived.getInstants())
        .extracting(TestHudi1ReadsOurHistory::key)
        .containsExactlyElementsOf(ours.stream().map(TestHudi1ReadsOurHistory::key).toList());
    for (LsmRow row : ours) {
      HoodieInstant instant = hudiInstant(archived, row);
      assertThat(archived.getInstantDetails(instant).orElse(null))
          .as("metadata of %s", row.requestedTime())
          .isEqualTo(row.metadata().map(TestHudi1ReadsOurHistory::bytes).orElse(null));
    }
    archived.clearInstantDetailsFromMemory(ALL_FROM, ALL_TO);
    archived.loadCompactionDetailsInMemory(ALL_FROM, ALL_TO);
    for (LsmRow row : ours) {
      if (row.action().equals("commit") && row.plan().isPresent()) {
        assertThat(archived.getInstantDetails(hudiInstant(archived, row)).orElse(null))
            .as("compaction plan of %s", row.requestedTime())
            .isEqualTo(bytes(row.plan().get()));
      }
    }

    // Hudi's archiver on later commits: manifests on from ours, our file compacted with its own
    String ourFile = ours.get(0).requestedTime() + "_" + ours.get(7).requestedTime() + "_0.parquet";
    try (Hudi1Table hudi = Hudi1Table.open(table, type, HUDI_ARCHIVAL)) {
      for (int i = 0; i < 8; i++) {
        hudi.commit();
      }
    }
    try (MetaStorage storage = storage(table)) {
      HoodieTable hoodie = HoodieTable.inspect(storage, base(table));
      LsmHistory history = LsmHistory.load(storage, hoodie, ArchiveReadOptions.all());
      assertThat(history.snapshot().version().getAsInt()).isGreaterThan(2);
      assertThat(history.snapshot().files())
          .extracting(e -> e.name().fileName())
          .doesNotContain(ourFile);
      assertThat(history.snapshot().files())
          .anySatisfy(
              e -> {
                assertThat(e.name().layer()).isPositive();
                assertThat(e.name().minTime()).isEqualTo(ours.get(0).requestedTime());
              });
      assertThat(history.instants().stream().map(LsmHistoryInstant::row).toList())
          .as("our rows, as Hudi's compaction copied them")
          .containsAll(ours);
      assertHudiAndWeReadTheSameHistory(table, history);
    }
  }

  @Test
  void ourCompactionCarriesOnOverHudisFilesAndHudiOverOurs() throws IOException {
    HoodieTableType type = HoodieTableType.COPY_ON_WRITE;
    Path table = tmp.resolve("cow");
    Map<String, String> hudiNoCompaction = new LinkedHashMap<>(HUDI_ARCHIVAL);
    hudiNoCompaction.put("hoodie.timeline.compaction.batch.size", "100");
    Hudi1Table.write(table, type, hudiNoCompaction, 14);

    Path history = table.resolve(".hoodie/timeline/history");
    List<Path> hudisFiles = parquetFiles(history);
    assertThat(hudisFiles).as("Hudi's layer-0 files").hasSizeGreaterThan(3);
    Map<String, String> before = hudiDetails(table);

    LsmCompaction done;
    try (MetaStorage storage = storage(table)) {
      HoodieTable hoodie = HoodieTable.inspect(storage, base(table));
      LsmHistoryWriter writer =
          new LsmHistoryWriter(
              storage,
              hoodie.historyFolder(),
              LsmSettings.fromConfig(Map.of("hoodie.timeline.compaction.batch.size", "3")));
      done = writer.compactAndClean(LsmSnapshot.current(storage, hoodie.historyFolder()));
    }
    assertThat(done.merges()).isNotEmpty();
    assertThat(hudiDetails(table))
        .as("Hudi reads our compaction as its history before")
        .isEqualTo(before);

    // our compacted file: Hudi's schema in its footer, and Hudi's footer keys, nothing else
    Path merged = history.resolve(done.merges().get(0).target().name().fileName());
    FileMetaData ours = footer(merged);
    FileMetaData hudis =
        footer(
            parquetFiles(history).stream()
                .filter(p -> !p.equals(merged))
                .filter(
                    p -> {
                      String n = p.getFileName().toString();
                      return n.endsWith("_0.parquet");
                    })
                .findFirst()
                .orElseThrow());
    assertThat(ours.getKeyValueMetaData()).isEqualTo(hudis.getKeyValueMetaData());
    assertThat(ours.getSchema()).isEqualTo(hudis.getSchema());

    // Hudi's archiver and compaction on over our manifest and compacted files
    try (Hudi1Table hudi = Hudi1Table.open(table, type, HUDI_ARCHIVAL)) {
      for (int i = 0; i < 8; i++) {
        hudi.commit();
      }
    }
    Map<String, String> after = hudiDetails(table);
    assertThat(after.keySet()).containsAll(before.keySet());
    try (MetaStorage storage = storage(table)) {
      HoodieTable hoodie = HoodieTable.inspect(storage, base(table));
      LsmHistory read = LsmHistory.load(storage, hoodie, ArchiveReadOptions.all());
      assertThat(read.snapshot().version().getAsInt())
          .isGreaterThan(done.snapshot().version().getAsInt());
      assertHudiAndWeReadTheSameHistory(table, read);
    }
  }

  @Test
  void ourManifestsAreHudisToTheByte() throws IOException {
    Path table = tmp.resolve("cow");
    Hudi1Table.write(table, HoodieTableType.COPY_ON_WRITE, HUDI_ARCHIVAL, 12);
    Path history = table.resolve(".hoodie/timeline/history");
    List<Path> manifests;
    try (Stream<Path> files = Files.list(history)) {
      manifests = files.filter(p -> p.getFileName().toString().matches("manifest_\\d+")).toList();
    }
    assertThat(manifests).hasSizeGreaterThan(2);
    StorageLocation folder = StorageLocation.of(history.toUri().toString());
    for (Path m : manifests) {
      byte[] hudis = Files.readAllBytes(m);
      LsmManifest parsed = LsmManifest.parse(folder.resolve(m.getFileName().toString()), 1, hudis);
      assertThat(LsmManifest.json(parsed.files())).as("%s", m.getFileName()).isEqualTo(hudis);

      HoodieLSMTimelineManifest hudi = new HoodieLSMTimelineManifest();
      parsed.files().forEach(e -> hudi.addFile(e.name().fileName(), e.length()));
      assertThat(new String(LsmManifest.json(parsed.files()), StandardCharsets.UTF_8))
          .isEqualTo(hudi.toJsonString());
    }
    assertThat(new String(LsmManifest.json(List.of()), StandardCharsets.UTF_8))
        .isEqualTo(new HoodieLSMTimelineManifest().toJsonString());
  }

  /**
   * Archives the oldest {@code count} completed instants as an archival run of ours would: their
   * rows (as Hudi's {@code MetadataConversionUtils} makes them) into a layer-0 file, made current,
   * then their state files deleted.
   */
  private static List<LsmRow> archiveOldest(MetaStorage storage, HoodieTable hoodie, int count)
      throws IOException {
    Hudi1ActiveTimeline active = Hudi1ActiveTimeline.load(storage, hoodie);
    Map<String, List<Hudi1TimelineFile>> byTime = new TreeMap<>();
    for (Hudi1TimelineFile f : active.files()) {
      byTime.computeIfAbsent(f.instant().requestedTime(), t -> new ArrayList<>()).add(f);
    }
    List<LsmRow> rows = new ArrayList<>();
    List<StorageLocation> toDelete = new ArrayList<>();
    for (List<Hudi1TimelineFile> files : byTime.values()) {
      Optional<Hudi1TimelineFile> completed =
          files.stream().filter(f -> f.instant().state() == State.COMPLETED).findFirst();
      if (completed.isEmpty()) {
        break;
      }
      Hudi1Instant instant = completed.get().instant();
      byte[] metadata = Hudi1ActiveTimeline.read(storage, completed.get());
      Optional<ByteBuffer> plan = plan(storage, instant.action(), files);
      rows.add(
          new LsmRow(
              instant.requestedTime(),
              instant.completionTime().orElseThrow(),
              instant.action(),
              metadata.length == 0 ? Optional.empty() : Optional.of(ByteBuffer.wrap(metadata)),
              plan));
      files.forEach(f -> toDelete.add(f.file().location()));
      if (rows.size() == count) {
        break;
      }
    }
    LsmHistoryWriter writer =
        new LsmHistoryWriter(storage, hoodie.historyFolder(), LsmSettings.defaults());
    LsmManifest.Entry file = writer.writeLayerZero(rows);
    writer.commit(LsmSnapshot.current(storage, hoodie.historyFolder()), List.of(), List.of(file));
    storage.deleteAll(toDelete);
    return rows;
  }

  /** The plan Hudi 1.0.1 archives with an instant (see HUDI-FORMAT.md §8). */
  private static Optional<ByteBuffer> plan(
      MetaStorage storage, String completedAction, List<Hudi1TimelineFile> files)
      throws IOException {
    String pending =
        switch (completedAction) {
          case Hudi1Actions.CLEAN -> Hudi1Actions.CLEAN;
          case Hudi1Actions.COMMIT -> Hudi1Actions.COMPACTION;
          default -> null;
        };
    if (pending == null) {
      return Optional.empty();
    }
    for (Hudi1TimelineFile f : files) {
      if (f.instant().action().equals(pending) && f.instant().state() == State.REQUESTED) {
        return Optional.of(ByteBuffer.wrap(Hudi1ActiveTimeline.read(storage, f)));
      }
    }
    return Optional.empty();
  }

  /** Hudi's archived instants with their metadata (in hex), as Hudi 1.0.1 reads them now. */
  private static Map<String, String> hudiDetails(Path table) {
    HoodieArchivedTimeline archived = metaClient(table).getArchivedTimeline();
    archived.loadInstantDetailsInMemory(ALL_FROM, ALL_TO);
    Map<String, String> details = new TreeMap<>();
    for (HoodieInstant i : archived.getInstants()) {
      details.put(
          key(i), HexFormat.of().formatHex(archived.getInstantDetails(i).orElse(new byte[0])));
    }
    return details;
  }

  private static void assertHudiAndWeReadTheSameHistory(Path table, LsmHistory ours) {
    Map<String, String> read = new TreeMap<>();
    for (LsmHistoryInstant row : ours.instants()) {
      read.put(key(row.row()), HexFormat.of().formatHex(row.metadataBytes().orElse(new byte[0])));
    }
    assertThat(read).isEqualTo(hudiDetails(table));
  }

  private static String key(HoodieInstant i) {
    return i.requestedTime() + " " + i.getAction() + " " + i.getCompletionTime();
  }

  private static String key(LsmRow r) {
    return r.requestedTime() + " " + r.action() + " " + r.completionTime().orElse(null);
  }

  private static HoodieInstant hudiInstant(HoodieArchivedTimeline archived, LsmRow row) {
    return archived.getInstants().stream()
        .filter(i -> key(i).equals(key(row)))
        .findFirst()
        .orElseThrow(() -> new AssertionError("Hudi has no " + key(row)));
  }

  private static byte[] bytes(ByteBuffer b) {
    byte[] bytes = new byte[b.remaining()];
    b.duplicate().get(bytes);
    return bytes;
  }

  private static List<Path> parquetFiles(Path history) throws IOException {
    try (Stream<Path> files = Files.list(history)) {
      return files
          .filter(p -> LsmFileName.parse(p.getFileName().toString()).isPresent())
          .sorted()
          .toList();
    }
  }

  private static FileMetaData footer(Path file) throws IOException {
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
      return reader.getFooter().getFileMetaData();
    }
  }

  private static HoodieTableMetaClient metaClient(Path table) {
    return HoodieTableMetaClient.builder()
        .setConf(HadoopFSUtils.getStorageConf(new Configuration()))
        .setBasePath("file://" + table.toAbsolutePath())
        .build();
  }

  private static StorageLocation base(Path table) {
    return StorageLocation.of(table.toUri().toString());
  }

  private static MetaStorage storage(Path table) throws IOException {
    return MetaStorages.open(base(table), Map.of());
  }
}
