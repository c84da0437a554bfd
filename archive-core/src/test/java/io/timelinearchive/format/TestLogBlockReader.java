package io.timelinearchive.format;

import static io.timelinearchive.format.TestLogBlockCodec.pair;
import static io.timelinearchive.format.TestLogBlockCodec.pairSchema;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

class TestLogBlockReader {
  private static final String FILE = "memory://v/t/.hoodie/archived/.commits_.archive.1_1-0-1";

  record Read(
      List<LogBlock> blocks,
      List<List<GenericRecord>> records,
      boolean truncated,
      long validLength) {}

  private static final byte[] B1 =
      LogBlockCodec.encodeAvroDataBlock(pairSchema(), List.of(pair("a", 1), pair("b", 2)));
  private static final byte[] B2 =
      LogBlockCodec.encodeAvroDataBlock(pairSchema(), List.of(pair("c", 3)));
  private static final byte[] B3 =
      LogBlockCodec.encodeAvroDataBlock(
          pairSchema(), List.of(pair("d", 4), pair("e", 5), pair("f", 6)));
  private static final byte[] FILE_BYTES = HandBlock.concat(B1, B2, B3);

  static Read read(byte[] file) throws IOException {
    return read(file, file.length, 0);
  }

  static Read read(byte[] stream, long declaredLength, long startOffset) throws IOException {
    LogBlockReader reader =
        new LogBlockReader(new ByteArrayInputStream(stream), startOffset, declaredLength, FILE);
    List<LogBlock> blocks = new ArrayList<>();
    List<List<GenericRecord>> records = new ArrayList<>();
    for (Optional<LogBlock> b = reader.next(); b.isPresent(); b = reader.next()) {
      blocks.add(b.get());
      records.add(b.get().records(null));
    }
    assertThat(reader.next()).isEmpty();
    return new Read(blocks, records, reader.truncatedTail(), reader.validLength());
  }

  private static List<String> names(Read read) {
    return read.records().stream().flatMap(List::stream).map(r -> r.get("a").toString()).toList();
  }

  @Test
  void readsBlocksBackWithTheirOffsets() throws IOException {
    Read read = read(FILE_BYTES);

    assertThat(read.blocks())
        .extracting(LogBlock::offset)
        .containsExactly(0L, (long) B1.length, (long) B1.length + B2.length);
    assertThat(read.blocks())
        .extracting(LogBlock::length)
        .containsExactly((long) B1.length, (long) B2.length, (long) B3.length);
    assertThat(names(read)).containsExactly("a", "b", "c", "d", "e", "f");
    assertThat(read.records().get(2).get(2).get("b")).isEqualTo(6L);
    assertThat(read.truncated()).isFalse();
    assertThat(read.validLength()).isEqualTo(FILE_BYTES.length);
  }

  @Test
  void emptyFileHasNoBlocks() throws IOException {
    Read read = read(new byte[0]);
    assertThat(read.blocks()).isEmpty();
    assertThat(read.truncated()).isFalse();
    assertThat(read.validLength()).isZero();
  }

  @Test
  void truncatedTailAtEveryCutPointKeepsTheEarlierBlocks() throws IOException {
    int lastStart = B1.length + B2.length;
    for (int cut = lastStart + 1; cut < FILE_BYTES.length; cut++) {
      Read read = read(Arrays.copyOf(FILE_BYTES, cut));
      assertThat(read.truncated()).as("cut at %d", cut).isTrue();
      assertThat(read.blocks()).as("cut at %d", cut).hasSize(2);
      assertThat(names(read)).containsExactly("a", "b", "c");
      assertThat(read.validLength()).isEqualTo(lastStart);
    }
    Read atBoundary = read(Arrays.copyOf(FILE_BYTES, lastStart));
    assertThat(atBoundary.truncated()).isFalse();
    assertThat(atBoundary.blocks()).hasSize(2);
  }

  @Test
  void streamEndingBeforeTheListedLengthIsATruncatedTail() throws IOException {
    int lastStart = B1.length + B2.length;
    for (int cut :
        new int[] {lastStart + 3, lastStart + 10, lastStart + 40, FILE_BYTES.length - 1}) {
      Read read = read(Arrays.copyOf(FILE_BYTES, cut), FILE_BYTES.length, 0);
      assertThat(read.truncated()).as("cut at %d", cut).isTrue();
      assertThat(read.blocks()).hasSize(2);
      assertThat(read.validLength()).isEqualTo(lastStart);
    }
  }

