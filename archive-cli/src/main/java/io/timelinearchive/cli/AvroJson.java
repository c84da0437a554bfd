package io.timelinearchive.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.GenericRecord;

/**
 * Avro values as Jackson trees, so that JSON output embeds archived metadata as objects. Walks the
 * datum instead of parsing Avro's {@code toString()}: that text is not always JSON (NaN and
 * infinite doubles come out bare).
 */
final class AvroJson {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private AvroJson() {}

  /** The record's fields in schema order, leaving out those named in {@code omit}. */
  static ObjectNode record(GenericRecord record, Set<String> omit) {
    ObjectNode node = NODES.objectNode();
    for (Schema.Field field : record.getSchema().getFields()) {
      if (!omit.contains(field.name())) {
        node.set(field.name(), value(record.get(field.pos())));
      }
    }
    return node;
  }

  static JsonNode value(Object datum) {
    if (datum == null) {
      return NODES.nullNode();
    }
    if (datum instanceof GenericRecord record) {
      return record(record, Set.of());
    }
    if (datum instanceof Map<?, ?> map) {
      ObjectNode node = NODES.objectNode();
      map.forEach((k, v) -> node.set(String.valueOf(k), value(v)));
      return node;
    }
    if (datum instanceof Collection<?> items) {
      ArrayNode node = NODES.arrayNode();
      items.forEach(item -> node.add(value(item)));
      return node;
    }
    if (datum instanceof Boolean b) {
      return NODES.booleanNode(b);
    }
    if (datum instanceof Integer i) {
      return NODES.numberNode(i);
    }
    if (datum instanceof Long l) {
      return NODES.numberNode(l);
    }
    if (datum instanceof Float f) {
      return Float.isFinite(f) ? NODES.numberNode(f) : NODES.textNode(f.toString());
    }
    if (datum instanceof Double d) {
      return Double.isFinite(d) ? NODES.numberNode(d) : NODES.textNode(d.toString());
    }
    if (datum instanceof ByteBuffer bytes) {
      byte[] copy = new byte[bytes.remaining()];
      bytes.duplicate().get(copy);
      return NODES.binaryNode(copy);
    }
    if (datum instanceof GenericFixed fixed) {
      return NODES.binaryNode(fixed.bytes().clone());
    }
    // strings (Utf8 or String) and enum symbols
    return NODES.textNode(datum.toString());
  }
}
