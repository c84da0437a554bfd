package io.timelinearchive.format;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Hudi's JSON commit metadata encoded as the Avro record of the archive, the way Hudi 0.15's
 * archiver converts it: JSON to its Java model, then Jackson's {@code convertValue} to the Avro
 * class. Checked against that code on sample files; what follows from its Java model:
 *
 * <ul>
 *   <li>JSON fields the Avro record lacks are dropped, and so is {@code version} (the Java model
 *       has none, so Hudi writes null);
 *   <li>write-stat counters are Java {@code long}s: missing or null ones become 0, except {@code
 *       totalLogFiles}, which the Java model lacks and which stays null unless the JSON has it;
 *   <li>a missing {@code operationType} is the Java default {@code UNKNOWN}; {@code compacted} true
 *       makes it {@code COMPACT} (commit metadata only);
 *   <li>{@code extraMetadata["ROLLING_STAT"] = ""} is always put.
 * </ul>
 *
 * Where Hudi would fail with a NullPointerException (null {@code compacted} or {@code
 * extraMetadata}, null map values), this reads the null as absent instead.
 *
 * <p>The JSON is read as a stream of tokens and written straight into Avro's binary encoding: a
 * commit of many write stats is large, and a tree of it, then a record, cost several times the
 * reading. The result is what reading the whole tree would give: a key given twice keeps its first
 * place and its last value, and a problem is reported only once the whole file has parsed, the
 * first one in the record's field order (a syntax error anywhere comes first).
 */
final class CommitMetadataJson {
  static final String ROLLING_STAT = "ROLLING_STAT";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String UNKNOWN_OPERATION = "UNKNOWN";
  private static final String COMPACT_OPERATION = "COMPACT";

  /** The write stat's fields, in the Avro record's order. */
  private static final List<String> STAT_FIELDS =
      ArchiveSchemas.WRITE_STAT.getFields().stream().map(f -> f.name()).toList();

  private static final Map<String, Integer> STAT_FIELD_INDEX = new HashMap<>();

  static {
    for (int i = 0; i < STAT_FIELDS.size(); i++) {
      // Jackson interns the field names it reads, so lookups find these by identity.
      STAT_FIELD_INDEX.put(STAT_FIELDS.get(i).intern(), i);
    }
  }

  private static final boolean[] STRING_STAT = new boolean[STAT_FIELDS.size()];
  private static final int NULLABLE_COUNTER = STAT_FIELDS.indexOf("totalLogFiles");

  static {
    for (String name : List.of("fileId", "path", "prevCommit", "partitionPath")) {
      STRING_STAT[STAT_FIELDS.indexOf(name)] = true;
    }
  }

  private final TimelineInstant instant;
  private final JsonParser parser;
  private final Value[] stat = new Value[STAT_FIELDS.size()];
  private final Value scalar = new Value();
  private final AvroBytes scratch = new AvroBytes(4096);

  private CommitMetadataJson(TimelineInstant instant, JsonParser parser) {
    this.instant = instant;
    this.parser = parser;
    for (int i = 0; i < stat.length; i++) {
      stat[i] = new Value();
    }
  }

  /**
   * Writes the HoodieCommitMetadata (or, with {@code replace}, HoodieReplaceCommitMetadata) record
   * of a commit file to {@code out}; an empty file is empty metadata, as Hudi reads it.
   *
   * @throws InstantConversionException if the file is not JSON commit metadata
   */
  static void encode(TimelineInstant instant, byte[] content, boolean replace, AvroBytes out)
      throws InstantConversionException {
    if (content.length == 0) {
      Fields empty = new Fields();
      empty.write(instant, replace, out);
      return;
    }
    try (JsonParser parser = JSON.createParser(content)) {
      Fields fields = new CommitMetadataJson(instant, parser).readRoot(replace);
      fields.write(instant, replace, out);
    } catch (InstantConversionException e) {
      throw e;
    } catch (JsonProcessingException e) {
      throw new InstantConversionException(
          instant, "the file is not valid JSON commit metadata: " + e.getOriginalMessage(), e);
    } catch (IOException e) {
      throw new InstantConversionException(instant, "cannot read the JSON: " + e.getMessage(), e);
    }
  }

  /** The top-level fields as read: each encoded, or the problem that stops it. */
  private static final class Fields {
    /** Absent when the JSON has no partitionToWriteStats; null bytes when it is null. */
    Field writeStats = Field.absent();

    Map<String, String> extraMetadata = new LinkedHashMap<>();
    InstantConversionException extraMetadataProblem;
    Value operationType = new Value();
    Value compacted = new Value();
    Field replacedFileIds = Field.absent();

