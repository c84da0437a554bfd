package io.timelinearchive.format;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.archive.read.ArchiveReadOptions;
import io.timelinearchive.archive.read.ArchivedTimeline;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.memory.InMemoryMetaStorageFactory;
import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.State;
import io.timelinearchive.timeline.TimelineInstant;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.DataFormatException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/** The instant file's bytes ride compressed; archives that carry them as they were still read. */
class TestRawContent {
  private static final TimelineInstant COMMIT =
      new TimelineInstant("20260101000000000", Action.COMMIT, State.COMPLETED);

  private static final TimelineInstant NEXT_COMMIT =
      new TimelineInstant("20260101000000001", Action.COMMIT, State.COMPLETED);
  private static final TimelineInstant CLEAN =
      new TimelineInstant("20260101000000001", Action.CLEAN, State.COMPLETED);

  @Test
  void compressesAndRestoresByteForByte() throws Exception {
    Random random = new Random(1);
    for (int size : new int[] {0, 1, 100, 70_000}) {
      byte[] content = new byte[size];
      random.nextBytes(content);
      try (RawContent.BlockDeflater deflater = new RawContent.BlockDeflater()) {
        ByteBuffer deflated = deflater.deflate(COMMIT, content);
        assertThat(new RawContent.BlockInflater().inflate(COMMIT, deflated)).isEqualTo(content);
      }
    }
  }

  @Test
  void anEntryIsCompressedAgainstThePreviousOfItsKindInTheBlock() throws Exception {
    byte[] first = commitJson("20260101000000000", 2);
    byte[] second = commitJson("20260101000000001", 2);
    byte[] clean = "{\"totalFilesDeleted\": 3}".repeat(20).getBytes(UTF_8);
    ByteBuffer alone;
    try (RawContent.BlockDeflater deflater = new RawContent.BlockDeflater()) {
      alone = deflater.deflate(NEXT_COMMIT, second);
    }
    List<ByteBuffer> block = new ArrayList<>();
    try (RawContent.BlockDeflater deflater = new RawContent.BlockDeflater()) {
      block.add(deflater.deflate(COMMIT, first));
      block.add(deflater.deflate(CLEAN, clean));
      block.add(deflater.deflate(NEXT_COMMIT, second));
    }

    // under a fifth of its size alone: the two commits share their schema and differ in times
    assertThat(block.get(2).remaining()).isLessThan(alone.remaining() / 5);
    // a program that short is stored as it is: zlib would add more than it takes off
    assertThat(block.get(2).get(0)).isEqualTo((byte) 0x03);
    assertThat(alone.get(0)).isEqualTo((byte) 0x02);
    RawContent.BlockInflater inflater = new RawContent.BlockInflater();
    assertThat(inflater.inflate(COMMIT, block.get(0))).isEqualTo(first);
    assertThat(inflater.inflate(CLEAN, block.get(1))).isEqualTo(clean);
    assertThat(inflater.inflate(NEXT_COMMIT, block.get(2))).isEqualTo(second);
  }

  @Test
  void anEntryWithoutThePreviousOfItsKindFailsInsteadOfRestoringWrongBytes() throws Exception {
    byte[] first = commitJson("20260101000000000", 2);
    byte[] second = commitJson("20260101000000001", 2);
    ByteBuffer dependent;
    try (RawContent.BlockDeflater deflater = new RawContent.BlockDeflater()) {
      deflater.deflate(COMMIT, first);
      dependent = deflater.deflate(NEXT_COMMIT, second);
    }

    failsWithoutOrWithAnotherPrevious(dependent, commitJson("20250101000000000", 40));
  }

  /** {@code dependent} cannot be restored without its reference, nor from {@code other}. */
  private static void failsWithoutOrWithAnotherPrevious(ByteBuffer dependent, byte[] other) {
    assertThatThrownBy(() -> new RawContent.BlockInflater().inflate(NEXT_COMMIT, dependent))
        .isInstanceOf(DataFormatException.class)
        .hasMessageContaining("refers to the entry 1 back, where the block holds 0");
    RawContent.BlockInflater wrong = new RawContent.BlockInflater();
    wrong.skip(COMMIT, other);
    assertThatThrownBy(() -> wrong.inflate(NEXT_COMMIT, dependent))
        .isInstanceOf(DataFormatException.class)
        .hasMessageContaining("does not match its checksum");
  }

