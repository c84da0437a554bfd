package io.timelinearchive.lsm;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

/**
 * Writes history folders for tests, laid out as Hudi 1.0 lays them out: Parquet files with the
 * columns Parquet's Avro writer gives {@code HoodieLSMTimelineInstant}, manifests and {@code
 * _version_}.
 */
final class HistoryFolder {
  /**
   * The schema of the history files Hudi 1.0.1 writes (Parquet's Avro writer's for its
   * HoodieLSMTimelineInstant record), as their footers hold it; Hudi compresses them with gzip.
   */
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

  /** One row. */
  record Row(String time, String completion, String action, byte[] metadata, byte[] plan) {
    static Row of(String time, String completion, String action) {
      return new Row(time, completion, action, (time + " metadata").getBytes(UTF_8), null);
    }
  }

  private final Path folder;

  HistoryFolder(Path folder) throws IOException {
    this.folder = Files.createDirectories(folder);
  }

  Path folder() {
    return folder;
  }

  /** Writes a history file named for its rows' first and last times and {@code layer}. */
  String writeFile(int layer, List<Row> rows) throws IOException {
    String name =
        rows.get(0).time() + "_" + rows.get(rows.size() - 1).time() + "_" + layer + ".parquet";
    writeParquet(folder.resolve(name), SCHEMA, rows, CompressionCodecName.GZIP);
    return name;
  }

  static void writeParquet(
      Path file, MessageType schema, List<Row> rows, CompressionCodecName codec)
      throws IOException {
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    try (var writer =
        ExampleParquetWriter.builder(new LocalOutputFile(file))
            .withType(schema)
            .withCompressionCodec(codec)
            .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
            .build()) {
      for (Row r : rows) {
        Group g = groups.newGroup();
        g.add("instantTime", r.time());
        if (r.completion() != null && schema.containsField("completionTime")) {
          g.add("completionTime", r.completion());
        }
        g.add("action", r.action());
        if (r.metadata() != null && schema.containsField("metadata")) {
          g.add("metadata", Binary.fromConstantByteArray(r.metadata()));
        }
        if (r.plan() != null && schema.containsField("plan")) {
          g.add("plan", Binary.fromConstantByteArray(r.plan()));
        }
        if (schema.containsField("version")) {
          g.add("version", 1);
        }
        writer.write(g);
      }
    }
  }

  /** Writes {@code manifest_<version>} listing {@code files} as Hudi's manifest does. */
  void writeManifest(int version, List<String> files) throws IOException {
    String entries =
        files.stream()
            .map(
                f -> {
                  try {
                    return "{\n    \"fileName\" : \""
                        + f
                        + "\",\n    \"fileLen\" : "
                        + Files.size(folder.resolve(f))
                        + "\n  }";
                  } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                  }
                })
            .collect(Collectors.joining(", "));
    Files.writeString(
        folder.resolve("manifest_" + version), "{\n  \"files\" : [ " + entries + " ]\n}");
  }

  void writeVersion(String content) throws IOException {
    Files.writeString(folder.resolve("_version_"), content);
  }
}
