package io.timelinearchive.format;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.timelinearchive.timeline.TimelineInstant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * The test oracle of {@link CommitMetadataJson}: the archiver's earlier conversion, which built
 * Jackson's tree of the whole file and then a record from it, kept here to hold the streaming one
 * to the same results. Hudi's JSON commit metadata as the Avro records of the archive, the way Hudi
 * 0.15's archiver converts it: JSON to its Java model, then Jackson's {@code convertValue} to the
 * Avro class. Checked against that code on sample files; what follows from its Java model:
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
 */
final class TreeCommitMetadataOracle {
  static final String ROLLING_STAT = "ROLLING_STAT";
  private static final String UNKNOWN_OPERATION = "UNKNOWN";
  private static final String COMPACT_OPERATION = "COMPACT";

  private static final Set<String> STRING_STATS =
      Set.of("fileId", "path", "prevCommit", "partitionPath");
  private static final String NULLABLE_COUNTER = "totalLogFiles";

  private final TimelineInstant instant;

  private TreeCommitMetadataOracle(TimelineInstant instant) {
    this.instant = instant;
  }

  /** HoodieCommitMetadata from a JSON object; {@code root == null} means an empty file. */
  static GenericRecord commitMetadata(TimelineInstant instant, JsonNode root)
      throws InstantConversionException {
    return new TreeCommitMetadataOracle(instant)
        .convert(root, ArchiveSchemas.COMMIT_METADATA, false);
  }

  /** HoodieReplaceCommitMetadata from a JSON object; {@code root == null} means an empty file. */
  static GenericRecord replaceCommitMetadata(TimelineInstant instant, JsonNode root)
      throws InstantConversionException {
    return new TreeCommitMetadataOracle(instant)
        .convert(root, ArchiveSchemas.REPLACE_COMMIT_METADATA, true);
  }

  private GenericRecord convert(JsonNode root, Schema schema, boolean replace)
      throws InstantConversionException {
    if (root != null && !root.isObject()) {
      throw fail("the commit metadata is not a JSON object but " + describe(root));
    }
    JsonNode json = root == null ? MissingNode.getInstance() : root;
    GenericRecord record = new GenericData.Record(schema);
    record.put("partitionToWriteStats", writeStats(json.path("partitionToWriteStats")));

    Map<String, String> extra = stringMap(json.path("extraMetadata"), "extraMetadata");
    // Hudi keeps rolling stats out of the archive with an empty value (null would not encode).
    extra.put(ROLLING_STAT, "");
    record.put("extraMetadata", extra);

    String operation = operationType(json.path("operationType"));
    if (!replace && isCompacted(json.path("compacted"))) {
      operation = COMPACT_OPERATION;
    }
    record.put("operationType", operation);
    record.put("version", null);

    if (replace) {
      record.put(
          "partitionToReplaceFileIds", replaceFileIds(json.path("partitionToReplaceFileIds")));
    }
    return record;
  }