  @Test
  void bytesPastTheListedLengthAreNotRead() throws IOException {
    Read read = read(FILE_BYTES, B1.length + B2.length, 0);
    assertThat(read.blocks()).hasSize(2);
    assertThat(read.truncated()).isFalse();
  }

  @Test
  void readsFromAGivenBlockOffset() throws IOException {
    long start = B1.length;
    byte[] rest = Arrays.copyOfRange(FILE_BYTES, (int) start, FILE_BYTES.length);
    Read read = read(rest, FILE_BYTES.length, start);
    assertThat(read.blocks())
        .extracting(LogBlock::offset)
        .containsExactly(start, start + B2.length);
    assertThat(names(read)).containsExactly("c", "d", "e", "f");
    assertThat(read.validLength()).isEqualTo(FILE_BYTES.length);

    byte[] mid = Arrays.copyOfRange(FILE_BYTES, (int) start + 1, FILE_BYTES.length);
    CorruptArchiveException e =
        catchThrowableOfType(
            CorruptArchiveException.class, () -> read(mid, FILE_BYTES.length, start + 1));
    assertThat(e.offset()).isEqualTo(start + 1);
  }

  @Test
  void fileNotStartingWithTheMagicIsCorrupt() {
    byte[] file = FILE_BYTES.clone();
    file[0] = 'X';
    CorruptArchiveException e =
        catchThrowableOfType(CorruptArchiveException.class, () -> read(file));
    assertThat(e.offset()).isZero();
    assertThat(e.location()).isEqualTo(FILE);
    assertThat(e).hasMessageContaining("does not start with #HUDI#").hasMessageContaining(FILE);
  }

  @Test
  void garbageBetweenBlocksIsCorruptAtItsOffset() {
    byte[] file = HandBlock.concat(B1, "garbage!".getBytes(StandardCharsets.US_ASCII), B2);
    CorruptArchiveException e =
        catchThrowableOfType(CorruptArchiveException.class, () -> read(file));
    assertThat(e.offset()).isEqualTo(B1.length);
    assertThat(e).hasMessageContaining("expected a block");
  }

  @Test
  void shortGarbageAtTheEndIsCorruptButAPartialMagicIsATruncatedTail() throws IOException {
    byte[] garbage = HandBlock.concat(B1, new byte[] {'#', 'H', 'X'});
    CorruptArchiveException e =
        catchThrowableOfType(CorruptArchiveException.class, () -> read(garbage));
    assertThat(e.offset()).isEqualTo(B1.length);

    Read partial = read(HandBlock.concat(B1, new byte[] {'#', 'H', 'U'}));
    assertThat(partial.truncated()).isTrue();
    assertThat(partial.blocks()).hasSize(1);
    assertThat(partial.validLength()).isEqualTo(B1.length);
  }

  @Test
  void aFlippedByteAnywhereInAMiddleBlockNeverLosesBlocksSilently() throws IOException {
    int start = B1.length;
    int end = B1.length + B2.length;
    for (int i = start; i < end; i++) {
      byte[] file = FILE_BYTES.clone();
      file[i] ^= (byte) 0xFF;
      try {
        Read read = read(file);
        // Only payload bytes may flip unnoticed: the format has no checksum.
        assertThat(read.truncated()).as("flip at %d", i).isFalse();
        assertThat(read.blocks()).as("flip at %d", i).hasSize(3);
      } catch (CorruptArchiveException e) {
        assertThat(e.offset()).as("flip at %d", i).isBetween((long) start, (long) end);
      }
    }
  }

  @Test
  void flippedFramingFieldsAreCorruptAtTheirOffsets() {
    int start = B1.length;
    int schemaLength = pairSchema().toString().getBytes(StandardCharsets.UTF_8).length;
    int contentLengthAt = start + 14 + 8 + 12 + schemaLength;
    int trailerAt = start + B2.length - 8;
    int[][] flipAndExpectedOffset = {
      {start, start}, // magic
      {start + 14 + 3, start + 14}, // log format version
      {start + 18 + 3, start + 18}, // block type
      {start + 22, start + 22}, // header entry count
      {start + 26 + 3, start + 26}, // header key
      {trailerAt + 7, trailerAt}, // trailer
      {contentLengthAt + 8 + 3, contentLengthAt + 8}, // data block version
      {contentLengthAt + 8 + 4, contentLengthAt + 12}, // record count
    };
    for (int[] c : flipAndExpectedOffset) {
      byte[] file = FILE_BYTES.clone();
      file[c[0]] ^= (byte) 0xFF;
      CorruptArchiveException e =
          catchThrowableOfType(CorruptArchiveException.class, () -> read(file));
      assertThat(e).as("flip at %d", c[0]).isNotNull();
      assertThat(e.offset()).as("flip at %d", c[0]).isEqualTo(c[1]);
    }
  }