    void write(TimelineInstant instant, boolean replace, AvroBytes out)
        throws InstantConversionException {
      writeStats.throwProblem();
      if (extraMetadataProblem != null) {
        throw extraMetadataProblem;
      }
      String operation = operationType(instant);
      if (!replace && isCompacted(instant)) {
        operation = COMPACT_OPERATION;
      }
      if (replace) {
        replacedFileIds.throwProblem();
      }
      writeStats.writeUnion(out);
      // Hudi keeps rolling stats out of the archive with an empty value (null would not encode).
      extraMetadata.put(ROLLING_STAT, "");
      out.writeIndex(1);
      int start = out.size();
      for (Map.Entry<String, String> e : extraMetadata.entrySet()) {
        out.writeString(e.getKey());
        out.writeString(e.getValue());
      }
      out.endBlock(start, extraMetadata.size());
      out.writeIndex(1); // version: null is the second branch of [int, null]
      if (operation == null) {
        out.writeIndex(0);
      } else {
        out.writeIndex(1);
        out.writeString(operation);
      }
      if (replace) {
        replacedFileIds.writeUnion(out);
      }
    }

    private String operationType(TimelineInstant instant) throws InstantConversionException {
      return switch (operationType.kind) {
        case MISSING -> UNKNOWN_OPERATION;
        case NULL -> null;
        case TEXT -> operationType.text;
        default ->
            throw new InstantConversionException(
                instant, "operationType is not a string but " + operationType.describe());
      };
    }

    private boolean isCompacted(TimelineInstant instant) throws InstantConversionException {
      return switch (compacted.kind) {
        case MISSING, NULL -> false;
        case TRUE -> true;
        case FALSE -> false;
        case TEXT -> {
          if (compacted.text.equals("true") || compacted.text.equals("false")) {
            yield Boolean.parseBoolean(compacted.text);
          }
          throw new InstantConversionException(
              instant, "compacted is not a boolean but " + compacted.describe());
        }
        default ->
            throw new InstantConversionException(
                instant, "compacted is not a boolean but " + compacted.describe());
      };
    }
  }

  /**
   * A map-valued top-level field: absent, null, its encoded map (without the union's branch), or
   * the problem found in it.
   */
  private record Field(boolean present, byte[] map, InstantConversionException problem) {
    static Field absent() {
      return new Field(false, null, null);
    }

    void throwProblem() throws InstantConversionException {
      if (problem != null) {
        throw problem;
      }
    }

    /** An absent map is written empty, as Hudi's Java model starts with one. */
    void writeUnion(AvroBytes out) {
      if (present && map == null) {
        out.writeIndex(0);
        return;
      }
      out.writeIndex(1);
      if (present) {
        out.writeRaw(map, 0, map.length);
      } else {
        out.writeLong(0);
      }
    }
  }