  @Test
  void damagedOrCutContentFails() throws Exception {
    ByteBuffer deflated;
    try (RawContent.BlockDeflater deflater = new RawContent.BlockDeflater()) {
      deflated = deflater.deflate(COMMIT, "{\"a\": 1}".repeat(50).getBytes(UTF_8));
    }
    byte[] cut = new byte[deflated.remaining() - 3];
    deflated.duplicate().get(cut);
    assertThatThrownBy(() -> new RawContent.BlockInflater().inflate(COMMIT, ByteBuffer.wrap(cut)))
        .isInstanceOf(DataFormatException.class);
    byte[] damaged = new byte[deflated.remaining()];
    deflated.duplicate().get(damaged);
    damaged[damaged.length - 2] ^= 0x55;
    assertThatThrownBy(
            () -> new RawContent.BlockInflater().inflate(COMMIT, ByteBuffer.wrap(damaged)))
        .isInstanceOf(DataFormatException.class);
  }

  @Test
  void aLongContentIsStoredAsItsDifferenceFromThePrevious() throws Exception {
    // about 130 KB each, the second with more write stats: its shared runs sit later in the first
    byte[] first = manyFileGroups("20260101000000000", 1_000);
    byte[] second = manyFileGroups("20260101000000001", 1_040);
    ByteBuffer alone;
    try (RawContent.BlockDeflater deflater = new RawContent.BlockDeflater()) {
      alone = deflater.deflate(NEXT_COMMIT, second);
    }
    ByteBuffer firstDeflated;
    ByteBuffer secondDeflated;
    try (RawContent.BlockDeflater deflater = new RawContent.BlockDeflater()) {
      firstDeflated = deflater.deflate(COMMIT, first);
      secondDeflated = deflater.deflate(NEXT_COMMIT, second);
    }

    assertThat(second.length).isGreaterThan(4 * 32 * 1024);
    // alone, zlib's 32 KiB window reaches none of the repeated ids; the difference, all of them
    assertThat(secondDeflated.remaining()).isLessThan(alone.remaining() / 10);
    RawContent.BlockInflater inflater = new RawContent.BlockInflater();
    assertThat(inflater.inflate(COMMIT, firstDeflated)).isEqualTo(first);
    assertThat(inflater.inflate(NEXT_COMMIT, secondDeflated)).isEqualTo(second);

    failsWithoutOrWithAnotherPrevious(secondDeflated, manyFileGroups("20250101000000000", 1_000));
    for (int cut :
        new int[] {1, 8, secondDeflated.remaining() / 2, secondDeflated.remaining() - 1}) {
      ByteBuffer shorter = secondDeflated.duplicate();
      shorter.limit(shorter.position() + cut);
      RawContent.BlockInflater again = new RawContent.BlockInflater();
      again.skip(COMMIT, first);
      assertThatThrownBy(() -> again.inflate(NEXT_COMMIT, shorter))
          .as("cut to %d bytes", cut)
          .isInstanceOf(DataFormatException.class);
    }
  }

  /** Any sequence of contents, short and long, alike or not, of two kinds, restores exactly. */
  @Property(tries = 60)
  void everySequenceOfContentsRestoresByteForByte(
      @ForAll("contents") List<byte[]> contents, @ForAll Random random) throws Exception {
    List<TimelineInstant> instants = new ArrayList<>();
    List<ByteBuffer> deflated = new ArrayList<>();
    try (RawContent.BlockDeflater deflater = new RawContent.BlockDeflater()) {
      for (byte[] content : contents) {
        TimelineInstant instant = random.nextBoolean() ? COMMIT : CLEAN;
        instants.add(instant);
        deflated.add(deflater.deflate(instant, content));
      }
    }
    RawContent.BlockInflater inflater = new RawContent.BlockInflater();
    for (int i = 0; i < contents.size(); i++) {
      assertThat(inflater.inflate(instants.get(i), deflated.get(i)))
          .as("content %d of %d", i, contents.size())
          .isEqualTo(contents.get(i));
    }
  }

  @Provide
  Arbitrary<List<byte[]>> contents() {
    Arbitrary<byte[]> commit =
        Arbitraries.integers()
            .between(0, 1_500)
            .map(files -> commitJson("2026010100000000" + (files % 10), files));
    Arbitrary<byte[]> noise =
        Arbitraries.integers()
            .between(0, 50_000)
            .flatMap(n -> Arbitraries.bytes().array(byte[].class).ofSize(n));
    return Arbitraries.oneOf(commit, commit, noise).list().ofMaxSize(6);
  }

