package io.timelinearchive.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;

class TestLogBlockCodec {
  private static final Schema PAIR =
      SchemaBuilder.record("Pair")
          .namespace("t")
          .fields()
          .requiredString("a")
          .requiredLong("b")
          .endRecord();

  @Test
  void encodesTheBlockLayoutOfTheFormatDocByteForByte() {
    byte[] schema = PAIR.toString().getBytes(StandardCharsets.UTF_8);
    // Plain Avro binary, by hand: a string is a zigzag length then UTF-8, a long is zigzag.
    byte[] first = {0x04, 'h', 'i', 0x06}; // {"a": "hi", "b": 3}
    byte[] second = {0x00, 0x01}; // {"a": "", "b": -1}
    int header = 4 + 4 + 4 + schema.length;
    int content = 4 + 4 + (4 + first.length) + (4 + second.length);
    long blockSize = 4 + 4 + header + 8 + content + 4 + 8;

    ByteBuffer expected = ByteBuffer.allocate((int) blockSize + 14);
    expected.put(new byte[] {0x23, 0x48, 0x55, 0x44, 0x49, 0x23}); // #HUDI#
    expected.putLong(blockSize);
    expected.putInt(1); // log format version
    expected.putInt(3); // Avro data block
    expected.putInt(1); // one header entry
    expected.putInt(2); // SCHEMA
    expected.putInt(schema.length);
    expected.put(schema);
    expected.putLong(content);
    expected.putInt(3); // data block version
    expected.putInt(2); // records
    expected.putInt(first.length);
    expected.put(first);
    expected.putInt(second.length);
    expected.put(second);
    expected.putInt(0); // empty footer
    expected.putLong(blockSize + 6);
    assertThat(expected.hasRemaining()).isFalse();

    byte[] actual = LogBlockCodec.encodeAvroDataBlock(PAIR, List.of(pair("hi", 3), pair("", -1)));

    assertThat(actual).isEqualTo(expected.array());
    assertThat(actual)
        .isEqualTo(HandBlock.withSchema(PAIR.toString(), List.of(first, second)).bytes());
  }

  @Test
  void encodesArchiveEntriesWithTheEntrySchemaInTheHeader() throws IOException {
    Schema schema = ArchiveSchemas.ARCHIVED_META_ENTRY;
    GenericRecord entry = new GenericData.Record(schema);
    entry.put("commitTime", "20240101000000000");
    entry.put("actionType", "commit");
    entry.put("actionState", "COMPLETED");
    entry.put("stateTransitionTime", "20240101000001000");
    entry.put(EntryFields.DEFLATED_CONTENT, ByteBuffer.wrap(new byte[] {1, 2, 3}));

    byte[] actual = LogBlockCodec.encodeAvroDataBlock(schema, List.of(entry));

    byte[] expected =
        HandBlock.withSchema(schema.toString(), List.of(plainAvro(schema, entry))).bytes();
    assertThat(actual).isEqualTo(expected);
  }

  @Test
  void emptyBlockHasNoRecords() {
    byte[] actual = LogBlockCodec.encodeAvroDataBlock(PAIR, List.of());
    assertThat(actual).isEqualTo(HandBlock.withSchema(PAIR.toString(), List.of()).bytes());
  }

  @Test
  void recordNotFittingTheSchemaIsRejected() {
    GenericRecord bad = new GenericData.Record(PAIR);
    bad.put("a", "x");
    assertThatThrownBy(() -> LogBlockCodec.encodeAvroDataBlock(PAIR, List.of(bad)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("record 0");
  }

  static GenericRecord pair(String a, long b) {
    GenericRecord r = new GenericData.Record(PAIR);
    r.put("a", a);
    r.put("b", b);
    return r;
  }

  static Schema pairSchema() {
    return PAIR;
  }

  static byte[] plainAvro(Schema schema, GenericRecord record) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(schema).write(record, encoder);
    encoder.flush();
    return out.toByteArray();
  }
}