  @Test
  void trailerMismatchIsCorrupt() {
    HandBlock block = HandBlock.withSchema(pairSchema().toString(), List.of(new byte[] {0, 0}));
    block.trailerOverride = 12345L;
    byte[] bytes = block.bytes();
    CorruptArchiveException e =
        catchThrowableOfType(
            CorruptArchiveException.class, () -> read(HandBlock.concat(B1, bytes)));
    assertThat(e.offset()).isEqualTo(B1.length + bytes.length - 8);
    assertThat(e).hasMessageContaining("trailer 12345");
  }

  @Test
  void otherBlockTypesAndVersionsAreCorrupt() {
    HandBlock command = HandBlock.withSchema(pairSchema().toString(), List.of());
    command.blockType = 0;
    assertThatThrownBy(() -> read(command.bytes()))
        .isInstanceOf(CorruptArchiveException.class)
        .hasMessageContaining("block type 0");

    HandBlock version = HandBlock.withSchema(pairSchema().toString(), List.of());
    version.formatVersion = 2;
    assertThatThrownBy(() -> read(version.bytes()))
        .isInstanceOf(CorruptArchiveException.class)
        .hasMessageContaining("log format version 2");

    HandBlock dataVersion = HandBlock.withSchema(pairSchema().toString(), List.of());
    dataVersion.dataBlockVersion = 9;
    assertThatThrownBy(() -> read(dataVersion.bytes()))
        .isInstanceOf(CorruptArchiveException.class)
        .hasMessageContaining("data block version 9");
  }

  @Test
  void headerMustHoldAValidSchema() {
    HandBlock none = HandBlock.withSchema(pairSchema().toString(), List.of());
    none.header.clear();
    none.header.add(new HandBlock.Entry(0, "20240101000000000".getBytes(StandardCharsets.UTF_8)));
    assertThatThrownBy(() -> read(none.bytes()))
        .isInstanceOf(CorruptArchiveException.class)
        .hasMessageContaining("no SCHEMA");

    HandBlock unknownKey = HandBlock.withSchema(pairSchema().toString(), List.of());
    unknownKey.header.add(new HandBlock.Entry(7, new byte[0]));
    assertThatThrownBy(() -> read(unknownKey.bytes()))
        .isInstanceOf(CorruptArchiveException.class)
        .hasMessageContaining("unknown header key 7");

    HandBlock notJson = HandBlock.withSchema("{not a schema", List.of());
    assertThatThrownBy(() -> read(notJson.bytes()))
        .isInstanceOf(CorruptArchiveException.class)
        .hasMessageContaining("not an Avro schema");
  }