  private Map<String, List<GenericRecord>> writeStats(JsonNode node)
      throws InstantConversionException {
    if (node.isMissingNode()) {
      return new LinkedHashMap<>();
    }
    if (node.isNull()) {
      return null;
    }
    if (!node.isObject()) {
      throw fail("partitionToWriteStats is not a JSON object but " + describe(node));
    }
    Map<String, List<GenericRecord>> result = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> partition : node.properties()) {
      JsonNode stats = partition.getValue();
      List<GenericRecord> list = new ArrayList<>();
      if (!stats.isNull()) {
        if (!stats.isArray()) {
          throw fail(
              "the write stats of partition '"
                  + partition.getKey()
                  + "' are not a JSON array but "
                  + describe(stats));
        }
        for (JsonNode stat : stats) {
          list.add(writeStat(partition.getKey(), stat));
        }
      }
      result.put(partition.getKey(), list);
    }
    return result;
  }

  private GenericRecord writeStat(String partition, JsonNode stat)
      throws InstantConversionException {
    if (!stat.isObject()) {
      throw fail(
          "a write stat of partition '"
              + partition
              + "' is not a JSON object but "
              + describe(stat));
    }
    GenericRecord record = new GenericData.Record(ArchiveSchemas.WRITE_STAT);
    for (Schema.Field field : ArchiveSchemas.WRITE_STAT.getFields()) {
      JsonNode value = stat.path(field.name());
      // Named only on failure: built per field, the text cost more than converting the stat.
      Supplier<String> where =
          () -> "write stat field " + field.name() + " of partition '" + partition + "'";
      if (STRING_STATS.contains(field.name())) {
        record.put(field.pos(), scalarText(value, where));
      } else if (field.name().equals(NULLABLE_COUNTER)) {
        record.put(
            field.pos(), value.isMissingNode() || value.isNull() ? null : toLong(value, where));
      } else {
        record.put(
            field.pos(), value.isMissingNode() || value.isNull() ? 0L : toLong(value, where));
      }
    }
    return record;
  }

  private Map<String, List<String>> replaceFileIds(JsonNode node)
      throws InstantConversionException {
    if (node.isMissingNode()) {
      return new LinkedHashMap<>();
    }
    if (node.isNull()) {
      return null;
    }
    if (!node.isObject()) {
      throw fail("partitionToReplaceFileIds is not a JSON object but " + describe(node));
    }
    Map<String, List<String>> result = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> partition : node.properties()) {
      List<String> ids = new ArrayList<>();
      JsonNode array = partition.getValue();
      if (!array.isNull()) {
        if (!array.isArray()) {
          throw fail(
              "the replaced file ids of partition '"
                  + partition.getKey()
                  + "' are not a JSON array but "
                  + describe(array));
        }
        for (JsonNode id : array) {
          String text =
              scalarText(id, () -> "a replaced file id of partition '" + partition.getKey() + "'");
          if (text == null) {
            throw fail("a replaced file id of partition '" + partition.getKey() + "' is null");
          }
          ids.add(text);
        }
      }
      result.put(partition.getKey(), ids);
    }
    return result;
  }

  private Map<String, String> stringMap(JsonNode node, String name)
      throws InstantConversionException {
    Map<String, String> result = new LinkedHashMap<>();
    if (node.isMissingNode() || node.isNull()) {
      return result;
    }
    if (!node.isObject()) {
      throw fail(name + " is not a JSON object but " + describe(node));
    }
    for (Map.Entry<String, JsonNode> e : node.properties()) {
      String value = scalarText(e.getValue(), () -> name + " value of '" + e.getKey() + "'");
      if (value != null) {
        result.put(e.getKey(), value);
      }
    }
    return result;
  }

  private String operationType(JsonNode node) throws InstantConversionException {
    if (node.isMissingNode()) {
      return UNKNOWN_OPERATION;
    }
    if (node.isNull()) {
      return null;
    }
    if (!node.isTextual()) {
      throw fail("operationType is not a string but " + describe(node));
    }
    return node.textValue();
  }

  private boolean isCompacted(JsonNode node) throws InstantConversionException {
    if (node.isMissingNode() || node.isNull()) {
      return false;
    }
    if (node.isBoolean()) {
      return node.booleanValue();
    }
    if (node.isTextual() && (node.textValue().equals("true") || node.textValue().equals("false"))) {
      return Boolean.parseBoolean(node.textValue());
    }
    throw fail("compacted is not a boolean but " + describe(node));
  }

  /** Text of a scalar (Jackson coerces numbers and booleans to strings), null for null/missing. */
  private String scalarText(JsonNode node, Supplier<String> where)
      throws InstantConversionException {
    if (node.isMissingNode() || node.isNull()) {
      return null;
    }
    if (node.isTextual()) {
      return node.textValue();
    }
    if (node.isValueNode()) {
      return node.asText();
    }
    throw fail(where.get() + " is not a string but " + describe(node));
  }

  private long toLong(JsonNode node, Supplier<String> where) throws InstantConversionException {
    if (node.isNumber()) {
      if (!node.canConvertToLong()) {
        throw fail(where.get() + " is out of range: " + node.asText());
      }
      return node.longValue();
    }
    if (node.isTextual()) {
      try {
        return Long.parseLong(node.textValue().trim());
      } catch (NumberFormatException e) {
        throw fail(where.get() + " is not a number: '" + node.textValue() + "'");
      }
    }
    throw fail(where.get() + " is not a number but " + describe(node));
  }

  private static String describe(JsonNode node) {
    String text = node.toString();
    String shown = text.length() > 60 ? text.substring(0, 60) + "..." : text;
    return node.getNodeType().toString().toLowerCase(Locale.ROOT) + " " + shown;
  }

  private InstantConversionException fail(String reason) {
    return new InstantConversionException(instant, reason);
  }
}
