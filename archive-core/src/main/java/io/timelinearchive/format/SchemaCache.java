package io.timelinearchive.format;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;

/**
 * Parsed writer schemas by their JSON. An archive repeats one schema in every block header, and
 * keeping one Schema instance per JSON also lets Avro reuse its resolvers, which it caches by
 * schema identity.
 */
final class SchemaCache {
  private static final int MAX_ENTRIES = 256;
  private static final Map<String, Schema> PARSED = new ConcurrentHashMap<>();
  private static final Map<Schema, Schema> CANONICAL = new ConcurrentHashMap<>();

  private SchemaCache() {}

  static Schema parse(String json) {
    Schema schema = PARSED.get(json);
    if (schema == null) {
      schema = new Schema.Parser().parse(json);
      if (PARSED.size() >= MAX_ENTRIES) {
        PARSED.clear();
      }
      PARSED.put(json, schema);
    }
    return schema;
  }

  /**
   * One instance for all equal schemas. Avro caches a reader's resolver per schema instance in a
   * thread-local map whose values hold their keys, so a reader thread that sees a fresh but equal
   * schema per file (every Avro instant file carries its own) would keep every one of them.
   */
  static Schema canonical(Schema schema) {
    Schema known = CANONICAL.get(schema);
    if (known != null) {
      return known;
    }
    if (CANONICAL.size() >= MAX_ENTRIES) {
      CANONICAL.clear();
    }
    Schema previous = CANONICAL.putIfAbsent(schema, schema);
    return previous == null ? schema : previous;
  }
}