  @Test
  void lengthFieldsClaimingHugeSizesAreRejectedWithoutAllocating() throws IOException {
    String schema = pairSchema().toString();
    List<byte[]> one = List.of(new byte[] {0x02, 'x', 0x02});

    HandBlock hugeSize = HandBlock.withSchema(schema, one);
    hugeSize.blockSizeOverride = Long.MAX_VALUE;
    // Alone at the end it reads as a block cut off by the end of the file...
    Read alone = read(HandBlock.concat(B1, hugeSize.bytes()));
    assertThat(alone.truncated()).isTrue();
    assertThat(alone.blocks()).hasSize(1);
    // ...but with a block after it, the size is wrong.
    assertThat(
            catchThrowableOfType(
                    CorruptArchiveException.class,
                    () -> read(HandBlock.concat(B1, hugeSize.bytes(), B2)))
                .offset())
        .isEqualTo(B1.length + 6);

    HandBlock negativeSize = HandBlock.withSchema(schema, one);
    negativeSize.blockSizeOverride = -5L;
    assertCorrupt(negativeSize.bytes(), 6);

    HandBlock headerCount = HandBlock.withSchema(schema, one);
    headerCount.headerCountOverride = Integer.MAX_VALUE;
    assertCorrupt(headerCount.bytes(), 22);

    HandBlock headerValue = HandBlock.withSchema(schema, one);
    headerValue.header.set(0, new HandBlock.Entry(2, new byte[0]));
    byte[] valueBytes = headerValue.bytes();
    ByteBuffer.wrap(valueBytes).putInt(30, Integer.MAX_VALUE);
    assertCorrupt(valueBytes, 30);

    HandBlock contentLength = HandBlock.withSchema(schema, one);
    contentLength.contentLengthOverride = Long.MAX_VALUE;
    assertCorruptWithin(contentLength.bytes());

    HandBlock recordCount = HandBlock.withSchema(schema, one);
    recordCount.recordCountOverride = Integer.MAX_VALUE;
    assertCorruptWithin(recordCount.bytes());

    HandBlock recordLength = HandBlock.withSchema(schema, one);
    recordLength.recordLengthOverrides.add(Integer.MAX_VALUE);
    assertCorruptWithin(recordLength.bytes());

    // Inside the Avro record: a string claiming 2^40 bytes.
    HandBlock avroLength =
        HandBlock.withSchema(
            schema,
            List.of(
                new byte[] {
                  (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x40, 0x00
                }));
    CorruptArchiveException e =
        catchThrowableOfType(CorruptArchiveException.class, () -> read(avroLength.bytes()));
    assertThat(e).hasMessageContaining("record 0").hasMessageContaining("not valid Avro");
  }

  @Test
  void recordsMustFillTheirLengthExactly() {
    HandBlock trailing =
        HandBlock.withSchema(pairSchema().toString(), List.of(new byte[] {0x02, 'x', 0x02, 0x00}));
    byte[] bytes = trailing.bytes();
    CorruptArchiveException e =
        catchThrowableOfType(CorruptArchiveException.class, () -> read(bytes));
    assertThat(e).hasMessageContaining("leaves 1 of its 4 bytes unread");
    // The record starts after the content's version, count and length fields.
    int schemaLength = pairSchema().toString().getBytes(StandardCharsets.UTF_8).length;
    assertThat(e.offset()).isEqualTo(14 + 8 + 12 + schemaLength + 8 + 12);

    HandBlock badUnion =
        HandBlock.withSchema(
            SchemaBuilder.record("U").fields().optionalString("s").endRecord().toString(),
            List.of(new byte[] {0x08}));
    assertThatThrownBy(() -> read(badUnion.bytes()))
        .isInstanceOf(CorruptArchiveException.class)
        .hasMessageContaining("not valid Avro");
  }

  /**
   * Hudi 0.5.3 writes data block version 1, with the record count as in versions 2 and 3 (its
   * reader and 0.15's read the count whatever the version); archive-hudi-compat reads 0.5.3's own
   * blocks.
   */
  @Test
  void dataBlockVersionOneCarriesTheRecordCount() throws IOException {
    HandBlock v1 =
        HandBlock.withSchema(
            pairSchema().toString(),
            List.of(new byte[] {0x02, 'x', 0x02}, new byte[] {0x02, 'y', 0x04}));
    v1.dataBlockVersion = 1;

    assertThat(names(read(v1.bytes()))).containsExactly("x", "y");
  }

  @Test
  void projectionSkipsFieldsTheReaderLeavesOut() throws IOException {
    Schema onlyB =
        SchemaBuilder.record("Pair").namespace("t").fields().requiredLong("b").endRecord();
    LogBlock block =
        new LogBlockReader(new ByteArrayInputStream(B3), B3.length, FILE).next().orElseThrow();
    List<GenericRecord> records = block.records(onlyB);
    assertThat(records).extracting(r -> r.get("b")).containsExactly(4L, 5L, 6L);
    assertThat(records.get(0).getSchema().getFields()).hasSize(1);
  }

  private static byte[] withContent(HandBlock template, byte[] content) {
    byte[] header =
        ByteBuffer.allocate(4 + 8 + template.header.get(0).value().length)
            .putInt(1)
            .putInt(2)
            .putInt(template.header.get(0).value().length)
            .put(template.header.get(0).value())
            .array();
    long blockSize = 4 + 4 + header.length + 8 + content.length + 4 + 8;
    return ByteBuffer.allocate((int) blockSize + 14)
        .put("#HUDI#".getBytes(StandardCharsets.US_ASCII))
        .putLong(blockSize)
        .putInt(1)
        .putInt(3)
        .put(header)
        .putLong(content.length)
        .put(content)
        .putInt(0)
        .putLong(blockSize + 6)
        .array();
  }

  private static void assertCorrupt(byte[] file, long offset) {
    CorruptArchiveException e =
        catchThrowableOfType(CorruptArchiveException.class, () -> read(file));
    assertThat(e).isNotNull();
    assertThat(e.offset()).isEqualTo(offset);
  }

  private static void assertCorruptWithin(byte[] file) {
    CorruptArchiveException e =
        catchThrowableOfType(CorruptArchiveException.class, () -> read(file));
    assertThat(e).isNotNull();
    assertThat(e.offset()).isBetween(0L, (long) file.length);
  }
}