  private Fields readRoot(boolean replace) throws IOException {
    JsonToken token = parser.nextToken();
    if (token == null) {
      throw fail("the file holds no JSON value");
    }
    if (token != JsonToken.START_OBJECT) {
      throw fail("the commit metadata is not a JSON object but " + describe(tree()));
    }
    Fields fields = new Fields();
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String name = parser.currentName();
      parser.nextToken();
      switch (name) {
        case "partitionToWriteStats" -> fields.writeStats = writeStatsField();
        case "extraMetadata" -> readExtraMetadata(fields);
        case "operationType" -> fields.operationType.read(parser);
        case "compacted" -> fields.compacted.read(parser);
        case "partitionToReplaceFileIds" -> {
          if (replace) {
            fields.replacedFileIds = replacedFileIdsField();
          } else {
            parser.skipChildren();
          }
        }
        default -> parser.skipChildren();
      }
    }
    return fields;
  }

  private Field writeStatsField() throws IOException {
    return mapOfArrays(
        "partitionToWriteStats",
        (partition, out) -> {
          if (parser.currentToken() != JsonToken.START_OBJECT) {
            return fail(
                "a write stat of partition '"
                    + partition
                    + "' is not a JSON object but "
                    + describe(tree()));
          }
          return writeStat(partition, out);
        },
        partition -> "the write stats of partition '" + partition + "' are not a JSON array but ");
  }

  private Field replacedFileIdsField() throws IOException {
    return mapOfArrays(
        "partitionToReplaceFileIds",
        (partition, out) -> {
          scalar.read(parser);
          String where = "a replaced file id of partition '" + partition + "'";
          if (scalar.kind == Kind.MISSING || scalar.kind == Kind.NULL) {
            return fail(where + " is null");
          }
          String text = scalar.scalarText();
          if (text == null) {
            return fail(where + " is not a string but " + scalar.describe());
          }
          out.writeString(text);
          return null;
        },
        partition ->
            "the replaced file ids of partition '" + partition + "' are not a JSON array but ");
  }

  /** Encodes the array item the parser is on into {@code out}, moving past it. */
  private interface ItemEncoder {
    /** The problem with the item, or null once it is written. */
    InstantConversionException encode(String partition, AvroBytes out) throws IOException;
  }

  private interface NotAnArray {
    String message(String partition);
  }

  /**
   * A map of partitions to arrays, the parser on its value: each partition's array is encoded on
   * its own, so that a partition named twice keeps its first place and its last value, and so that
   * the first problem in map order is the one reported.
   */
  private Field mapOfArrays(String name, ItemEncoder items, NotAnArray notAnArray)
      throws IOException {
    JsonToken token = parser.currentToken();
    if (token == JsonToken.VALUE_NULL) {
      return new Field(true, null, null);
    }
    if (token != JsonToken.START_OBJECT) {
      return new Field(true, null, fail(name + " is not a JSON object but " + describe(tree())));
    }
    Map<String, Object> partitions = new LinkedHashMap<>();
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String partition = parser.currentName();
      JsonToken value = parser.nextToken();
      scratch.reset();
      scratch.writeString(partition);
      if (value == JsonToken.VALUE_NULL) {
        scratch.writeLong(0);
        partitions.put(partition, scratch.toByteArray());
      } else if (value != JsonToken.START_ARRAY) {
        partitions.put(partition, fail(notAnArray.message(partition) + describe(tree())));
      } else {
        InstantConversionException problem = encodeArray(partition, items, scratch);
        partitions.put(partition, problem != null ? problem : scratch.toByteArray());
      }
    }
    AvroBytes map = new AvroBytes(partitions.size() * 256);
    for (Object encoded : partitions.values()) {
      if (encoded instanceof InstantConversionException problem) {
        return new Field(true, null, problem);
      }
      byte[] bytes = (byte[]) encoded;
      map.writeRaw(bytes, 0, bytes.length);
    }
    map.endBlock(0, partitions.size());
    return new Field(true, map.toByteArray(), null);
  }

  /**
   * Encodes the array the parser is on (its START_ARRAY) into {@code out}, item by item; once an
   * item has a problem the rest are passed over.
   *
   * @return the first item's problem, or null
   */
  private InstantConversionException encodeArray(String partition, ItemEncoder items, AvroBytes out)
      throws IOException {
    int start = out.size();
    long count = 0;
    InstantConversionException problem = null;
    while (parser.nextToken() != JsonToken.END_ARRAY) {
      if (problem != null) {
        parser.skipChildren();
        continue;
      }
      problem = items.encode(partition, out);
      count++;
    }
    if (problem == null) {
      out.endBlock(start, count);
    }
    return problem;
  }

  /**
   * Encodes the write stat the parser is on (its START_OBJECT) after reading all of it, so that a
   * field given twice counts once, with its last value.
   *
   * @return the problem with it, first in the record's field order, or null
   */
  private InstantConversionException writeStat(String partition, AvroBytes out) throws IOException {
    for (Value v : stat) {
      v.kind = Kind.MISSING;
    }
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      Integer index = STAT_FIELD_INDEX.get(parser.currentName());
      parser.nextToken();
      if (index == null) {
        parser.skipChildren();
      } else {
        stat[index].read(parser);
      }
    }
    for (int i = 0; i < stat.length; i++) {
      Value value = stat[i];
      boolean absent = value.kind == Kind.MISSING || value.kind == Kind.NULL;
      if (STRING_STAT[i]) {
        if (absent) {
          out.writeIndex(0);
          continue;
        }
        String text = value.scalarText();
        if (text == null) {
          return statProblem(partition, i, " is not a string but " + value.describe());
        }
        out.writeIndex(1);
        out.writeString(text);
      } else if (absent) {
        if (i == NULLABLE_COUNTER) {
          out.writeIndex(0);
        } else {
          out.writeIndex(1);
          out.writeLong(0);
        }
      } else {
        String problem = value.longProblem();
        if (problem != null) {
          return statProblem(partition, i, problem);
        }
        out.writeIndex(1);
        out.writeLong(value.number);
      }
    }
    return null;
  }

  private InstantConversionException statProblem(String partition, int field, String problem) {
    return fail(
        "write stat field "
            + STAT_FIELDS.get(field)
            + " of partition '"
            + partition
            + "'"
            + problem);
  }

  private void readExtraMetadata(Fields fields) throws IOException {
    fields.extraMetadata = new LinkedHashMap<>();
    fields.extraMetadataProblem = null;
    JsonToken token = parser.currentToken();
    if (token == JsonToken.VALUE_NULL) {
      return;
    }
    if (token != JsonToken.START_OBJECT) {
      fields.extraMetadataProblem =
          fail("extraMetadata is not a JSON object but " + describe(tree()));
      return;
    }
    Value value = scalar;
    Map<String, Object> entries = new LinkedHashMap<>();
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String key = parser.currentName();
      parser.nextToken();
      value.read(parser);
      if (value.kind == Kind.MISSING || value.kind == Kind.NULL) {
        entries.put(key, null);
        continue;
      }
      String text = value.scalarText();
      entries.put(
          key,
          text != null
              ? text
              : fail(
                  "extraMetadata value of '" + key + "' is not a string but " + value.describe()));
    }
    for (Map.Entry<String, Object> e : entries.entrySet()) {
      if (e.getValue() instanceof InstantConversionException problem) {
        fields.extraMetadataProblem = problem;
        return;
      }
      if (e.getValue() != null) {
        fields.extraMetadata.put(e.getKey(), (String) e.getValue());
      }
    }
  }

  private JsonNode tree() throws IOException {
    JsonNode node = JSON.readTree(parser);
    return node == null ? JsonNodeFactory.instance.missingNode() : node;
  }

  private static String describe(JsonNode node) {
    String text = node.toString();
    String shown = text.length() > 60 ? text.substring(0, 60) + "..." : text;
    return node.getNodeType().toString().toLowerCase(Locale.ROOT) + " " + shown;
  }

  private InstantConversionException fail(String reason) {
    return new InstantConversionException(instant, reason);
  }

  private enum Kind {
    MISSING,
    NULL,
    TEXT,
    INTEGER,
    BIG_INTEGER,
    REAL,
    TRUE,
    FALSE,
    TREE
  }

  /**
   * One JSON value as Jackson's tree would hold it, without building the tree: a scalar, or
   * (rarely, and only to be named in a message) the tree of an object or array.
   */
  private static final class Value {
    Kind kind = Kind.MISSING;
    String text;
    long number;
    double real;
    JsonNode tree;

    /** Reads the value the parser is on, moving past it. */
    void read(JsonParser parser) throws IOException {
      switch (parser.currentToken()) {
        case VALUE_NULL -> kind = Kind.NULL;
        case VALUE_STRING -> {
          kind = Kind.TEXT;
          text = parser.getText();
        }
        case VALUE_NUMBER_INT -> {
          if (parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
            kind = Kind.BIG_INTEGER;
            text = parser.getText();
          } else {
            kind = Kind.INTEGER;
            number = parser.getLongValue();
          }
        }
        case VALUE_NUMBER_FLOAT -> {
          kind = Kind.REAL;
          real = parser.getDoubleValue();
        }
        case VALUE_TRUE -> kind = Kind.TRUE;
        case VALUE_FALSE -> kind = Kind.FALSE;
        default -> {
          kind = Kind.TREE;
          tree = JSON.readTree(parser);
        }
      }
    }

    /** The text of a scalar (numbers and booleans as Jackson writes them), null for a structure. */
    String scalarText() {
      return switch (kind) {
        case TEXT, BIG_INTEGER -> text;
        case INTEGER -> Long.toString(number);
        case REAL -> Double.toString(real);
        case TRUE -> "true";
        case FALSE -> "false";
        default -> null;
      };
    }

    /** Sets {@link #number} to the value as a long, or returns why it is none. */
    String longProblem() {
      switch (kind) {
        case INTEGER:
          return null;
        case REAL:
          if (!(real >= Long.MIN_VALUE && real <= Long.MAX_VALUE)) {
            return " is out of range: " + Double.toString(real);
          }
          number = (long) real;
          return null;
        case BIG_INTEGER:
          return " is out of range: " + text;
        case TEXT:
          try {
            number = Long.parseLong(text.trim());
            return null;
          } catch (NumberFormatException e) {
            return " is not a number: '" + text + "'";
          }
        default:
          return " is not a number but " + describe();
      }
    }

    String describe() {
      return CommitMetadataJson.describe(node());
    }

    private JsonNode node() {
      JsonNodeFactory nodes = JsonNodeFactory.instance;
      return switch (kind) {
        case MISSING -> nodes.missingNode();
        case NULL -> nodes.nullNode();
        case TEXT -> nodes.textNode(text);
        case INTEGER -> nodes.numberNode(number);
        case BIG_INTEGER -> nodes.numberNode(new java.math.BigInteger(text));
        case REAL -> nodes.numberNode(real);
        case TRUE -> nodes.booleanNode(true);
        case FALSE -> nodes.booleanNode(false);
        case TREE -> tree;
      };
    }
  }
}
