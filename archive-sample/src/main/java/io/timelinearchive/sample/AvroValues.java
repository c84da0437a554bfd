package io.timelinearchive.sample;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Builds records of Hudi's metadata schemas from the few values a sample needs: every other field
 * gets its default, or an empty value of its type, so the samples follow the schemas as they are.
 */
final class AvroValues {
  private AvroValues() {}

  static GenericRecord record(Schema schema, Map<String, Object> values) {
    GenericData.Record record = new GenericData.Record(schema);
    for (Schema.Field field : schema.getFields()) {
      if (values.containsKey(field.name())) {
        record.put(field.pos(), values.get(field.name()));
      } else if (field.hasDefaultValue()) {
        record.put(field.pos(), GenericData.get().getDefaultValue(field));
      } else {
        record.put(field.pos(), empty(field.schema()));
      }
    }
    for (String name : values.keySet()) {
      if (schema.getField(name) == null) {
        throw new IllegalArgumentException(schema.getFullName() + " has no field " + name);
      }
    }
    return record;
  }

  private static Object empty(Schema schema) {
    return switch (schema.getType()) {
      case NULL -> null;
      case UNION -> empty(schema.getTypes().get(0));
      case STRING -> "";
      case INT -> 0;
      case LONG -> 0L;
      case FLOAT -> 0f;
      case DOUBLE -> 0d;
      case BOOLEAN -> false;
      case BYTES -> ByteBuffer.allocate(0);
      case ARRAY -> new ArrayList<>();
      case MAP -> new HashMap<>();
      case RECORD -> record(schema, Map.of());
      case ENUM -> new GenericData.EnumSymbol(schema, schema.getEnumSymbols().get(0));
      case FIXED -> new GenericData.Fixed(schema, new byte[schema.getFixedSize()]);
    };
  }

  /** The record schema a field holds, looking through unions, arrays and maps. */
  static Schema nested(Schema record, String field) {
    Schema.Field f = record.getField(field);
    if (f == null) {
      throw new IllegalArgumentException(record.getFullName() + " has no field " + field);
    }
    Schema s = f.schema();
    while (s.getType() != Schema.Type.RECORD) {
      s =
          switch (s.getType()) {
            case UNION ->
                s.getTypes().stream()
                    .filter(t -> t.getType() != Schema.Type.NULL)
                    .findFirst()
                    .orElseThrow();
            case ARRAY -> s.getElementType();
            case MAP -> s.getValueType();
            default ->
                throw new IllegalArgumentException(
                    record.getFullName() + "." + field + " holds no record");
          };
    }
    return s;
  }
}
