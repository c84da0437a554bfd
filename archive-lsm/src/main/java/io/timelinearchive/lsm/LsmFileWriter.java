package io.timelinearchive.lsm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

/**
 * Encodes rows as a history file the way Hudi 1.0.1's {@code LSMTimelineWriter} writes one (through
 * parquet-avro, which we do not use): the message Parquet's Avro writer derives from {@code
 * HoodieLSMTimelineInstant}, gzip, and in the footer exactly the two keys Hudi's files carry, the
 * record's Avro schema as Hudi's generated class prints it and {@code writer.model.name=avro}.
 * Hudi's readers take the Avro schema from the footer, so it must be Hudi's to the byte.
 */
final class LsmFileWriter {
  /** The Avro schema of {@code HoodieLSMTimelineInstant}, as Hudi 1.0.1's files hold it. */
  static final String AVRO_SCHEMA =
      "{\"type\":\"record\",\"name\":\"HoodieLSMTimelineInstant\","
          + "\"namespace\":\"org.apache.hudi.avro.model\",\"fields\":["
          + "{\"name\":\"instantTime\",\"type\":[\"null\",{\"type\":\"string\","
          + "\"avro.java.string\":\"String\"}],\"default\":null},"
          + "{\"name\":\"completionTime\",\"type\":[\"null\",{\"type\":\"string\","
          + "\"avro.java.string\":\"String\"}],\"default\":null},"
          + "{\"name\":\"action\",\"type\":[\"null\",{\"type\":\"string\","
          + "\"avro.java.string\":\"String\"}],\"default\":null},"
          + "{\"name\":\"metadata\",\"type\":[\"null\",\"bytes\"],\"default\":null},"
          + "{\"name\":\"plan\",\"type\":[\"null\",\"bytes\"],\"default\":null},"
          + "{\"name\":\"version\",\"type\":\"int\",\"default\":1}]}";

  static final String AVRO_SCHEMA_KEY = "parquet.avro.schema";
  static final String MODEL_NAME = "avro";

  /** The Parquet message Parquet's Avro writer derives from that schema. */
  static final MessageType SCHEMA =
      MessageTypeParser.parseMessageType(
          """
          message org.apache.hudi.avro.model.HoodieLSMTimelineInstant {
            optional binary instantTime (STRING);
            optional binary completionTime (STRING);
            optional binary action (STRING);
            optional binary metadata;
            optional binary plan;
            required int32 version;
          }
          """);

  // Hudi's defaults for its Parquet writers (hoodie.parquet.block.size, hoodie.parquet.page.size)
  private static final int ROW_GROUP_BYTES = 120 * 1024 * 1024;
  private static final int PAGE_BYTES = 1024 * 1024;

  private LsmFileWriter() {}

  /**
   * The bytes of a history file holding {@code rows}, in their order.
   *
   * @param name the file's name, for messages
   */
  static byte[] write(String name, List<LsmRow> rows) {
    try (Rows file = start(name)) {
      rows.forEach(file::add);
      return file.finish();
    }
  }

  /**
   * A history file to be written row by row.
   *
   * @param name the file's name, for messages
   */
  static Rows start(String name) {
    ByteArrayOutputFile file = new ByteArrayOutputFile(name);
    try {
      return new Rows(
          name,
          file,
          new Builder(file)
              .withCompressionCodec(CompressionCodecName.GZIP)
              .withWriteMode(ParquetFileWriter.Mode.CREATE)
              .withRowGroupSize(ROW_GROUP_BYTES)
              .withPageSize(PAGE_BYTES)
              .withDictionaryPageSize(PAGE_BYTES)
              .withDictionaryEncoding(true)
              .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_1_0)
              .withConf(new Configuration(false))
              .build());
    } catch (IOException e) {
      throw cannotEncode(name, e);
    }
  }

  /**
   * A history file being written in memory: each row added is encoded and compressed as it comes,
   * so that what was read for it can go (a run archiving many instants holds the file, not them).
   */
  static final class Rows implements AutoCloseable {
    private final String name;
    private final ByteArrayOutputFile file;
    private final ParquetWriter<LsmRow> writer;
    private boolean closed;

    private Rows(String name, ByteArrayOutputFile file, ParquetWriter<LsmRow> writer) {
      this.name = name;
      this.file = file;
      this.writer = writer;
    }

    void add(LsmRow row) {
      try {
        writer.write(row);
      } catch (IOException e) {
        throw cannotEncode(name, e);
      }
    }

    /** The whole file's bytes; nothing can be added after. */
    byte[] finish() {
      close();
      return file.toByteArray();
    }

    @Override
    public void close() {
      if (!closed) {
        closed = true;
        try {
          writer.close();
        } catch (IOException e) {
          throw cannotEncode(name, e);
        }
      }
    }
  }

  // nothing but memory is written to
  private static UncheckedIOException cannotEncode(String name, IOException e) {
    return new UncheckedIOException("cannot encode " + name, e);
  }

  private static final class Builder extends ParquetWriter.Builder<LsmRow, Builder> {
    Builder(OutputFile file) {
      super(file);
    }

    @Override
    protected Builder self() {
      return this;
    }

    @Override
    protected WriteSupport<LsmRow> getWriteSupport(Configuration conf) {
      return new RowWriteSupport();
    }
  }

  /** Writes each row's fields as Parquet's Avro writer writes the record's. */
  private static final class RowWriteSupport extends WriteSupport<LsmRow> {
    private RecordConsumer out;

    @Override
    public WriteContext init(Configuration configuration) {
      Map<String, String> footer = new LinkedHashMap<>();
      footer.put(AVRO_SCHEMA_KEY, AVRO_SCHEMA);
      return new WriteContext(SCHEMA, footer);
    }

    @Override
    public String getName() {
      // Parquet's writer puts it in the footer as writer.model.name, as parquet-avro's does
      return MODEL_NAME;
    }

    @Override
    public void prepareForWrite(RecordConsumer recordConsumer) {
      this.out = recordConsumer;
    }

    @Override
    public void write(LsmRow row) {
      out.startMessage();
      string(0, "instantTime", Optional.of(row.requestedTime()));
      string(1, "completionTime", row.completionTime());
      string(2, "action", Optional.of(row.action()));
      bytes(3, "metadata", row.metadata());
      bytes(4, "plan", row.plan());
      out.startField("version", 5);
      out.addInteger(LsmColumns.DEFAULT_VERSION);
      out.endField("version", 5);
      out.endMessage();
    }

    private void string(int index, String field, Optional<String> value) {
      if (value.isPresent()) {
        out.startField(field, index);
        out.addBinary(Binary.fromString(value.get()));
        out.endField(field, index);
      }
    }

    private void bytes(int index, String field, Optional<ByteBuffer> value) {
      if (value.isPresent()) {
        out.startField(field, index);
        out.addBinary(Binary.fromConstantByteArray(LsmRow.bytes(value.get())));
        out.endField(field, index);
      }
    }
  }
}