  @Test
  void anEntryWithoutAnEarlierOneOfItsStateIsTheDifferenceFromOneOfItsAction() throws Exception {
    TimelineInstant inflight =
        new TimelineInstant("20260101000000002", Action.COMMIT, State.INFLIGHT);
    byte[] completed = commitJson("20260101000000001", 30);
    byte[] pending = commitJson("20260101000000002", 30);
    ByteBuffer alone;
    try (RawContent.BlockDeflater deflater = new RawContent.BlockDeflater()) {
      alone = deflater.deflate(inflight, pending);
    }
    List<ByteBuffer> block = new ArrayList<>();
    try (RawContent.BlockDeflater deflater = new RawContent.BlockDeflater()) {
      block.add(deflater.deflate(NEXT_COMMIT, completed));
      block.add(deflater.deflate(CLEAN, completed));
      block.add(deflater.deflate(inflight, pending));
    }
    assertThat(block.get(2).remaining()).isLessThan(alone.remaining() / 5);
    RawContent.BlockInflater inflater = new RawContent.BlockInflater();
    inflater.inflate(NEXT_COMMIT, block.get(0));
    inflater.inflate(CLEAN, block.get(1));
    assertThat(inflater.inflate(inflight, block.get(2))).isEqualTo(pending);
  }

  /**
   * Values written by the archiver before contents were stored as differences: zlib streams with
   * the previous content of the kind as dictionary, one of them segmented (written by 5ff00d3, in
   * {@code raw-content-before-delta.bin}).
   */
  @Test
  void contentsCompressedTheEarlierWaysStillRestoreByteForByte() throws Exception {
    List<TimelineInstant> instants =
        List.of(COMMIT, CLEAN, NEXT_COMMIT, COMMIT, NEXT_COMMIT, CLEAN);
    List<byte[]> contents =
        List.of(
            commitJson("20260101000000000", 2),
            "{\"totalFilesDeleted\": 3}".repeat(20).getBytes(UTF_8),
            commitJson("20260101000000001", 2),
            manyFileGroups("20260101000000000", 300),
            manyFileGroups("20260101000000001", 320),
            new byte[0]);
    List<ByteBuffer> values = new ArrayList<>();
    try (java.io.DataInputStream in =
        new java.io.DataInputStream(
            TestRawContent.class.getResourceAsStream("raw-content-before-delta.bin"))) {
      int count = in.readInt();
      for (int i = 0; i < count; i++) {
        byte[] value = new byte[in.readInt()];
        in.readFully(value);
        values.add(ByteBuffer.wrap(value));
      }
    }
    assertThat(values).hasSameSizeAs(contents);
    assertThat(values.get(4).get(0)).as("the segmented form").isEqualTo((byte) 0x01);
    RawContent.BlockInflater inflater = new RawContent.BlockInflater();
    for (int i = 0; i < values.size(); i++) {
      assertThat(inflater.inflate(instants.get(i), values.get(i)))
          .as("entry %d", i)
          .isEqualTo(contents.get(i));
    }
  }

