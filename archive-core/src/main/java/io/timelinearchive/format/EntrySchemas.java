package io.timelinearchive.format;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;

/**
 * Archive entry schemas whose detail unions hold other record schemas than Hudi 0.15's defaults:
 * the schemas found in Avro instant files written by other Hudi versions.
 */
final class EntrySchemas {
  private static final int MAX_CACHED = 256;
  private static final Map<Map<EntryDetail, Schema>, Schema> CACHE = new ConcurrentHashMap<>();

  private EntrySchemas() {}

  /**
   * The entry schema whose union for each given detail holds the given record schema, and the
   * default elsewhere.
   *
   * @throws IllegalArgumentException if the result would define one named type twice, differently
   *     (JSON can only name a type once, so such a schema cannot be written)
   */
  static Schema entrySchema(Map<EntryDetail, Schema> branches) {
    Map<EntryDetail, Schema> changed = new EnumMap<>(EntryDetail.class);
    branches.forEach(
        (detail, schema) -> {
          if (!isDefault(detail, schema)) {
            changed.put(detail, schema);
          }
        });
    if (changed.isEmpty()) {
      return ArchiveSchemas.ARCHIVED_META_ENTRY;
    }
    Map<EntryDetail, Schema> key = Collections.unmodifiableMap(changed);
    Schema cached = CACHE.get(key);
    if (cached != null) {
      return cached;
    }
    Schema composed = compose(changed);
    if (CACHE.size() >= MAX_CACHED) {
      CACHE.clear();
    }
    CACHE.put(key, composed);
    return composed;
  }

  /**
   * Whether {@code schema} equals the detail's default, remembered by instance: Avro instant files
   * carry a few schemas thousands of times, one instance each ({@link SchemaCache}), and comparing
   * one with the default walks all of it.
   */
  private static boolean isDefault(EntryDetail detail, Schema schema) {
    if (schema == detail.defaultSchema()) {
      return true;
    }
    Schema equalTo = EQUAL_TO.get(schema);
    if (equalTo == null) {
      equalTo = schema.equals(detail.defaultSchema()) ? detail.defaultSchema() : schema;
      if (EQUAL_TO.size() >= MAX_CACHED) {
        EQUAL_TO.clear();
      }
      EQUAL_TO.put(schema, equalTo);
    }
    return equalTo == detail.defaultSchema();
  }

  /** Schemas met, each to the default it equals, or to itself. */
  private static final Map<Schema, Schema> EQUAL_TO =
      Collections.synchronizedMap(new IdentityHashMap<>());

  private static Schema compose(Map<EntryDetail, Schema> changed) {
    Schema entry = ArchiveSchemas.ARCHIVED_META_ENTRY;
    Map<String, EntryDetail> byField = new HashMap<>();
    changed.keySet().forEach(d -> byField.put(d.fieldName(), d));
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field field : entry.getFields()) {
      EntryDetail detail = byField.get(field.name());
      Schema schema =
          detail == null
              ? field.schema()
              : Schema.createUnion(Schema.create(Schema.Type.NULL), changed.get(detail));
      fields.add(new Schema.Field(field, schema));
    }
    Schema composed =
        Schema.createRecord(
            entry.getName(), entry.getDoc(), entry.getNamespace(), entry.isError(), fields);
    checkNamedTypes(composed, new HashMap<>(), Collections.newSetFromMap(new IdentityHashMap<>()));
    return composed;
  }

  private static void checkNamedTypes(
      Schema schema, Map<String, Schema> byName, Set<Schema> visited) {
    if (!visited.add(schema)) {
      return;
    }
    switch (schema.getType()) {
      case RECORD, ENUM, FIXED -> {
        Schema previous = byName.putIfAbsent(schema.getFullName(), schema);
        if (previous != null && !previous.equals(schema)) {
          throw new IllegalArgumentException(
              "two different definitions of type "
                  + schema.getFullName()
                  + " in one archive entry schema");
        }
        if (schema.getType() == Schema.Type.RECORD) {
          for (Schema.Field field : schema.getFields()) {
            checkNamedTypes(field.schema(), byName, visited);
          }
        }
      }
      case ARRAY -> checkNamedTypes(schema.getElementType(), byName, visited);
      case MAP -> checkNamedTypes(schema.getValueType(), byName, visited);
      case UNION -> schema.getTypes().forEach(t -> checkNamedTypes(t, byName, visited));
      default -> {}
    }
  }
}
