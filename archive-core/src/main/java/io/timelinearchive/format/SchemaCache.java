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
}