  @Test
  void aRangeRestoresEntriesWhosePredecessorsItLeavesOut() throws Exception {
    StorageLocation folder = StorageLocation.of("memory://raw-range/t/.hoodie/archived");
    List<ArchiveEntry> entries = new ArrayList<>();
    List<byte[]> contents = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      String time = "2026010100000000" + i;
      byte[] content = commitJson(time, 20);
      contents.add(content);
      entries.add(
          ArchiveEntryConverter.create()
              .convert(
                  new TimelineInstant(time, Action.COMMIT, State.COMPLETED),
                  Instant.EPOCH,
                  content));
    }
    try (MetaStorage storage = MetaStorages.open(folder, Map.of())) {
      List<byte[]> blocks = ArchiveBlockEncoder.encode(entries);
      assertThat(blocks).hasSize(1);
      storage.createExclusive(folder.resolve(ArchiveFileName.of(1)), blocks.get(0));

      ArchivedTimeline lastTwo =
          ArchivedTimeline.load(
              storage,
              folder,
              ArchiveReadOptions.all().between("20260101000000003", "20260101000000004"));

      assertThat(lastTwo.instants())
          .extracting(a -> a.rawBytes().orElseThrow())
          .containsExactly(contents.get(3), contents.get(4));
    } finally {
      InMemoryMetaStorageFactory.dropVolume("raw-range");
    }
  }

  /**
   * A commit file that writes to many file groups, as a big table's commits do: the groups' random
   * ids repeat from commit to commit, beyond the reach of a zlib window within one file.
   */
  private static byte[] manyFileGroups(String time, int groups) {
    Random ids = new Random(11);
    List<String> fileIds = new ArrayList<>();
    for (int i = 0; i < groups; i++) {
      fileIds.add(new java.util.UUID(ids.nextLong(), ids.nextLong()) + "-0");
    }
    StringBuilder json = new StringBuilder("{\"partitionToWriteStats\": {\"p\": [");
    return writeStats(json, time, fileIds);
  }

  /** A commit file whose table schema, like a real one's, names many columns once each. */
  private static byte[] commitJson(String time, int files) {
    Random names = new Random(7);
    StringBuilder schema = new StringBuilder("{\"type\": \"record\", \"fields\": [");
    for (int i = 0; i < 100; i++) {
      schema.append(i == 0 ? "" : ", ").append("{\"name\": \"c");
      names.ints(8, 'a', 'z' + 1).forEach(c -> schema.append((char) c));
      schema.append("\", \"type\": \"string\"}");
    }
    StringBuilder json = new StringBuilder("{\"extraMetadata\": {\"schema\": \"");
    json.append(schema.append("]}").toString().replace("\"", "\\\""));
    json.append("\"}, \"partitionToWriteStats\": {\"p\": [");
    List<String> fileIds = new ArrayList<>();
    for (int i = 0; i < files; i++) {
      fileIds.add("f" + i);
    }
    return writeStats(json, time, fileIds);
  }

  /**
   * {@code json} with a write stat per file id, written at {@code time}, and the closing braces.
   */
  private static byte[] writeStats(StringBuilder json, String time, List<String> fileIds) {
    for (int i = 0; i < fileIds.size(); i++) {
      json.append(i == 0 ? "" : ", ")
          .append("{\"fileId\": \"")
          .append(fileIds.get(i))
          .append("\", \"path\": \"p/")
          .append(fileIds.get(i))
          .append('_')
          .append(time)
          .append(".parquet\", \"numWrites\": ")
          .append(i * 7)
          .append('}');
    }
    return json.append("]}}").toString().getBytes(UTF_8);
  }

  @Test
  void archivesWrittenBeforeCompressionStillRestoreByteForByte() throws Exception {
    byte[] content = "{\"partitionToWriteStats\": {}}".getBytes(UTF_8);
    GenericRecord converted =
        ArchiveEntryConverter.create().convert(COMMIT, Instant.EPOCH, content).record();
    // the entry as our archiver wrote it before: the bytes as they were, under the older name
    Schema legacy = legacySchema();
    GenericRecord old = new GenericData.Record(legacy);
    for (Schema.Field f : legacy.getFields()) {
      if (!f.name().equals(EntryFields.RAW_CONTENT)) {
        old.put(f.name(), converted.get(f.name()));
      }
    }
    old.put(EntryFields.RAW_CONTENT, ByteBuffer.wrap(content));
    StorageLocation folder = StorageLocation.of("memory://raw-content/t/.hoodie/archived");
    try (MetaStorage storage = MetaStorages.open(folder, Map.of())) {
      storage.createExclusive(
          folder.resolve(ArchiveFileName.of(1)),
          LogBlockCodec.encodeAvroDataBlock(legacy, List.of(old)));
      ArchivedTimeline timeline = ArchivedTimeline.load(storage, folder, ArchiveReadOptions.all());
      assertThat(timeline.instants())
          .singleElement()
          .satisfies(a -> assertThat(a.rawBytes()).hasValue(content));
    } finally {
      InMemoryMetaStorageFactory.dropVolume("raw-content");
    }
  }

  private static Schema legacySchema() {
    Schema entry = ArchiveSchemas.ARCHIVED_META_ENTRY;
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field f : entry.getFields()) {
      fields.add(
          f.name().equals(EntryFields.DEFLATED_CONTENT)
              ? new Schema.Field(EntryFields.RAW_CONTENT, f.schema(), f.doc(), f.defaultVal())
              : new Schema.Field(f, f.schema()));
    }
    return Schema.createRecord(
        entry.getName(), entry.getDoc(), entry.getNamespace(), entry.isError(), fields);
  }
}
