package io.timelinearchive.format;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.State;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.statistics.Statistics;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DecoderFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The streaming conversion of JSON commit metadata gives what the conversion through Jackson's tree
 * gave ({@link TreeCommitMetadataOracle}): the same record, or the same problem, on commit files of
 * every shape, well-formed and not, with fields missing, null, of the wrong type, unknown, repeated
 * or out of order.
 */
class TestCommitMetadataJson {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TimelineInstant COMMIT =
      new TimelineInstant("20240301100000001", Action.COMMIT, State.COMPLETED);

  private static final List<String> STAT_FIELDS =
      ArchiveSchemas.WRITE_STAT.getFields().stream().map(Schema.Field::name).toList();
  private static final List<String> STRING_STATS =
      List.of("fileId", "path", "prevCommit", "partitionPath");
  private static final List<String> OTHER_STAT_FIELDS =
      List.of("tempPath", "cdcStats", "minEventTime", "runtimeStats", "totalLogSizeCompacted");

  /** What a conversion gives: a record, or the problem it names. */
  record Outcome(GenericRecord record, String problem) {}

  @Property(tries = 3000)
  void streamingGivesWhatTheTreeGave(@ForAll long seed, @ForAll boolean replace)
      throws IOException {
    String json = commitFile(new Random(seed));
    Outcome expected = tree(json, replace);
    Statistics.collect(expected.problem() == null ? "a record" : "a problem");
    assertThat(streaming(json, replace)).as(json).isEqualTo(expected);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "   ",
        "{",
        "{\"partitionToWriteStats\": {\"p1\": [{\"numWrites\": 1}",
        "{\"operationType\": 7, \"partitionToWriteStats\": [1, }",
        "{\"extraMetadata\": {\"a\": 1}} trailing",
        "{\"operationType\": \"UPSERT\"}}",
        "[1, 2",
        "nul",
        "{\"partitionToWriteStats\": {\"p1\": [{\"fileId\": \"f1\"}]}, \"compacted\": tru}"
      })
  void malformedFilesFailAsBefore(String json) throws IOException {
    for (boolean replace : List.of(false, true)) {
      assertThat(streaming(json, replace)).as(json).isEqualTo(tree(json, replace));
    }
  }

  private static Outcome streaming(String json, boolean replace) throws IOException {
    AvroBytes out = new AvroBytes(64);
    try {
      CommitMetadataJson.encode(COMMIT, json.getBytes(UTF_8), replace, out);
    } catch (InstantConversionException e) {
      return new Outcome(null, e.reason());
    }
    Schema schema =
        replace ? ArchiveSchemas.REPLACE_COMMIT_METADATA : ArchiveSchemas.COMMIT_METADATA;
    GenericRecord record =
        new GenericDatumReader<GenericRecord>(schema)
            .read(null, DecoderFactory.get().binaryDecoder(out.toByteArray(), null));
    return new Outcome(record, null);
  }

  /** The earlier conversion: the whole tree first, as the converter read it. */
  private static Outcome tree(String json, boolean replace) throws IOException {
    JsonNode root = null;
    try {
      if (!json.isEmpty()) {
        root = JSON.readTree(json.getBytes(UTF_8));
        if (root == null || root.isMissingNode()) {
          return new Outcome(null, "the file holds no JSON value");
        }
      }
      return new Outcome(
          replace
              ? TreeCommitMetadataOracle.replaceCommitMetadata(COMMIT, root)
              : TreeCommitMetadataOracle.commitMetadata(COMMIT, root),
          null);
    } catch (JsonProcessingException e) {
      return new Outcome(
          null, "the file is not valid JSON commit metadata: " + e.getOriginalMessage());
    } catch (InstantConversionException e) {
      return new Outcome(null, e.reason());
    }
  }

  // What commit files look like, and how they go wrong: each choice is mostly the usual one.

  static String commitFile(Random r) {
    if (r.nextInt(25) == 0) {
      return pick(r, "[]", "\"x\"", "1", "null", "true", "[{\"a\": 1}]");
    }
    List<String> names = new ArrayList<>();
    List<String> fields = new ArrayList<>();
    for (String name :
        List.of(
            "partitionToWriteStats",
            "extraMetadata",
            "operationType",
            "compacted",
            "partitionToReplaceFileIds",
            "fileIdAndRelativePaths")) {
      if (r.nextInt(5) > 0) {
        names.add(name);
        fields.add(field(name, topLevel(r, name)));
      }
    }
    if (!names.isEmpty() && r.nextInt(8) == 0) {
      String again = names.get(r.nextInt(names.size()));
      fields.add(field(again, topLevel(r, again)));
    }
    Collections.shuffle(fields, r);
    return "{" + String.join(",", fields) + "}";
  }

  private static String topLevel(Random r, String name) {
    return switch (name) {
      case "partitionToWriteStats" -> partitions(r, TestCommitMetadataJson::statsArray);
      case "partitionToReplaceFileIds" -> partitions(r, TestCommitMetadataJson::fileIdsArray);
      case "extraMetadata" -> extraMetadata(r);
      case "operationType" ->
          r.nextInt(12) > 0 ? quote(pick(r, "UPSERT", "INSERT", "CLUSTER", "")) : anyValue(r);
      case "compacted" ->
          r.nextInt(12) > 0
              ? pick(r, "true", "false", "\"true\"", "\"false\"")
              : pick(r, "\"maybe\"", "null", "1", "[]", "{}", "0.5");
      default -> "{\"p1/f1\": \"p1/f1.parquet\", \"nested\": [1, {\"a\": null}]}";
    };
  }

  private static String partitions(Random r, Function<Random, String> array) {
    int shape = r.nextInt(30);
    if (shape == 0) {
      return "null";
    }
    if (shape == 1) {
      return pick(r, "[]", "1", "\"p1\"", "true");
    }
    List<String> entries = new ArrayList<>();
    int n = r.nextInt(4);
    for (int i = 0; i < n; i++) {
      String partition = pick(r, "p1", "p2", "2024/03/01", "", "é");
      int kind = r.nextInt(30);
      String value =
          kind == 0 ? "null" : kind == 1 ? pick(r, "{}", "1", "\"x\"", "false") : array.apply(r);
      entries.add(field(partition, value));
    }
    return "{" + String.join(",", entries) + "}";
  }

  private static String statsArray(Random r) {
    List<String> stats = new ArrayList<>();
    int n = r.nextInt(4);
    for (int i = 0; i < n; i++) {
      stats.add(r.nextInt(40) == 0 ? pick(r, "1", "null", "[]", "\"s\"") : writeStat(r));
    }
    return "[" + String.join(",", stats) + "]";
  }

  private static String writeStat(Random r) {
    List<String> fields = new ArrayList<>();
    List<String> names = new ArrayList<>(STAT_FIELDS);
    names.addAll(OTHER_STAT_FIELDS);
    for (String name : names) {
      if (r.nextInt(10) < 6) {
        fields.add(field(name, statValue(r, name)));
      }
    }
    if (!fields.isEmpty() && r.nextInt(10) == 0) {
      String name = names.get(r.nextInt(names.size()));
      fields.add(field(name, statValue(r, name)));
    }
    Collections.shuffle(fields, r);
    return "{" + String.join(",", fields) + "}";
  }

  private static String statValue(Random r, String name) {
    if (r.nextInt(40) == 0) {
      return anyValue(r);
    }
    if (STRING_STATS.contains(name)) {
      return quote(pick(r, "f1", "p1/f1-0_1-0-1_20240301100000001.parquet", "null", "", "ü☃"));
    }
    if (OTHER_STAT_FIELDS.contains(name)) {
      return pick(r, "null", "{\"totalScanTime\": 0, \"totalCreateTime\": 12}", "7");
    }
    return Long.toString(r.nextInt(3) == 0 ? r.nextLong() : r.nextInt(100_000));
  }

  private static String fileIdsArray(Random r) {
    List<String> ids = new ArrayList<>();
    int n = r.nextInt(4);
    for (int i = 0; i < n; i++) {
      ids.add(r.nextInt(20) > 0 ? quote(pick(r, "f1", "f2-0", "")) : anyValue(r));
    }
    return "[" + String.join(",", ids) + "]";
  }

  private static String extraMetadata(Random r) {
    int shape = r.nextInt(30);
    if (shape == 0) {
      return pick(r, "null", "[]", "\"x\"", "3");
    }
    List<String> entries = new ArrayList<>();
    int n = r.nextInt(4);
    for (int i = 0; i < n; i++) {
      String key = pick(r, "schema", "checkpoint", "ROLLING_STAT", "");
      String value =
          r.nextInt(15) > 0
              ? quote(pick(r, "{\"type\":\"record\",\"name\":\"r\"}", "42", "", "x\ny\"z"))
              : anyValue(r);
      entries.add(field(key, value));
    }
    return "{" + String.join(",", entries) + "}";
  }

  /** Any JSON value, as a wrong or odd one might be. */
  private static String anyValue(Random r) {
    return pick(
        r,
        "null",
        "true",
        "false",
        "0",
        "-12",
        "9223372036854775807",
        "-9223372036854775808",
        "123456789012345678901234567890",
        "1.5",
        "-2.25e3",
        "1e300",
        "\" 42 \"",
        "\"-7\"",
        "\"12x\"",
        "\"\"",
        "\"text\"",
        "{}",
        "{\"a\": [1, 2]}",
        "[]",
        "[1, \"x\"]");
  }

  private static String field(String name, String value) {
    return quote(name) + ":" + value;
  }

  private static String quote(String text) {
    try {
      return JSON.writeValueAsString(text);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String pick(Random r, String... choices) {
    return choices[r.nextInt(choices.length)];
  }
}
